// The webhooks screen as a pure machine: the subscriptions listed, the create/edit form with its
// event-type picker, the key shown once after a replacement, and each subscription's last test.
// The slice does the I/O and feeds the answers back as events. Which row is selected is the view
// slice's (by id, per list: WEBHOOKS_LIST, EVENT_TYPES_LIST, TEST_TYPES_LIST).
import {
  checkEventTypes,
  DEFAULT_API_VERSION,
  filterEventTypes,
  matchesWords,
  parseApiVersion,
  parseNotificationUrl,
  parseSubscriptionName,
  unofferedEventTypes,
} from "../domain/webhooks.js";
import type { WebhookSubscription } from "../spec/generated/types.js";

/** The list of subscriptions, for the view slice's selection. */
export const WEBHOOKS_LIST = "webhooks";
/** The form's event-type picker, a list of its own. */
export const EVENT_TYPES_LIST = "webhooks.event-types";
/** The picker of the event type to test. */
export const TEST_TYPES_LIST = "webhooks.test";

/** The form's text fields. */
export type SubscriptionField = "name" | "url" | "apiVersion";

/** The event types one API version offers, as the service listed them. */
export type OfferedTypes =
  | { state: "loading"; version: string }
  | { state: "loaded"; version: string; types: string[] }
  | { state: "failed"; version: string; problem: string };

/** The create or edit form: first the fields, then the event types. */
export interface SubscriptionForm {
  /** Absent when creating. */
  id: string | undefined;
  name: string;
  url: string;
  apiVersion: string;
  step: "fields" | "events";
  offered: OfferedTypes | undefined;
  picked: string[];
  filter: string;
  problem: string | undefined;
  /** The field the problem is about, when it is about one: the form takes the manager there. */
  problemField?: SubscriptionField | undefined;
  saving: boolean;
}

/** What the receiver answered to a test notification. */
export interface TestOutcome {
  eventType: string;
  /** Absent when the receiver could not be reached. */
  statusCode: number | undefined;
  /** How long the test took, as measured here (the service waits for the receiver). */
  tookMs: number;
  at: string;
}

/** The picker of the event type to test. */
export interface TestPick {
  subscriptionId: string;
  types: string[];
}

/** The webhooks screen's state. */
export interface WebhooksState {
  items: WebhookSubscription[];
  loaded: boolean;
  /** The service leaves disabled subscriptions out unless asked. */
  includeDisabled: boolean;
  /** Narrows the list by name, URL or event type. */
  listFilter: string;
  form: SubscriptionForm | undefined;
  /** A new signature key, shown once; masked as soon as anything else happens. */
  revealed: { subscriptionId: string; key: string } | undefined;
  tests: Readonly<Record<string, TestOutcome>>;
  testPick: TestPick | undefined;
  /** A test on its way, by subscription. */
  testing: string | undefined;
}

/** Everything that changes the webhooks screen. */
export type WebhooksEvent =
  | { type: "listed"; items: WebhookSubscription[]; includeDisabled: boolean }
  | { type: "list-filter"; text: string }
  | { type: "open-create" }
  | { type: "open-edit"; id: string }
  | { type: "edit-field"; field: SubscriptionField; value: string }
  | { type: "types-loading"; version: string }
  | { type: "types-loaded"; version: string; types: string[] }
  | { type: "types-failed"; version: string; problem: string }
  | { type: "to-events"; today?: Date }
  | { type: "to-fields" }
  | { type: "filter"; text: string }
  | { type: "toggle-type"; eventType: string }
  | { type: "toggle-shown" }
  | { type: "drop-unoffered" }
  | { type: "form-problem"; problem: string | undefined; field?: SubscriptionField }
  | { type: "saving" }
  | { type: "saved"; subscription: WebhookSubscription }
  | { type: "close-form" }
  | { type: "changed"; subscription: WebhookSubscription }
  | { type: "deleted"; id: string }
  | { type: "key-replaced"; id: string; key: string }
  | { type: "hide-key" }
  | { type: "open-test"; id: string }
  | { type: "close-test" }
  | { type: "test-sending"; id: string }
  | { type: "test-result"; id: string; outcome: TestOutcome }
  | { type: "test-failed"; id: string };

/** The screen before anything is read. */
export const initialWebhooks: WebhooksState = {
  items: [],
  loaded: false,
  includeDisabled: false,
  listFilter: "",
  form: undefined,
  revealed: undefined,
  tests: {},
  testPick: undefined,
  testing: undefined,
};

/** The subscriptions the list shows: narrowed by the filter's words (name, URL, event types). */
export function shownSubscriptions(s: Pick<WebhooksState, "items" | "listFilter">): WebhookSubscription[] {
  if (!s.listFilter.trim()) return s.items;
  return s.items.filter((i) =>
    matchesWords([i.name ?? "", i.notification_url ?? "", ...(i.event_types ?? [])].join(" "), s.listFilter),
  );
}

/** The event types the picker shows: the version's, narrowed by the filter. */
export function shownTypes(form: SubscriptionForm): string[] {
  return form.offered?.state === "loaded" ? filterEventTypes(form.offered.types, form.filter) : [];
}

/** The marked event types the form's version does not offer (a version changed while editing). */
export function unofferedTypes(form: SubscriptionForm): string[] {
  return form.offered?.state === "loaded" ? unofferedEventTypes(form.picked, form.offered.types) : [];
}

/** Checks the form's fields before the event types are picked: the problem in words, or none. */
export function checkFields(
  form: Pick<SubscriptionForm, "name" | "url" | "apiVersion">,
  today?: Date,
): string | undefined {
  return fieldsProblem(form, today)?.text;
}

