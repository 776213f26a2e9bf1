// The webhooks screen's I/O: every read and write goes through runRead/runWrite, and every answer
// is fed to the pure machine (webhooks-machine.ts) as an event.

import { plural } from "../domain/plural.js";
import {
  DEFAULT_API_VERSION,
  parseApiVersion,
  parseNotificationUrl,
  parseSubscriptionName,
} from "../domain/webhooks.js";
import type { WebhookSubscription } from "../spec/generated/types.js";
import { SquareApiError } from "../square/index.js";
import { problemOf, writeProblem } from "./errors.js";
import type { LoadedSliceCreator, LoadedState, StoreDeps } from "./store.js";
import {
  checkForm,
  initialWebhooks,
  type SubscriptionForm,
  WEBHOOKS_LIST,
  type WebhooksEvent,
  type WebhooksState,
  webhooksReducer,
} from "./webhooks-machine.js";

/** The webhooks slice: the application's subscriptions and what is done to them. */
export interface WebhooksSlice {
  webhooks: WebhooksState;
  /** Feeds the machine one event (the screen's keys that need no I/O). */
  webhooksDispatch(e: WebhooksEvent): void;
  /** Reads the subscriptions (with disabled ones when `includeDisabled`, default as shown now). */
  loadWebhooks(options?: { quiet?: boolean; includeDisabled?: boolean }): Promise<void>;
  /** From the form's fields to its event types: checks the fields, then reads the version's types. */
  webhooksFormNext(): Promise<void>;
  /** Reads the event types of the form's API version again (after a failure). */
  loadWebhookEventTypes(): Promise<void>;
  /** Creates or updates the subscription of the form; the problem in words, or undefined. */
  saveWebhookSubscription(): Promise<string | undefined>;
  setWebhookEnabled(id: string, enabled: boolean): Promise<void>;
  deleteWebhookSubscription(id: string): Promise<void>;
  /** Replaces the signature key; the new key is shown once. */
  replaceWebhookKey(id: string): Promise<void>;
  /** Sends a test notification of one event type and keeps what the receiver answered. */
  sendWebhookTest(id: string, eventType: string): Promise<void>;
}

/** A subscription as a message names it. */
const nameOf = (s: WebhookSubscription | undefined) => (s?.name ? `"${s.name}"` : "the subscription");

/** The subscription a checked form sends; undefined when a field does not read. */
function subscriptionBody(f: SubscriptionForm): WebhookSubscription | undefined {
  const url = parseNotificationUrl(f.url);
  const name = parseSubscriptionName(f.name);
  const version = parseApiVersion(f.apiVersion);
  if (!url.ok || !name.ok || !version.ok) return undefined;
  return {
    ...(name.value ? { name: name.value } : {}),
    notification_url: url.value,
    api_version: version.value,
    event_types: f.picked,
  };
}

/** What the webhooks actions work with: the store, the machine's dispatch, the dependencies. */
interface WebhooksIo {
  get: () => LoadedState;
  dispatch: (e: WebhooksEvent) => void;
  deps: StoreDeps;
}

/** What is said of a version the service has not released, after the version typed. */
const UNRELEASED = `is not an API version the service has released; leave it empty for ${DEFAULT_API_VERSION}.`;

/** Whether the service refused a version it has not released (a real date, but no version of it). */
const unreleasedVersion = (err: unknown) =>
  err instanceof SquareApiError && err.hasCode("INVALID_VALUE") && err.errors[0]?.field === "api_version";

/**
 * Reads the event types of an API version into the form (the failure, in words, when it cannot).
 * A version the service has not released is said in words, with the code on the details line;
 * returns that problem so the form goes back to the version.
 */
async function loadTypes({ get, dispatch, deps }: WebhooksIo, version: string): Promise<string | undefined> {
  dispatch({ type: "types-loading", version });
  let failure = "no answer from the service";
  let unreleased: { details: string | undefined } | undefined;
  const res = await get().runRead(
    "Reading event types",
    async () => {
      try {
        return await deps.client.webhooks.listWebhookEventTypes({ api_version: version });
      } catch (err) {
        failure = problemOf(err).headline;
        if (unreleasedVersion(err)) unreleased = { details: problemOf(err).details };
        throw err;
      }
    },
    { quiet: true },
  );
  if (res) dispatch({ type: "types-loaded", version, types: res.event_types ?? [] });
  else dispatch({ type: "types-failed", version, problem: failure });
  const said = get().status;
  if (!unreleased) {
    // A version that reads now: what was said of the one typed before goes.
    if (res && said.kind === "error" && said.text.endsWith(UNRELEASED)) get().setStatus({ kind: "idle" });
    return undefined;
  }
  const problem = `${version} ${UNRELEASED}`;
  get().setStatus({
    screen: "webhooks",
    kind: "error",
    text: problem,
    ...(unreleased.details ? { details: unreleased.details } : {}),
  });
  return problem;
}

