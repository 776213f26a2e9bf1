import type { WebhookSubscription } from "../../../spec/generated/types.js";
import type { LoadedState } from "../../../state/index.js";
import {
  EVENT_TYPES_LIST,
  shownSubscriptions,
  shownTypes,
  TEST_TYPES_LIST,
  unofferedTypes,
  WEBHOOKS_LIST,
} from "../../../state/screens.js";
import {
  type CommandTable,
  ch,
  defineLoadedCommands,
  type ListCommand,
  type ListRows,
  listCommands,
  named,
  selectedRow,
} from "../../commands.js";
import { fitCell } from "../../components/columns.js";

/** The `/` line: it filters the subscriptions, or the event types while they are being picked. */
export const FILTER_FIELD = "filter";

/** What the webhooks screen shows now. */
export type WebhooksView = "list" | "fields" | "events" | "test";

/** The screen's view, from its state. */
export function webhooksView(s: LoadedState): WebhooksView {
  const w = s.webhooks;
  if (w.form) return w.form.step;
  return w.testPick ? "test" : "list";
}

const rowsCache = new WeakMap<readonly WebhookSubscription[], Map<string, string[]>>();

/** The subscriptions' ids as listed (the same array while the rows are the same). */
export function subscriptionIds(s: LoadedState): string[] {
  const w = s.webhooks;
  const byFilter = rowsCache.get(w.items) ?? new Map<string, string[]>();
  rowsCache.set(w.items, byFilter);
  let ids = byFilter.get(w.listFilter);
  if (!ids) {
    ids = shownSubscriptions(w).map((i) => i.id ?? "");
    byFilter.set(w.listFilter, ids);
  }
  return ids;
}

/** The list the movement keys act on: the subscriptions, the form's event types, or the types to test. */
export function webhookRows(s: LoadedState): ListRows | undefined {
  const w = s.webhooks;
  switch (webhooksView(s)) {
    case "events":
      return w.form ? { list: EVENT_TYPES_LIST, ids: shownTypes(w.form) } : undefined;
    case "test":
      return { list: TEST_TYPES_LIST, ids: w.testPick?.types ?? [] };
    case "list":
      return { list: WEBHOOKS_LIST, ids: subscriptionIds(s) };
    case "fields":
      return undefined;
  }
}

/** The subscription under the cursor of the list. */
export function selectedSubscription(s: LoadedState): WebhookSubscription | undefined {
  const id = selectedRow(s, { list: WEBHOOKS_LIST, ids: subscriptionIds(s) });
  return s.webhooks.items.find((i) => i.id === id);
}

/** The event type under the cursor of the picker shown (the form's, or the test's). */
function selectedType(s: LoadedState): string | undefined {
  return selectedRow(s, webhookRows(s));
}

const label = (sub: WebhookSubscription) => (sub.name ? `"${fitCell(sub.name, 40).trimEnd()}"` : "this subscription");

/** Why a list command cannot run: another view is open, or nothing is selected. */
function onSelected(s: LoadedState): string | undefined {
  if (webhooksView(s) !== "list") return "Finish or close what is open first (esc).";
  if (!s.webhooks.loaded) return "The subscriptions are still being read.";
  return selectedSubscription(s) ? undefined : "No subscription here: n makes one.";
}

const inView = (view: WebhooksView, why: string) => (s: LoadedState) => (webhooksView(s) === view ? undefined : why);

/** The list's movement keys; moving on hides a key that was shown once. */
function movesHidingKey(): CommandTable<ListCommand> {
  const moves = listCommands(webhookRows);
  const hide =
    (run: (typeof moves)["up"]["run"]): (typeof moves)["up"]["run"] =>
    (s, deps) => {
      if (s.webhooks.revealed) s.webhooksDispatch({ type: "hide-key" });
      return run(s, deps);
    };
  return {
    up: { ...moves.up, run: hide(moves.up.run) },
    down: { ...moves.down, run: hide(moves.down.run) },
    pageUp: { ...moves.pageUp, run: hide(moves.pageUp.run) },
    pageDown: { ...moves.pageDown, run: hide(moves.pageDown.run) },
    top: { ...moves.top, run: hide(moves.top.run) },
    bottom: { ...moves.bottom, run: hide(moves.bottom.run) },
  };
}

/** esc: close what is open, one step at a time (the test picker, the type filter, the event types, a shown key, the filter). */
function closeOne(s: LoadedState): void {
  const w = s.webhooks;
  if (w.testPick) s.webhooksDispatch({ type: "close-test" });
  else if (w.form?.step === "events" && w.form.filter) s.webhooksDispatch({ type: "filter", text: "" });
  else if (w.form?.step === "events") s.webhooksDispatch({ type: "to-fields" });
  else if (w.revealed) s.webhooksDispatch({ type: "hide-key" });
  else if (w.listFilter) s.webhooksDispatch({ type: "list-filter", text: "" });
}

/** The list movements, for the filter line (↑/↓ move the list under it). */
export const WEBHOOK_MOVES = movesHidingKey();

