// The payouts screen's commands: every key, its words, and why it cannot be pressed now.
import { payoutStatusWord } from "../../../domain/payouts.js";
import { type LoadedState, selectLocation } from "../../../state/index.js";
import { itemPayoutId, type PayoutsView, reconcileItems, visiblePayouts } from "../../../state/screens.js";
import {
  type CommandTable,
  ch,
  defineLoadedCommands,
  type ListRows,
  listCommands,
  named,
  openRowCommand,
  selectedRow,
} from "../../commands.js";

/** The text field of the `/` search: an amount or a piece of a reference. */
export const FIND_FIELD = "find";

/** The lists of the views, by the name their selection is kept under. */
export const LISTS = {
  list: "payouts",
  detail: "payouts.entries",
  fees: "payouts.fees",
  reconcile: "payouts.lines",
} as const satisfies Record<PayoutsView, string>;

const shownIds = new WeakMap<object, readonly string[]>();
/** The ids of `rows`, the same array while the rows are the same (the list window compares them). */
function idsOf<T>(rows: readonly T[], id: (row: T) => string): readonly string[] {
  let ids = shownIds.get(rows);
  if (!ids) {
    ids = rows.map(id);
    shownIds.set(rows, ids);
  }
  return ids;
}

const EMPTY: never[] = [];
const visibleMemo = new WeakMap<object, { filters: object; rows: ReturnType<typeof visiblePayouts> }>();
/** The payouts the list shows (status and search applied), the same array while nothing changed. */
export function shownPayouts(s: LoadedState) {
  const { payouts, filters } = s.payouts;
  if (!payouts) return EMPTY;
  const cached = visibleMemo.get(payouts);
  if (cached?.filters === filters) return cached.rows;
  const rows = visiblePayouts(s.payouts);
  visibleMemo.set(payouts, { filters, rows });
  return rows;
}

const itemsMemo = new WeakMap<object, ReturnType<typeof reconcileItems>>();
/** The reconciliation's rows, the same array while the statement is the same. */
export function shownItems(s: LoadedState) {
  const st = s.payouts.statement;
  if (!st) return EMPTY;
  let items = itemsMemo.get(st);
  if (!items) {
    items = reconcileItems(st);
    itemsMemo.set(st, items);
  }
  return items;
}

/** The list the movement keys act on in the current view. */
export function payoutsRows(s: LoadedState): ListRows | undefined {
  const p = s.payouts;
  if (p.permission === "missing") return undefined;
  switch (p.view) {
    case "list":
      return { list: LISTS.list, ids: idsOf(shownPayouts(s), (r) => r.id) };
    case "detail":
      return { list: LISTS.detail, ids: idsOf(p.detail?.entries ?? EMPTY, (e) => e.id) };
    case "fees":
      return { list: LISTS.fees, ids: idsOf(p.fees?.weeks ?? EMPTY, (w) => w.week) };
    case "reconcile":
      return { list: LISTS.reconcile, ids: idsOf(shownItems(s), (i) => i.id) };
  }
}

/** The payout under the cursor of the list. */
export function selectedPayoutId(s: LoadedState): string | undefined {
  return s.payouts.view === "list" ? selectedRow(s, payoutsRows(s)) : undefined;
}

/** The payout the selected row of the reconciliation opens. */
function selectedItemPayout(s: LoadedState): string | undefined {
  if (s.payouts.view !== "reconcile") return undefined;
  const id = selectedRow(s, payoutsRows(s));
  return itemPayoutId(shownItems(s).find((i) => i.id === id));
}

const NO_PERMISSION = "This sign-in may not read payouts (PAYOUTS_READ).";
const onList = (s: LoadedState) =>
  s.payouts.permission === "missing"
    ? NO_PERMISSION
    : s.payouts.view === "list"
      ? undefined
      : "Back to the list first (esc).";

/** Commands of the list that also apply to the fees: the range, where, and what. */
const FILTERS = {
  status: {
    keys: [ch("s")],
    label: "s",
    description: "status: sent, paid, failed or all",
    hint: 4,
    run: (s: LoadedState) => s.payoutsDispatch({ type: "cycle-status" }),
    unavailable: onList,
  },
  range: {
    keys: [ch("d")],
    label: "d",
    description: "date range",
    hint: 5,
    run: (s: LoadedState) => s.payoutsDispatch({ type: "open-form", form: "range" }),
    unavailable: (s: LoadedState) =>
      s.payouts.permission === "missing"
        ? NO_PERMISSION
        : s.payouts.view === "list" || s.payouts.view === "fees"
          ? undefined
          : "The range is set on the list or the fees (esc).",
  },
} satisfies CommandTable<string>;

/** The payouts screen's commands. */
export const PAYOUTS_COMMANDS = defineLoadedCommands({
  ...listCommands(payoutsRows),
  open: openRowCommand({
    description: "open the payout: its entries",
    hint: 2,
    target: (s) => selectedPayoutId(s) ?? selectedItemPayout(s),
    open: (s, id) => s.openPayout(id),
    why: (s) =>
      s.payouts.view === "list"
        ? "No payout here to open."
        : s.payouts.view === "reconcile"
          ? "No payout on this line to open."
          : "Payouts are opened from the list or the reconciliation.",
  }),
  find: {
    keys: [ch("/")],
    label: "/",
    description: "find a payout by amount or reference",
    hint: 3,
    run: (s) => s.focusField("payouts", FIND_FIELD),
    unavailable: onList,
  },
  clearFind: {
    keys: [named("escape")],
    label: "esc",
    description: "clear the search",
    palette: false,
    run: (s) => s.payoutsDispatch({ type: "set-query", query: "" }),
    unavailable: (s) => (s.payouts.view === "list" && s.payouts.filters.query ? undefined : "No search is set."),
  },
  ...FILTERS,
  fees: {
    keys: [ch("f")],
    label: "f",
    description: "fees over time: weekly fees and rate",
    hint: 6,
    run: (s) => (s.payouts.view === "fees" ? s.payoutsDispatch({ type: "back" }) : s.showPayoutFees()),
    unavailable: (s) => (s.payouts.permission === "missing" ? NO_PERMISSION : undefined),
  },
  reconcile: {
    keys: [ch("R")],
    label: "R",
    description: "reconcile a bank statement (CSV)",
    hint: 3,
    run: (s) => s.payoutsDispatch({ type: "open-form", form: "statement" }),
    unavailable: (s) => (s.payouts.permission === "missing" ? NO_PERMISSION : undefined),
  },
  back: {
    keys: [named("escape")],
    label: "esc",
    description: "back: from a payout, the fees or a statement",
    run: (s) => s.payoutsDispatch({ type: "back" }),
    unavailable: (s) => (s.payouts.view === "list" ? "Already on the list." : undefined),
  },
});

/** The status filter in words, for the title. */
export const statusWords = (s: LoadedState): string =>
  s.payouts.filters.status ? payoutStatusWord(s.payouts.filters.status) : "all statuses";

/** Where the payouts shown come from: the location's name, or every location. */
export function whereWords(s: LoadedState): string {
  return s.allLocations ? "All locations" : (selectLocation(s)?.name ?? "Payouts");
}
