// The webhooks screen's I/O: every read and write goes through runRead/runWrite, and every answer
// is fed to the pure machine (webhooks-machine.ts) as an event.
import { parseApiVersion, parseNotificationUrl, parseSubscriptionName } from "../domain/webhooks.js";
import type { WebhookSubscription } from "../spec/generated/types.js";
import { problemOf, writeProblem } from "./errors.js";
import type { SliceCreator } from "./store.js";
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

/** Builds the webhooks slice. */
export const createWebhooksSlice: SliceCreator<WebhooksSlice> = (set, get, deps) => {
  const dispatch = (e: WebhooksEvent) => set((s) => ({ webhooks: webhooksReducer(s.webhooks, e) }));
  const form = () => get().webhooks.form;
  const find = (id: string) => get().webhooks.items.find((i) => i.id === id);
  // One idempotency key per logical create: saving the same subscription again after a failure
  // repeats that create; a changed one is a new create.
  let createKey: { body: string; key: string } | undefined;
  const createKeyFor = (body: WebhookSubscription) => {
    const text = JSON.stringify(body);
    if (createKey?.body !== text) createKey = { body: text, key: deps.newIdempotencyKey() };
    return createKey.key;
  };
  const api = () => deps.client.webhooks;

  async function loadTypes(version: string): Promise<void> {
    dispatch({ type: "types-loading", version });
    let failure = "no answer from the service";
    const res = await get().runRead(
      "Reading event types",
      async () => {
        try {
          return await api().listWebhookEventTypes({ api_version: version });
        } catch (err) {
          failure = problemOf(err).headline;
          throw err;
        }
      },
      { quiet: true },
    );
    if (res) dispatch({ type: "types-loaded", version, types: res.event_types ?? [] });
    else dispatch({ type: "types-failed", version, problem: failure });
  }

  return {
    webhooks: initialWebhooks,
    webhooksDispatch: dispatch,

    async loadWebhooks(options = {}) {
      const includeDisabled = options.includeDisabled ?? get().webhooks.includeDisabled;
      const items = await get().runRead(
        "Reading webhook subscriptions",
        () => api().listWebhookSubscriptions({ include_disabled: includeDisabled }).all(),
        options,
      );
      if (items) dispatch({ type: "listed", items, includeDisabled });
    },

    async webhooksFormNext() {
      dispatch({ type: "to-events", today: deps.clock.now() });
      const f = form();
      if (f?.step !== "events") return;
      const version = parseApiVersion(f.apiVersion);
      if (version.ok && f.offered?.version !== version.value) await loadTypes(version.value);
    },

    async loadWebhookEventTypes() {
      const f = form();
      const version = f ? parseApiVersion(f.apiVersion) : undefined;
      if (version?.ok) await loadTypes(version.value);
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
      // The list's cursor goes to what was just saved.
      const ids = get().webhooks.items.map((i) => i.id ?? "");
      if (saved.id && ids.includes(saved.id)) get().selectRow(WEBHOOKS_LIST, ids, ids.indexOf(saved.id));
      get().setStatus({
        kind: "info",
        text: `Saved ${nameOf(saved)}: ${saved.event_types?.length ?? 0} event types to ${saved.notification_url}.`,
        ...(saved.id ? { details: saved.id } : {}),
      });
      return undefined;
    },

    async setWebhookEnabled(id, enabled) {
      const sub = find(id);
      const verb = enabled ? "Enabling" : "Disabling";
      const r = await get().runWrite(`webhook:${id}`, `${verb} ${nameOf(sub)}`, () =>
        api().updateWebhookSubscription(id, { subscription: { enabled } }),
      );
      if (!r.ok || !r.value.subscription) return;
      dispatch({ type: "changed", subscription: r.value.subscription });
      const hidden = !enabled && !get().webhooks.includeDisabled;
      get().setStatus({
        kind: "info",
        text: `${enabled ? "Enabled" : "Disabled"} ${nameOf(sub)}${hidden ? "; disabled subscriptions are hidden (d shows them)" : ""}.`,
      });
    },

    async deleteWebhookSubscription(id) {
      const sub = find(id);
      const r = await get().runWrite(`webhook:${id}`, `Deleting ${nameOf(sub)}`, () =>
        api().deleteWebhookSubscription(id),
      );
      if (!r.ok) return;
      dispatch({ type: "deleted", id });
      get().setStatus({ kind: "info", text: `Deleted ${nameOf(sub)}; no more events go to its URL.` });
    },

    async replaceWebhookKey(id) {
      const sub = find(id);
      const key = deps.newIdempotencyKey();
      const r = await get().runWrite(`webhook:${id}`, `Replacing the signature key of ${nameOf(sub)}`, () =>
        api().updateWebhookSubscriptionSignatureKey(id, { idempotency_key: key }),
      );
      if (!r.ok) return;
      const next = r.value.signature_key;
      if (!next) {
        get().setStatus({ kind: "error", text: "The service replaced the key but did not return it." });
        return;
      }
      dispatch({ type: "key-replaced", id, key: next });
      get().setStatus({
        kind: "info",
        text: "New signature key shown once below: copy it to your receiver now. The old key no longer verifies.",
      });
    },

    async sendWebhookTest(id, eventType) {
      dispatch({ type: "test-sending", id });
      const started = deps.clock.now();
      const r = await get().runWrite(`webhook-test:${id}`, `Sending a test ${eventType}`, () =>
        api().testWebhookSubscription(id, { event_type: eventType }),
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
        kind: ok ? "info" : "rule",
        text:
          statusCode === undefined
            ? `Test ${eventType}: the receiver did not answer (${tookMs} ms).`
            : `Test ${eventType}: the receiver answered ${statusCode} in ${tookMs} ms.`,
      });
    },
  };
};