/** Says a saved subscription in the status bar, with the list's cursor on it. */
function showSaved({ get }: WebhooksIo, saved: WebhookSubscription): void {
  const ids = get().webhooks.items.map((i) => i.id ?? "");
  if (saved.id && ids.includes(saved.id)) get().selectRow(WEBHOOKS_LIST, ids, ids.indexOf(saved.id));
  const n = saved.event_types?.length ?? 0;
  get().setStatus({
    screen: "webhooks",
    kind: "info",
    text: `Saved ${nameOf(saved)}: ${plural(n, "event type")} to ${saved.notification_url}.`,
    ...(saved.id ? { details: saved.id } : {}),
  });
}

/** The actions of the subscription form: its steps, its event types, and the create or update it saves. */
function formActions(io: WebhooksIo) {
  const { get, dispatch, deps } = io;
  const form = () => get().webhooks.form;
  const api = () => deps.client.webhooks;
  // One idempotency key per logical create: saving the same subscription again after a failure
  // repeats that create; a changed one is a new create.
  let createKey: { body: string; key: string } | undefined;
  const createKeyFor = (body: WebhookSubscription) => {
    const text = JSON.stringify(body);
    if (createKey?.body !== text) createKey = { body: text, key: deps.newIdempotencyKey() };
    return createKey.key;
  };
  return {
    async webhooksFormNext() {
      // The version's types are read before the step changes: a version the service has not
      // released keeps the fields on screen (the same form, its cursor where it was) with why.
      const before = form();
      const version = before ? parseApiVersion(before.apiVersion) : undefined;
      // A read that failed (a version refused, no answer) is tried again: enter does not pass it by.
      const read = before?.offered;
      if (version?.ok && (read?.version !== version.value || read.state === "failed")) {
        const problem = await loadTypes(io, version.value);
        // A slow answer after the manager closed the form (or opened another) is only said: it does
        // not move on, or refuse, a form that did not ask.
        if (form()?.offered?.version !== version.value) return;
        if (problem) return dispatch({ type: "form-problem", problem, field: "apiVersion" });
      }
      dispatch({ type: "to-events", today: deps.clock.now() });
    },
    async loadWebhookEventTypes() {
      const f = form();
      const version = f ? parseApiVersion(f.apiVersion) : undefined;
      if (version?.ok) await loadTypes(io, version.value);
    },
    async saveWebhookSubscription() {
      const f = form();
      if (!f) return undefined;
      const problem = checkForm(f);
      const body = problem ? undefined : subscriptionBody(f);
      if (!body) {
        dispatch({ type: "form-problem", problem });
        return problem;
      }
      dispatch({ type: "saving" });
      const label = body.name ? `Saving "${body.name}"` : "Saving the subscription";
      const id = f.id;
      const r = id
        ? await get().runWrite(`webhook:${id}`, label, () =>
            api().updateWebhookSubscription(id, { subscription: { ...body, name: body.name ?? "" } }),
          )
        : await get().runWrite("webhook:create", label, () =>
            api().createWebhookSubscription({ idempotency_key: createKeyFor(body), subscription: body }),
          );
      const saved = r.ok ? r.value.subscription : undefined;
      if (!saved) {
        const why = r.ok ? "The service did not return the subscription." : writeProblem(r.error);
        dispatch({ type: "form-problem", problem: why });
        return why;
      }
      createKey = undefined;
      dispatch({ type: "saved", subscription: saved });
      showSaved(io, saved);
      return undefined;
    },
  } satisfies Partial<WebhooksSlice>;
}

