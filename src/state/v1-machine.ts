// The old transactions (V1) screen as a pure state machine: which list is shown, what is selected
// (by id), the filters, the record open in detail, the forms (range, refund, order action) with the
// interface's rules checked before anything is sent, and what the service said it no longer
// offers. The slice (v1-slice.ts) does the I/O and feeds the answers back in as events.

import { parseMoney } from "../domain/money.js";
import type { RefundPart, V1RangeSource } from "../domain/v1-rules.js";
import {
  allowedOrderActions,
  checkOrderAction,
  checkV1Refund,
  checkV1RefundParts,
  isSplitTender,
  paymentCurrency,
  tenderLeft,
  type V1RefundDraft,
  v1DateRange,
} from "../domain/v1-rules.js";
import type {
  V1Order,
  V1Payment,
  V1Refund,
  V1Settlement,
  V1UpdateOrderRequestAction,
} from "../spec/generated/types.js";
import type { RangeForm } from "./range-form.js";
import type { Located, V1ListKind } from "./v1-load.js";

/** The four lists, each a view of the screen. */
export type V1View = V1ListKind;

/** The name each list's selection is kept under (the view slice's `selection`). */
export const V1_LIST_NAMES: Readonly<Record<V1View, string>> = {
  payments: "v1.payments",
  refunds: "v1.refunds",
  settlements: "v1.settlements",
  orders: "v1.orders",
};

/** The views in the order the screen offers them. */
export const V1_VIEWS: readonly V1View[] = ["payments", "refunds", "settlements", "orders"];

/** Which settlements: every one, or those with one status. */
export type SettlementFilter = "ALL" | "SENT" | "FAILED";

/**
 * What the lists read: the dates and each list's own filter. Where (one location or all of them) is
 * the location picker's choice (the shell's `allLocations`).
 */
export interface V1Filters {
  from: string;
  to: string;
  source: V1RangeSource;
  includePartial: boolean;
  status: SettlementFilter;
}

/** The record open in detail. */
export type V1Detail =
  | { kind: "payment"; id: string }
  | { kind: "settlement"; id: string }
  | { kind: "order"; id: string };

/** The refund form: the whole payment, or an amount from one tender. */
export interface RefundForm {
  kind: "refund";
  paymentId: string;
  mode: "full" | "partial";
  /** The tender a partial refund comes out of; none chosen yet for a split-tender payment. */
  tenderId: string | undefined;
  amount: string;
  reason: string;
  /** The row of the form that has the keys. */
  focus: RefundRow;
  /** The rule the draft breaks, shown before anything is sent. */
  problem: string | undefined;
  /** The row that rule is about, when it is one: the form went there (its value selected). */
  problemRow?: RefundRow | undefined;
}

/** A row of the refund form: whole or part, the tender, the amount, the reason. */
export type RefundRow = "mode" | "tender" | "amount" | "reason";

/** The rows the refund form shows: the tender only for a part of a split-tender payment. */
export function refundRows(f: Pick<RefundForm, "mode">, split: boolean): RefundRow[] {
  if (f.mode === "full") return ["mode", "reason"];
  return split ? ["mode", "tender", "amount", "reason"] : ["mode", "amount", "reason"];
}

/** Completing, canceling or refunding an order, with the note that goes with it. */
export interface OrderActionForm {
  kind: "order-action";
  orderId: string;
  action: V1UpdateOrderRequestAction;
  note: string;
  /** The shipment's tracking number (COMPLETE only). */
  tracking: string;
  problem: string | undefined;
}

/** The form open on the screen, if any. */
export type V1Form = { kind: "none" } | RangeForm | RefundForm | OrderActionForm;

/** Each list's records, newest first, and the query they were read for. */
export interface V1Lists {
  payments: Located<V1Payment>[] | undefined;
  refunds: Located<V1Refund>[] | undefined;
  settlements: Located<V1Settlement>[] | undefined;
  orders: Located<V1Order>[] | undefined;
}

/** The screen's whole state. */
export interface V1State {
  view: V1View;
  detail: V1Detail | undefined;
  filters: V1Filters;
  form: V1Form;
  lists: V1Lists;
  /** The query each list was read for; a list read for another is stale. */
  readFor: Readonly<Record<V1View, string | undefined>>;
  /** The record open in detail, once read. */
  record: Located<V1Payment> | Located<V1Settlement> | Located<V1Order> | undefined;
  /** Operations the service said it no longer offers, with what the screen says about each. */
  retired: Readonly<Record<string, string>>;
}

/** The screen before anything is read: the last 30 days up to `today`, at the selected location. */
export function initialV1State(today: string): V1State {
  const range = v1DateRange({}, today);
  const { from, to, source } = range.ok ? range.value : { from: today, to: today, source: "default" as const };
  return {
    view: "payments",
    detail: undefined,
    filters: { from, to, source, includePartial: false, status: "ALL" },
    form: { kind: "none" },
    lists: { payments: undefined, refunds: undefined, settlements: undefined, orders: undefined },
    readFor: { payments: undefined, refunds: undefined, settlements: undefined, orders: undefined },
    record: undefined,
    retired: {},
  };
}

