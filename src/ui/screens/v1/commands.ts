import { checkOrderAction } from "../../../domain/v1-rules.js";
import type { V1UpdateOrderRequestAction } from "../../../spec/generated/types.js";
import type { LoadedState } from "../../../state/index.js";
import { LIST_OPERATION } from "../../../state/v1-load.js";
import { recordKey, V1_LIST_NAMES, type V1View } from "../../../state/v1-machine.js";
import {
  type CommandDeps,
  type CommandTable,
  ch,
  ctrl,
  defineLoadedCommands,
  type ListRows,
  listCommands,
  named,
  openRowCommand,
  selectedRow,
} from "../../commands.js";
import { detailLinesOf } from "./detail-lines.js";

/** The selection name of the detail pane's scroll position (its top line). */
export const DETAIL_SCROLL = "v1.detail";

/** The views' names as the tabs and commands say them. */
export const VIEW_TITLES: Readonly<Record<V1View, string>> = {
  payments: "Payments",
  refunds: "Refunds",
  settlements: "Settlements",
  orders: "Online-store orders",
};

const idsOfRows = new WeakMap<readonly object[], readonly string[]>();

/** The list shown (none while a record is open): its rows' ids, the same array while the rows are. */
export function v1Rows(s: LoadedState): ListRows | undefined {
  const v = s.v1;
  if (v.detail) return undefined;
  const rows = (v.lists[v.view] ?? []) as readonly object[];
  let ids = idsOfRows.get(rows);
  if (!ids) {
    ids = rows.map((r) => recordKey(v.view, r));
    idsOfRows.set(rows, ids);
  }
  return { list: V1_LIST_NAMES[v.view], ids };
}

/** The record under the list's cursor. */
function selectedRecord(s: LoadedState): (object & { id?: string; payment_id?: string }) | undefined {
  const rows = v1Rows(s);
  const key = selectedRow(s, rows);
  if (!rows || key === undefined) return undefined;
  const list = (s.v1.lists[s.v1.view] ?? []) as { id?: string; payment_id?: string }[];
  return list[rows.ids.indexOf(key)];
}

/** The open record's lines shown in a screen of `height` rows (the title, note and tabs over them, the position line under). */
export const detailRows = (height: number) => Math.max(1, height - 4);

/** The first line of the open record shown. */
export function detailTop(s: Pick<LoadedState, "selection">, total: number, visible: number): number {
  const top = Number(s.selection[DETAIL_SCROLL]?.id ?? 0);
  return Math.max(0, Math.min(Number.isFinite(top) ? top : 0, total - visible));
}

/** Scrolls the open record: by lines, by pages, to either end. */
function scroll(to: (top: number, page: number, max: number) => number) {
  return (s: LoadedState, deps: CommandDeps) => {
    const visible = detailRows(deps.height);
    const max = Math.max(0, detailLinesOf(s, deps.width).length - visible);
    const top = Math.max(0, Math.min(to(detailTop(s, max + visible, visible), visible, max), max));
    const ids = Array.from({ length: max + 1 }, (_, i) => String(i));
    s.selectRow(DETAIL_SCROLL, ids, top);
  };
}

const IN_DETAIL = "No record is open: enter opens the selected one.";
const inDetail = (s: LoadedState) => (s.v1.detail ? undefined : IN_DETAIL);

/** The detail pane's scroll keys: the same keys as a list's, on the open record. */
const DETAIL_SCROLLING = {
  scrollUp: {
    keys: [ch("k"), named("upArrow")],
    label: "k/↑",
    description: "record: scroll up",
    palette: false,
    run: scroll((top) => top - 1),
    unavailable: inDetail,
  },
  scrollDown: {
    keys: [ch("j"), named("downArrow")],
    label: "j/↓",
    description: "record: scroll down",
    palette: false,
    run: scroll((top) => top + 1),
    unavailable: inDetail,
  },
  scrollPageUp: {
    keys: [named("pageUp"), ctrl("u")],
    label: "pgup",
    description: "record: page up",
    palette: false,
    run: scroll((top, page) => top - page),
    unavailable: inDetail,
  },
  scrollPageDown: {
    keys: [named("pageDown"), ctrl("d")],
    label: "pgdn",
    description: "record: page down",
    palette: false,
    run: scroll((top, page) => top + page),
    unavailable: inDetail,
  },
  scrollTop: {
    keys: [ch("g"), named("home")],
    label: "g",
    description: "record: top",
    palette: false,
    run: scroll(() => 0),
    unavailable: inDetail,
  },
  scrollBottom: {
    keys: [ch("G"), named("end")],
    label: "G",
    description: "record: end",
    palette: false,
    run: scroll((_top, _page, max) => max),
    unavailable: inDetail,
  },
} satisfies CommandTable<string>;