/** Sends a test notification of one event type and keeps what the receiver answered, and how fast. */
async function sendTest({ get, dispatch, deps }: WebhooksIo, id: string, eventType: string): Promise<void> {
  dispatch({ type: "test-sending", id });
  const started = deps.clock.now();
  const r = await get().runWrite(`webhook-test:${id}`, `Sending a test ${eventType}`, () =>
    deps.client.webhooks.testWebhookSubscription(id, { event_type: eventType }),
  );
  if (!r.ok) {
    dispatch({ type: "test-failed", id });
    return;
  }
  const result = r.value.subscription_test_result;
  const tookMs = deps.clock.now().getTime() - started.getTime();
  const statusCode = result?.status_code;
  dispatch({
    type: "test-result",
    id,
    outcome: { eventType, statusCode, tookMs, at: result?.created_at ?? started.toISOString() },
  });
  const ok = statusCode !== undefined && statusCode >= 200 && statusCode < 300;
  get().setStatus({
    screen: "webhooks",
    kind: ok ? "info" : "rule",
    text:
      statusCode === undefined
        ? `Test ${eventType}: the receiver did not answer (${tookMs} ms).`
        : `Test ${eventType}: the receiver answered ${statusCode} in ${tookMs} ms.`,
  });
}

/** The actions on one listed subscription: enable or disable, delete, a new signature key, a test. */
function subscriptionActions(io: WebhooksIo) {
  const { get, dispatch, deps } = io;
  const find = (id: string) => get().webhooks.items.find((i) => i.id === id);
  const api = () => deps.client.webhooks;
  return {
    async setWebhookEnabled(id: string, enabled: boolean) {
      const sub = find(id);
      const verb = enabled ? "Enabling" : "Disabling";
      const r = await get().runWrite(`webhook:${id}`, `${verb} ${nameOf(sub)}`, () =>
        api().updateWebhookSubscription(id, { subscription: { enabled } }),
      );
      if (!r.ok || !r.value.subscription) return;
      dispatch({ type: "changed", subscription: r.value.subscription });
      const hidden = !enabled && !get().webhooks.includeDisabled;
      get().setStatus({
        screen: "webhooks",
        kind: "info",
        text: `${enabled ? "Enabled" : "Disabled"} ${nameOf(sub)}${hidden ? "; disabled subscriptions are hidden (d shows them)" : ""}.`,
      });
    },
    async deleteWebhookSubscription(id: string) {
      const sub = find(id);
      const r = await get().runWrite(`webhook:${id}`, `Deleting ${nameOf(sub)}`, () =>
        api().deleteWebhookSubscription(id),
      );
      if (!r.ok) return;
      dispatch({ type: "deleted", id });
      get().setStatus({
        screen: "webhooks",
        kind: "info",
        text: `Deleted ${nameOf(sub)}; no more events go to its URL.`,
      });
    },
    async replaceWebhookKey(id: string) {
      const sub = find(id);
      const key = deps.newIdempotencyKey();
      const r = await get().runWrite(`webhook:${id}`, `Replacing the signature key of ${nameOf(sub)}`, () =>
        api().updateWebhookSubscriptionSignatureKey(id, { idempotency_key: key }),
      );
      if (!r.ok) return;
      const next = r.value.signature_key;
      if (!next) {
        get().setStatus({
          screen: "webhooks",
          kind: "error",
          text: "The service replaced the key but did not return it.",
        });
        return;
      }
      dispatch({ type: "key-replaced", id, key: next });
      get().setStatus({
        screen: "webhooks",
        kind: "info",
        text: "New signature key shown once below: copy it to your receiver now. The old key no longer verifies.",
      });
    },
    sendWebhookTest: (id: string, eventType: string) => sendTest(io, id, eventType),
  } satisfies Partial<WebhooksSlice>;
}

/** Builds the webhooks slice. */
export const createWebhooksSlice: LoadedSliceCreator<WebhooksSlice> = (set, get, deps) => {
  const dispatch = (e: WebhooksEvent) => set((s) => ({ webhooks: webhooksReducer(s.webhooks, e) }));
  const io: WebhooksIo = { get, dispatch, deps };
  return {
    webhooks: initialWebhooks,
    webhooksDispatch: dispatch,
    async loadWebhooks(options = {}) {
      const includeDisabled = options.includeDisabled ?? get().webhooks.includeDisabled;
      const items = await get().runRead(
        "Reading webhook subscriptions",
        () => deps.client.webhooks.listWebhookSubscriptions({ include_disabled: includeDisabled }).all(),
        options,
      );
      if (items) dispatch({ type: "listed", items, includeDisabled });
    },
    ...formActions(io),
    ...subscriptionActions(io),
  };
};