/** As {@link checkFields}, with the field the problem is about. */
export function fieldsProblem(
  form: Pick<SubscriptionForm, "name" | "url" | "apiVersion">,
  today?: Date,
): { text: string; field: SubscriptionField } | undefined {
  const name = parseSubscriptionName(form.name);
  if (!name.ok) return { text: name.problem, field: "name" };
  const url = parseNotificationUrl(form.url);
  if (!url.ok) return { text: url.problem, field: "url" };
  const version = parseApiVersion(form.apiVersion, today);
  return version.ok ? undefined : { text: version.problem, field: "apiVersion" };
}

/** Checks the whole form before it is sent. */
export function checkForm(form: SubscriptionForm): string | undefined {
  const fields = checkFields(form);
  if (fields) return fields;
  if (form.offered?.state !== "loaded") return "The event types of this API version are not read yet.";
  return checkEventTypes(form.picked, form.offered.types, form.offered.version);
}

function formEvent(form: SubscriptionForm, e: WebhooksEvent): SubscriptionForm {
  switch (e.type) {
    case "edit-field":
      return { ...form, [e.field]: e.value, problem: undefined };
    case "types-loading":
      return { ...form, offered: { state: "loading", version: e.version } };
    case "types-loaded":
      return form.offered?.version === e.version
        ? { ...form, offered: { state: "loaded", version: e.version, types: e.types } }
        : form;
    case "types-failed":
      return form.offered?.version === e.version ? { ...form, offered: { state: "failed", ...e } } : form;
    case "to-events": {
      const problem = fieldsProblem(form, e.today);
      return problem
        ? { ...form, problem: problem.text, problemField: problem.field }
        : { ...form, step: "events", problem: undefined };
    }
    case "to-fields":
      return { ...form, step: "fields", problem: undefined };
    case "filter":
      return { ...form, filter: e.text };
    case "toggle-type": {
      const t = e.eventType;
      const picked = form.picked.includes(t) ? form.picked.filter((p) => p !== t) : [...form.picked, t];
      return { ...form, picked, problem: undefined };
    }
    case "toggle-shown": {
      // All shown marked: unmark them; otherwise mark every one shown.
      const shown = shownTypes(form);
      const all = shown.length > 0 && shown.every((t) => form.picked.includes(t));
      const picked = all ? form.picked.filter((p) => !shown.includes(p)) : [...new Set([...form.picked, ...shown])];
      return { ...form, picked, problem: undefined };
    }
    case "drop-unoffered":
      return form.offered?.state === "loaded"
        ? { ...form, picked: form.picked.filter((t) => unofferedTypes(form).indexOf(t) < 0), problem: undefined }
        : form;
    case "form-problem":
      return { ...form, problem: e.problem, problemField: e.field, saving: false };
    case "saving":
      return { ...form, saving: true, problem: undefined };
    default:
      return form;
  }
}

function newForm(sub?: WebhookSubscription): SubscriptionForm {
  return {
    id: sub?.id,
    name: sub?.name ?? "",
    url: sub?.notification_url ?? "",
    apiVersion: sub?.api_version ?? DEFAULT_API_VERSION,
    step: "fields",
    offered: undefined,
    picked: [...(sub?.event_types ?? [])],
    filter: "",
    problem: undefined,
    saving: false,
  };
}

function upsert(items: WebhookSubscription[], sub: WebhookSubscription, includeDisabled: boolean) {
  // Mirror the service: a disabled subscription leaves the list unless disabled ones are shown.
  const keep = includeDisabled || sub.enabled !== false;
  const at = items.findIndex((i) => i.id === sub.id);
  if (at < 0) return keep ? [...items, sub] : items;
  return keep ? items.map((i) => (i.id === sub.id ? sub : i)) : items.filter((i) => i.id !== sub.id);
}

/** The webhooks screen's reducer. */
export function webhooksReducer(s: WebhooksState, e: WebhooksEvent): WebhooksState {
  // The key is shown once: any other step (a reread too) hides it for good.
  const base = s.revealed && e.type !== "key-replaced" ? { ...s, revealed: undefined } : s;
  switch (e.type) {
    case "listed":
      return { ...base, items: e.items, loaded: true, includeDisabled: e.includeDisabled };
    case "list-filter":
      return { ...base, listFilter: e.text };
    case "open-create":
      return { ...base, form: newForm(), testPick: undefined };
    case "open-edit": {
      const sub = base.items.find((i) => i.id === e.id);
      return sub ? { ...base, form: newForm(sub), testPick: undefined } : base;
    }
    case "close-form":
      return { ...base, form: undefined };
    case "saved":
      return { ...base, form: undefined, items: upsert(base.items, e.subscription, base.includeDisabled) };
    case "changed":
      return { ...base, items: upsert(base.items, e.subscription, base.includeDisabled) };
    case "deleted": {
      const { [e.id]: _gone, ...tests } = base.tests;
      return { ...base, items: base.items.filter((i) => i.id !== e.id), tests };
    }
    case "key-replaced":
      return { ...base, revealed: { subscriptionId: e.id, key: e.key } };
    case "hide-key":
      return base;
    case "open-test": {
      const sub = base.items.find((i) => i.id === e.id);
      const types = sub?.event_types ?? [];
      return types.length ? { ...base, form: undefined, testPick: { subscriptionId: e.id, types } } : base;
    }
    case "close-test":
      return { ...base, testPick: undefined };
    case "test-sending":
      return { ...base, testPick: undefined, testing: e.id };
    case "test-result":
      return { ...base, testing: undefined, tests: { ...base.tests, [e.id]: e.outcome } };
    case "test-failed":
      return { ...base, testing: undefined };
    default:
      return base.form ? { ...base, form: formEvent(base.form, e) } : base;
  }
}