/** The key a refund is listed and selected by (a refund has no id of its own). */
export const refundKey = (r: V1Refund): string => `${r.payment_id ?? ""}@${r.created_at ?? ""}`;

/** The id a record of a list is selected by. */
export function recordKey(view: V1View, r: { id?: string } & Partial<V1Refund>): string {
  return view === "refunds" ? refundKey(r) : (r.id ?? "");
}

/**
 * The query a list reads for these filters at this place (the shell's `placeKey`: a location's id,
 * or "all"): lists read for another are stale.
 */
export function queryKey(view: V1View, f: V1Filters, where: string): string {
  if (view === "orders") return `orders|${where}`;
  const extra = view === "payments" ? `|${f.includePartial}` : view === "settlements" ? `|${f.status}` : "";
  return `${view}|${where}|${f.from}|${f.to}${extra}`;
}

/** What happens on the screen. */
export type V1Event =
  | { type: "show-view"; view: V1View }
  | { type: "open-detail"; detail: V1Detail }
  | { type: "close-detail" }
  | { type: "toggle-partial" }
  | { type: "set-status"; status: SettlementFilter }
  | { type: "open-range" }
  | { type: "range-field"; field: "from" | "to"; value: string }
  | { type: "submit-range"; today: string }
  | { type: "open-refund"; payment: V1Payment; now: Date; timeZone: string }
  | { type: "refund-field"; field: "mode" | "tenderId" | "amount" | "reason"; value: string }
  /** A rule broken (or the service's refusal); `row`: the row it is about, which the form moves to. */
  | { type: "refund-problem"; problem: string | undefined; row?: RefundRow | undefined }
  | { type: "refund-move"; delta: number; split: boolean }
  | { type: "open-order-action"; order: V1Order; action: V1UpdateOrderRequestAction }
  | { type: "order-field"; field: "note" | "tracking"; value: string }
  | { type: "order-problem"; problem: string | undefined }
  | { type: "close-form" }
  | { type: "list-read"; view: V1View; key: string; records: V1Lists[V1View] & object }
  | { type: "record-read"; record: NonNullable<V1State["record"]> }
  | { type: "refunded"; payment: Located<V1Payment> }
  | { type: "order-updated"; order: Located<V1Order> }
  | { type: "retired"; operation: string; text: string }
  | { type: "location-changed" }
  | { type: "today"; today: string };

/** The next state of the screen after an event. */
export function v1Reducer(s: V1State, e: V1Event): V1State {
  switch (e.type) {
    case "show-view":
      return { ...s, view: e.view, detail: undefined, record: undefined, form: { kind: "none" } };
    case "open-detail":
      return { ...s, detail: e.detail, record: undefined, form: { kind: "none" } };
    case "close-detail":
      return { ...s, detail: undefined, record: undefined, form: { kind: "none" } };
    case "toggle-partial":
      return { ...s, filters: { ...s.filters, includePartial: !s.filters.includePartial } };
    case "set-status":
      return { ...s, filters: { ...s.filters, status: e.status } };
    case "open-range":
      return { ...s, form: { kind: "range", from: s.filters.from, to: s.filters.to, problem: undefined } };
    case "range-field":
      return s.form.kind === "range" ? { ...s, form: { ...s.form, [e.field]: e.value, problem: undefined } } : s;
    case "submit-range":
      return submitRange(s, e.today);
    case "open-refund":
      return openRefund(s, e.payment, e.now, e.timeZone);
    case "refund-field":
      return s.form.kind === "refund" ? { ...s, form: refundField(s.form, e.field, e.value) } : s;
    case "refund-move": {
      if (s.form.kind !== "refund") return s;
      const rows = refundRows(s.form, e.split);
      const at = Math.max(0, rows.indexOf(s.form.focus));
      const focus = rows[(at + e.delta + rows.length) % rows.length] ?? "mode";
      return { ...s, form: { ...s.form, focus } };
    }
    case "refund-problem":
      if (s.form.kind !== "refund") return s;
      return { ...s, form: { ...s.form, problem: e.problem, problemRow: e.row, ...(e.row ? { focus: e.row } : {}) } };
    case "open-order-action": {
      const problem = checkOrderAction(e.order, e.action);
      const form: OrderActionForm = {
        kind: "order-action",
        orderId: e.order.id ?? "",
        action: e.action,
        note: "",
        tracking: "",
        problem,
      };
      return { ...s, form };
    }
    case "order-field":
      return s.form.kind === "order-action" ? { ...s, form: { ...s.form, [e.field]: e.value } } : s;
    case "order-problem":
      return s.form.kind === "order-action" ? { ...s, form: { ...s.form, problem: e.problem } } : s;
    case "close-form":
      return { ...s, form: { kind: "none" } };
    case "list-read":
      return { ...s, lists: { ...s.lists, [e.view]: e.records }, readFor: { ...s.readFor, [e.view]: e.key } };
    case "record-read":
      return s.detail && s.detail.id === e.record.id ? { ...s, record: e.record } : s;
    case "refunded":
      return replaceRecord({ ...s, form: { kind: "none" } }, "payments", e.payment, { stale: ["refunds"] });
    case "order-updated":
      return replaceRecord({ ...s, form: { kind: "none" } }, "orders", e.order, { stale: [] });
    case "retired":
      return { ...s, retired: { ...s.retired, [e.operation]: e.text } };
    case "today": {
      if (s.filters.source !== "default") return s;
      const r = v1DateRange({}, e.today);
      if (!r.ok || (r.value.from === s.filters.from && r.value.to === s.filters.to)) return s;
      return { ...s, filters: { ...s.filters, ...r.value } };
    }
    case "location-changed":
      return {
        ...s,
        detail: undefined,
        record: undefined,
        form: { kind: "none" },
        readFor: { payments: undefined, refunds: undefined, settlements: undefined, orders: undefined },
      };
  }
}