/** Shows one of the lists: it is read unless it was for these dates and places. */
function viewCommand(view: V1View, key: string, hint?: number) {
  return {
    keys: [ch(key)],
    label: key,
    description: `show ${VIEW_TITLES[view].toLowerCase()}`,
    ...(hint === undefined ? {} : { hint }),
    run: (s: LoadedState) => {
      s.selectRow(DETAIL_SCROLL, [], 0);
      return s.showV1View(view);
    },
    unavailable: (s: LoadedState) =>
      s.v1.view === view && !s.v1.detail ? `${VIEW_TITLES[view]} are shown already.` : undefined,
  };
}

const ranged = (s: LoadedState) =>
  s.v1.view === "orders"
    ? "Online-store orders are listed whatever their date: the interface takes no dates for them."
    : undefined;

/** Why an order action cannot be taken on the current order, or nothing. */
function orderActionUnavailable(action: V1UpdateOrderRequestAction) {
  return (s: LoadedState): string | undefined => {
    if (s.v1.view !== "orders") return "Order actions are on online-store orders (o).";
    const order = s.v1Current().order;
    if (!order) return s.v1.detail ? "The order is still being read." : "No order is selected.";
    return checkOrderAction(order, action);
  };
}

const ORDER_ACTION_WORDS: Readonly<Record<V1UpdateOrderRequestAction, string>> = {
  COMPLETE: "mark the order shipped (complete it)",
  CANCEL: "cancel the order",
  REFUND: "refund the order",
};

function orderAction(action: V1UpdateOrderRequestAction, key: string, hint: number) {
  return {
    keys: [ch(key)],
    label: key,
    description: ORDER_ACTION_WORDS[action],
    write: true,
    hint,
    run: (s: LoadedState) => s.openV1OrderAction(action),
    unavailable: orderActionUnavailable(action),
  };
}

/** The old transactions screen's commands. */
export const V1_COMMANDS = defineLoadedCommands({
  ...listCommands(v1Rows),
  ...DETAIL_SCROLLING,
  open: openRowCommand({
    description: "open",
    hint: 2,
    target: (s) => (s.v1.detail ? undefined : selectedRecord(s)),
    open: (s, r) => {
      s.selectRow(DETAIL_SCROLL, [], 0);
      const view = s.v1.view;
      if (view === "refunds") return s.openV1RefundedPayment(r.payment_id ?? "");
      const kind = view === "payments" ? "payment" : view === "settlements" ? "settlement" : "order";
      return s.openV1Detail({ kind, id: r.id ?? "" });
    },
    why: (s) =>
      s.v1.detail
        ? "A record is open already: esc goes back to the list."
        : s.v1.retired[LIST_OPERATION[s.v1.view]]
          ? "The service no longer offers this list."
          : "Nothing here to open.",
  }),
  back: {
    keys: [named("escape")],
    label: "esc",
    description: "back",
    hint: 3,
    run: (s) => s.v1Dispatch({ type: "close-detail" }),
    unavailable: inDetail,
  },
  payments: viewCommand("payments", "p", 5),
  refunds: viewCommand("refunds", "f", 5),
  settlements: viewCommand("settlements", "s", 5),
  orders: viewCommand("orders", "o", 5),
  range: {
    keys: [ch("d")],
    label: "d",
    description: "dates",
    hint: 4,
    run: (s) => s.v1Dispatch({ type: "open-range" }),
    unavailable: ranged,
  },

  partial: {
    keys: [ch("i")],
    label: "i",
    description: "payments: partial ones too (again: not)",
    hint: 7,
    run: (s) => {
      s.v1Dispatch({ type: "toggle-partial" });
      return s.loadV1();
    },
    unavailable: (s) =>
      s.v1.view === "payments" && !s.v1.detail ? undefined : "Partial payments are a filter of the payments list (p).",
  },
  status: {
    keys: [ch("t")],
    label: "t",
    description: "settlements: all, sent, failed",
    hint: 7,
    run: (s) => {
      const next = { ALL: "SENT", SENT: "FAILED", FAILED: "ALL" } as const;
      s.v1Dispatch({ type: "set-status", status: next[s.v1.filters.status] });
      return s.loadV1();
    },
    unavailable: (s) =>
      s.v1.view === "settlements" && !s.v1.detail ? undefined : "The status is a filter of the settlements list (s).",
  },
  refund: {
    keys: [ch("x")],
    label: "x",
    description: "refund: the payment (all or part), or the order",
    write: true,
    hint: 3,
    run: (s) => (s.v1.view === "orders" ? s.openV1OrderAction("REFUND") : s.openV1Refund()),
    unavailable: (s) => {
      if (s.v1.view === "orders") return orderActionUnavailable("REFUND")(s);
      if (s.v1.view !== "payments") return "Payments are refunded from the payments list (p), orders from theirs (o).";
      return s.v1Current().payment ? undefined : "No payment is selected.";
    },
  },
  complete: orderAction("COMPLETE", "m", 3),
  cancel: orderAction("CANCEL", "c", 4),
});

/** What `r` reads again: the open record, or the list. */
export function reloadV1(s: LoadedState): unknown {
  const d = s.v1.detail;
  if (d) return s.openV1Detail(d);
  return s.loadV1({ force: true });
}