/** The webhooks screen's commands. */
export const WEBHOOKS_COMMANDS = defineLoadedCommands({
  ...WEBHOOK_MOVES,
  edit: {
    keys: [named("return")],
    label: "enter",
    description: "edit the subscription",
    write: true,
    hint: 3,
    run: (s) => {
      const id = selectedSubscription(s)?.id;
      if (id) s.webhooksDispatch({ type: "open-edit", id });
    },
    unavailable: onSelected,
  },
  save: {
    keys: [named("return")],
    label: "enter",
    description: "save the subscription",
    write: true,
    hint: 1,
    run: (s) => s.saveWebhookSubscription(),
    unavailable: (s) =>
      inView("events", "Nothing to save here.")(s) ?? (s.webhooks.form?.saving ? "Saving already." : undefined),
  },
  send: {
    keys: [named("return")],
    label: "enter",
    description: "send the test event",
    write: true,
    hint: 1,
    run: (s) => {
      const id = s.webhooks.testPick?.subscriptionId;
      const type = selectedType(s);
      if (id && type) return s.sendWebhookTest(id, type);
    },
    unavailable: inView("test", "No test is being chosen: t picks the event type."),
  },
  mark: {
    keys: [ch(" ")],
    label: "space",
    description: "mark / unmark the event type",
    hint: 0,
    run: (s) => {
      const type = selectedType(s);
      if (type) s.webhooksDispatch({ type: "toggle-type", eventType: type });
    },
    unavailable: (s) =>
      inView("events", "Types are marked in the form (n, or enter to edit).")(s) ??
      (selectedType(s) ? undefined : "No event type here (the filter shows none?)."),
  },
  markShown: {
    keys: [ch("a")],
    label: "a",
    description: "mark all shown / none",
    hint: 2,
    run: (s) => s.webhooksDispatch({ type: "toggle-shown" }),
    unavailable: inView("events", "Types are marked in the form (n, or enter to edit)."),
  },
  dropUnoffered: {
    keys: [ch("u")],
    label: "u",
    description: "unmark the types this version does not offer",
    hint: 1,
    run: (s) => s.webhooksDispatch({ type: "drop-unoffered" }),
    unavailable: (s) => {
      const form = s.webhooks.form;
      if (form?.step !== "events") return "Types are marked in the form (n, or enter to edit).";
      return unofferedTypes(form).length ? undefined : "Every marked type is offered by this version.";
    },
  },
  create: {
    keys: [ch("n")],
    label: "n",
    description: "new subscription",
    write: true,
    hint: 2,
    run: (s) => s.webhooksDispatch({ type: "open-create" }),
    unavailable: inView("list", "Finish or close what is open first (esc)."),
  },
  test: {
    keys: [ch("t")],
    label: "t",
    description: "send a test event",
    write: true,
    hint: 4,
    run: (s) => {
      const sub = selectedSubscription(s);
      if (!sub?.id) return;
      s.webhooksDispatch({ type: "open-test", id: sub.id });
      s.selectRow(TEST_TYPES_LIST, sub.event_types ?? [], 0);
    },
    unavailable: (s) =>
      onSelected(s) ??
      (s.webhooks.testing ? "A test is on its way; wait for its answer." : undefined) ??
      (selectedSubscription(s)?.enabled === false ? "The subscription is disabled: e enables it first." : undefined),
  },
  enable: {
    keys: [ch("e")],
    label: "e",
    description: "enable / disable",
    write: true,
    hint: 5,
    run: (s) => {
      const sub = selectedSubscription(s);
      if (sub?.id) return s.setWebhookEnabled(sub.id, sub.enabled === false);
    },
    unavailable: onSelected,
  },
  showDisabled: {
    keys: [ch("d")],
    label: "d",
    description: "show / hide disabled subscriptions",
    hint: 6,
    run: (s) => s.loadWebhooks({ includeDisabled: !s.webhooks.includeDisabled }),
    unavailable: inView("list", "Finish or close what is open first (esc)."),
  },
  replaceKey: {
    keys: [ch("K")],
    label: "K",
    description: "replace the signature key (asks first)",
    write: true,
    hint: 8,
    run: (s) => {
      const sub = selectedSubscription(s);
      const id = sub?.id;
      if (!sub || !id) return;
      s.ask({
        message: `Replace the signature key of ${label(sub)}? The old key stops verifying at once: every receiver needs the new one, shown here once.`,
        risky: true,
        yes: "Replace",
        onYes: () => s.replaceWebhookKey(id),
      });
    },
    unavailable: onSelected,
  },
  remove: {
    keys: [ch("x")],
    label: "x",
    description: "delete (asks first)",
    write: true,
    hint: 9,
    run: (s) => {
      const sub = selectedSubscription(s);
      const id = sub?.id;
      if (!sub || !id) return;
      s.ask({
        message: `Delete ${label(sub)}? No more events go to ${fitCell(sub.notification_url ?? "", 50).trimEnd()}; it cannot be undone.`,
        risky: true,
        yes: "Delete",
        onYes: () => s.deleteWebhookSubscription(id),
      });
    },
    unavailable: onSelected,
  },
  filter: {
    keys: [ch("/")],
    label: "/",
    description: "filter",
    hint: 7,
    run: (s) => s.focusField("webhooks", FILTER_FIELD),
    unavailable: (s) => {
      const view = webhooksView(s);
      return view === "list" || view === "events" ? undefined : "Nothing to filter here.";
    },
  },
  close: {
    keys: [named("escape")],
    label: "esc",
    description: "back / clear",
    palette: false,
    run: closeOne,
    unavailable: (s) => {
      const w = s.webhooks;
      return w.testPick || w.form?.step === "events" || w.revealed || w.listFilter
        ? undefined
        : "Nothing to close here.";
    },
  },
});

/** `r`: the event types again when they could not be read, else the subscriptions. */
export function reloadWebhooks(s: LoadedState): unknown {
  if (s.webhooks.form?.step === "events") return s.loadWebhookEventTypes();
  return s.loadWebhooks();
}