function submitRange(s: V1State, today: string): V1State {
  if (s.form.kind !== "range") return s;
  const r = v1DateRange({ from: s.form.from.trim() || undefined, to: s.form.to.trim() || undefined }, today);
  if (!r.ok) return { ...s, form: { ...s.form, problem: r.problem, problemField: r.field } };
  return { ...s, form: { kind: "none" }, filters: { ...s.filters, ...r.value } };
}

/**
 * Opens the refund form on a payment: a full refund to start with. A payment that cannot be
 * refunded at all (still being taken, past the window, nothing left) says so at once.
 */
function openRefund(s: V1State, p: V1Payment, now: Date, timeZone: string): V1State {
  const tenders = p.tender ?? [];
  const form: RefundForm = {
    kind: "refund",
    paymentId: p.id ?? "",
    mode: "full",
    tenderId: isSplitTender(p) ? undefined : tenders[0]?.id,
    amount: "",
    reason: "",
    focus: "mode",
    // A reason is typed later: only the payment's own rules can refuse it now.
    problem: checkV1Refund(p, { kind: "full", reason: "-" }, now, timeZone),
  };
  return { ...s, form };
}

function refundField(f: RefundForm, field: "mode" | "tenderId" | "amount" | "reason", value: string): RefundForm {
  const cleared = { ...f, problem: undefined, problemRow: undefined };
  if (field === "mode") return { ...cleared, mode: value === "partial" ? "partial" : "full" };
  if (field === "tenderId") return { ...cleared, tenderId: value || undefined };
  return { ...cleared, [field]: value };
}

/** A refund form's draft, or the problem with its amount in words. */
export function refundDraft(
  f: RefundForm,
  p: V1Payment,
): { ok: true; draft: V1RefundDraft } | { ok: false; problem: string; part?: RefundPart } {
  if (f.mode === "full") return { ok: true, draft: { kind: "full", reason: f.reason } };
  const amount = parseMoney(f.amount, paymentCurrency(p), { allowNegative: false });
  if (!amount.ok) return { ok: false, problem: amount.problem, part: "amount" };
  return { ok: true, draft: { kind: "partial", reason: f.reason, tenderId: f.tenderId, amount: amount.value } };
}

/**
 * Checks a refund form against the interface's rules: the problem in words (and the row it is
 * about, when that row is on the form), or the draft to send.
 */
export function checkRefundForm(
  f: RefundForm,
  p: V1Payment,
  now: Date,
  timeZone: string,
): { ok: true; draft: V1RefundDraft } | { ok: false; problem: string; row?: RefundRow } {
  const d = refundDraft(f, p);
  const broken = d.ok ? checkV1RefundParts(p, d.draft, now, timeZone) : d;
  if (!broken) return d;
  const row = broken.part && refundRows(f, isSplitTender(p)).includes(broken.part) ? broken.part : undefined;
  return { ok: false, problem: broken.problem, ...(row ? { row } : {}) };
}

/** The tenders a partial refund may come out of, with what is left on each. */
export function refundableTenders(p: V1Payment): { id: string; left: number }[] {
  return (p.tender ?? []).map((t) => ({ id: t.id ?? "", left: tenderLeft(t) })).filter((t) => t.left > 0);
}

/** The actions an order open in detail allows, for the screen's commands. */
export const orderActionsOf = (o: V1Order | undefined): V1UpdateOrderRequestAction[] =>
  o ? allowedOrderActions(o) : [];

/** Puts a changed record in its list (and as the open record); other lists it affects go stale. */
function replaceRecord<T extends { id?: string }>(
  s: V1State,
  view: "payments" | "orders",
  record: T,
  o: { stale: V1View[] },
): V1State {
  const list = s.lists[view] as T[] | undefined;
  const lists = list
    ? { ...s.lists, [view]: list.map((r) => (r.id === record.id ? { ...r, ...record } : r)) }
    : s.lists;
  const readFor = { ...s.readFor };
  for (const v of o.stale) readFor[v] = undefined;
  const open = s.record && s.record.id === record.id ? (record as unknown as V1State["record"]) : s.record;
  return { ...s, lists, readFor, record: open };
}
