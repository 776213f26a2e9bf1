// The payouts screen as a pure state machine: which view is shown (the list, one payout, the fees
// over time, a statement's reconciliation), what is selected (by id), the filters, the forms, and
// what is being read. The slice (payouts-slice.ts) does the I/O and feeds the answers back in as
// events; the screen draws from the state and the selectors below.

import type { ColumnsUsed, LineProblem, SkippedLine, StatementLine } from "../domain/bank-statement.js";
import type { Reconciliation } from "../domain/payout-reconcile.js";
import {
  checkPayoutNet,
  type EntryBreakdown,
  entryBreakdown,
  type FeeWeek,
  PAYOUT_STATUSES,
  type PayoutTotals,
  payoutMatches,
  payoutRange,
  payoutTotals,
} from "../domain/payouts.js";
import type { StatementOption } from "../domain/statement-columns.js";
import { compileDateFormat } from "../domain/statement-dates.js";
import type { Payout, PayoutEntry, PayoutStatus } from "../spec/generated/types.js";
import type { RangeForm } from "./range-form.js";

/** The views of the screen. */
export type PayoutsView = "list" | "detail" | "fees" | "reconcile";

/**
 * What the list shows: the dates (local, inclusive), a status or all. One location or all of them
 * is the location picker's choice (the shell's `allLocations`).
 */
export interface PayoutsFilters {
  from: string;
  to: string;
  /** The dates follow today (the last 30 days) rather than a range the manager typed. */
  followToday: boolean;
  status: PayoutStatus | undefined;
  /** `/`: an amount or a piece of a reference. */
  query: string;
}

/** The statement form: the file, and the column flags of the command when headers are unusual. */
export interface StatementFields {
  path: string;
  dateColumn: string;
  amountColumn: string;
  descriptionColumn: string;
  dateFormat: string;
}

/** The form open on the screen, if any. */
export type PayoutsForm = { kind: "none" } | RangeForm | StatementForm;

/** The open statement form: its fields, the problem that keeps it open, and the field that problem is about. */
export type StatementForm = {
  kind: "statement";
  problem: string | undefined;
  /** The field the problem is about, when it is one: the form takes the manager there. */
  problemField?: keyof StatementFields | undefined;
  /** The field the form opens on: the column or date format that would make the last statement usable. */
  startAt?: StatementOption | undefined;
} & StatementFields;

/** One payout open in detail: the payout and its entries as far as they have been read. */
export interface PayoutDetail {
  payoutId: string;
  payout: Payout | undefined;
  entries: PayoutEntry[];
  /** Every page of entries has been read. */
  complete: boolean;
  /** The reading stopped (the service failed): what is shown is part of the entries. */
  stopped?: boolean;
}

/** The weekly fees, once every payout's entries are in, and how far the reading has got. */
export interface PayoutFees {
  readFor: string;
  done: number;
  total: number;
  weeks: FeeWeek[] | undefined;
  /** The reading stopped (the service failed) after `done` of `total` payouts. */
  stopped?: boolean;
}

/**
 * What helps a statement that cannot be used: another file (it is missing, too large, not a CSV
 * export), one location (the locations chosen are in several currencies), or naming its columns
 * or date format in the form (its headers or dates are unusual).
 */
export type StatementRetry = "file" | "location" | "columns";

/** A statement read and reconciled, or why it could not be. */
export type StatementState =
  | { kind: "reading"; path: string }
  | {
      kind: "unusable";
      path: string;
      problem: string;
      problems: LineProblem[];
      retry: StatementRetry;
      /** The column or date format naming would solve it: R opens the form there. */
      option?: StatementOption | undefined;
    }
  | {
      kind: "reconciled";
      path: string;
      lines: StatementLine[];
      skipped: SkippedLine[];
      columns: ColumnsUsed;
      dateFormat: string;
      notes: string[];
      result: Reconciliation;
      /** The payouts the statement was matched against, by id: the candidates shown beside lines. */
      payouts: ReadonlyMap<string, Payout>;
    };

/** The screen's whole state. */
export interface PayoutsState {
  view: PayoutsView;
  filters: PayoutsFilters;
  form: PayoutsForm;
  /** The payouts read for `readFor` (a query key), newest first; undefined before the first read. */
  payouts: Payout[] | undefined;
  readFor: string | undefined;
  /** Said beside the list (the range reaches back before January 2021). */
  note: string | undefined;
  detail: PayoutDetail | undefined;
  /** The view `esc` goes back to from the detail (the list, or the reconciliation it was opened from). */
  detailFrom: PayoutsView;
  fees: PayoutFees | undefined;
  statement: StatementState | undefined;
  /** The columns and date format the last statement was read with: the form brings them back. */
  statementOptions?: Omit<StatementFields, "path"> | undefined;
  /** `missing` once the service said this sign-in may not read payouts. */
  permission: "unknown" | "granted" | "missing";
}

/** The screen before anything is read: the last 30 days up to `today`, at the selected location. */
export function initialPayoutsState(today: string): PayoutsState {
  const range = payoutRange({}, today);
  return {
    view: "list",
    filters: {
      from: range.ok ? range.from : today,
      to: range.ok ? range.to : today,
      followToday: true,
      status: undefined,
      query: "",
    },
    form: { kind: "none" },
    payouts: undefined,
    readFor: undefined,
    note: undefined,
    detail: undefined,
    detailFrom: "list",
    fees: undefined,
    statement: undefined,
    permission: "unknown",
  };
}

/**
 * The query a list is read for: where (the shell's `placeKey`: a location's id, or "all") and which
 * dates (the status is filtered on the screen).
 */
export function payoutsQueryKey(f: Pick<PayoutsFilters, "from" | "to">, place: string): string {
  return `${place}|${f.from}|${f.to}`;
}

/** What happens on the screen. */
export type PayoutsEvent =
  | { type: "today"; today: string }
  | { type: "location-changed" }
  | { type: "show-view"; view: PayoutsView }
  | { type: "set-status"; status: PayoutStatus | undefined }
  | { type: "cycle-status" }
  | { type: "set-query"; query: string }
  | { type: "open-form"; form: "range" | "statement" }
  | {
      type: "edit-form";
      patch: Partial<Omit<Extract<PayoutsForm, { kind: "statement" }>, "kind">> & Partial<{ from: string; to: string }>;
    }
  | { type: "close-form" }
  | { type: "submit-form"; today: string }
  | { type: "payouts-read"; key: string; payouts: Payout[] }
  | { type: "permission-missing" }
  | { type: "open-detail"; id: string }
  /** Back from a view: the detail to where it was opened from, the rest to the list. */
  | { type: "back" }
  | { type: "payout-read"; payout: Payout }
  /** The open payout is read again (`r`): what was read of it is put aside. */
  | { type: "detail-reset" }
  | { type: "entries-read"; payoutId: string; entries: PayoutEntry[]; complete: boolean }
  | { type: "fees-progress"; key: string; done: number; total: number }
  | { type: "fees-read"; key: string; weeks: FeeWeek[] }
  /** A read of entries failed: the detail's, or the fees' (`key`). */
  | { type: "entries-stopped"; payoutId: string }
  | { type: "fees-stopped"; key: string }
  | { type: "statement-reading"; path: string }
  | ({ type: "statement-unusable" } & Omit<Extract<StatementState, { kind: "unusable" }>, "kind">)
  | ({ type: "statement-reconciled" } & Omit<Extract<StatementState, { kind: "reconciled" }>, "kind">);

const STATUS_CYCLE: readonly (PayoutStatus | undefined)[] = [undefined, ...PAYOUT_STATUSES];

/** The next state after an event. Pure: the slice does the reading and feeds the answers back. */
export function payoutsReducer(s: PayoutsState, e: PayoutsEvent): PayoutsState {
  switch (e.type) {
    case "today":
      return followToday(s, e.today);
    case "location-changed":
      return {
        ...s,
        view: s.view === "detail" || s.view === "fees" ? "list" : s.view,
        payouts: undefined,
        readFor: undefined,
        detail: undefined,
        fees: undefined,
        form: { kind: "none" },
      };
    case "show-view":
      return { ...s, view: e.view, form: { kind: "none" } };
    case "back":
      return { ...s, view: s.view === "detail" ? s.detailFrom : "list", form: { kind: "none" } };
    case "set-status":
      return { ...s, filters: { ...s.filters, status: e.status } };
    case "cycle-status": {
      const next = STATUS_CYCLE[(STATUS_CYCLE.indexOf(s.filters.status) + 1) % STATUS_CYCLE.length];
      return { ...s, filters: { ...s.filters, status: next } };
    }
    case "set-query":
      return { ...s, filters: { ...s.filters, query: e.query } };
    case "open-form":
      return { ...s, form: openForm(s, e.form) };
    case "edit-form":
      return s.form.kind === "none"
        ? s
        : { ...s, form: { ...s.form, ...e.patch, problem: undefined, problemField: undefined } as PayoutsForm };
    case "close-form":
      return { ...s, form: { kind: "none" } };
    case "submit-form":
      return s.form.kind === "statement" ? submitStatementForm(s) : submitRange(s, e.today);
    case "payouts-read":
      return payoutsRead(s, e.key, e.payouts);
    case "permission-missing":
      return { ...s, permission: "missing", payouts: undefined, detail: undefined };
    case "open-detail":
      return openDetail(s, e.id);
    case "detail-reset":
      return s.detail
        ? { ...s, detail: { payoutId: s.detail.payoutId, payout: undefined, entries: [], complete: false } }
        : s;
    case "payout-read":
      if (s.detail?.payoutId !== e.payout.id) return s;
      return { ...s, detail: { ...s.detail, payout: e.payout } };
    case "entries-read":
      if (s.detail?.payoutId !== e.payoutId) return s;
      return { ...s, detail: { ...s.detail, entries: e.entries, complete: e.complete } };
    case "entries-stopped":
      return s.detail?.payoutId === e.payoutId ? { ...s, detail: { ...s.detail, stopped: true } } : s;
    case "fees-stopped":
      return s.fees?.readFor === e.key ? { ...s, fees: { ...s.fees, stopped: true } } : s;
    case "fees-progress":
      return { ...s, fees: { readFor: e.key, done: e.done, total: e.total, weeks: undefined } };
    case "fees-read":
      return { ...s, fees: { readFor: e.key, done: s.fees?.total ?? 0, total: s.fees?.total ?? 0, weeks: e.weeks } };
    case "statement-reading":
      return startReading(s, e.path);
    case "statement-unusable": {
      const { type: _type, ...rest } = e;
      return { ...s, statement: { kind: "unusable", ...rest } };
    }
    case "statement-reconciled": {
      const { type: _type, ...rest } = e;
      return { ...s, statement: { kind: "reconciled", ...rest } };
    }
  }
}

/** A statement being read: the reconciliation view, the form closed, its columns and date format kept for R. */
function startReading(s: PayoutsState, path: string): PayoutsState {
  const f = s.form.kind === "statement" ? s.form : undefined;
  const options = f
    ? {
        dateColumn: f.dateColumn,
        amountColumn: f.amountColumn,
        descriptionColumn: f.descriptionColumn,
        dateFormat: f.dateFormat,
      }
    : s.statementOptions;
  return {
    ...s,
    view: "reconcile",
    form: { kind: "none" },
    statement: { kind: "reading", path },
    statementOptions: options,
  };
}

function followToday(s: PayoutsState, today: string): PayoutsState {
  if (!s.filters.followToday) return s;
  const r = payoutRange({}, today);
  if (!r.ok || (r.from === s.filters.from && r.to === s.filters.to)) return s;
  return { ...s, filters: { ...s.filters, from: r.from, to: r.to } };
}

function openForm(s: PayoutsState, form: "range" | "statement"): PayoutsForm {
  if (form === "range") return { kind: "range", from: s.filters.from, to: s.filters.to, problem: undefined };
  // The last statement's file and flags come back: reading it again after an edit is one key.
  const last = s.form.kind === "statement" ? s.form : s.statementOptions;
  const path = s.form.kind === "statement" ? s.form.path : s.statement ? s.statement.path : "";
  // A statement whose columns or date format need naming: the form opens on the one that would do.
  const startAt = s.statement?.kind === "unusable" && s.statement.retry === "columns" ? s.statement.option : undefined;
  return {
    kind: "statement",
    ...(startAt ? { startAt } : {}),
    path,
    dateColumn: last?.dateColumn ?? "",
    amountColumn: last?.amountColumn ?? "",
    descriptionColumn: last?.descriptionColumn ?? "",
    dateFormat: last?.dateFormat ?? "",
    problem: undefined,
  };
}

function submitRange(s: PayoutsState, today: string): PayoutsState {
  if (s.form.kind !== "range") return s;
  const { from, to } = s.form;
  const r = payoutRange({ from: from.trim() || undefined, to: to.trim() || undefined }, today);
  if (!r.ok) return { ...s, form: { ...s.form, problem: r.problem, problemField: r.field } };
  const def = payoutRange({}, today);
  const follows = def.ok && def.from === r.from && def.to === r.to;
  return {
    ...s,
    form: { kind: "none" },
    filters: { ...s.filters, from: r.from, to: r.to, followToday: follows },
    note: r.note,
    fees: undefined,
  };
}

/** The statement form checked: a file is needed, a date format must be one backroom reads. */
function submitStatementForm(s: PayoutsState): PayoutsState {
  if (s.form.kind !== "statement") return s;
  if (!s.form.path.trim()) {
    return { ...s, form: { ...s.form, problem: "Give the statement's file.", problemField: "path" } };
  }
  if (s.form.dateFormat.trim()) {
    const f = compileDateFormat(s.form.dateFormat);
    if ("problem" in f) return { ...s, form: { ...s.form, problem: f.problem, problemField: "dateFormat" } };
  }
  return s;
}

/** The statement form's fields as the reader's options, when the form checks out. */
export function statementRequest(s: PayoutsState): (StatementFields & { ok: true }) | { ok: false } {
  const checked = submitStatementForm(s);
  if (checked.form.kind !== "statement" || checked.form.problem) return { ok: false };
  const { path, dateColumn, amountColumn, descriptionColumn, dateFormat } = checked.form;
  return { ok: true, path: path.trim(), dateColumn, amountColumn, descriptionColumn, dateFormat };
}

function payoutsRead(s: PayoutsState, key: string, payouts: Payout[]): PayoutsState {
  return { ...s, payouts, readFor: key, permission: "granted", ...(s.readFor === key ? {} : { fees: undefined }) };
}

function openDetail(s: PayoutsState, id: string): PayoutsState {
  const known = s.payouts?.find((p) => p.id === id) ?? statementPayout(s.statement, id);
  const same = s.detail?.payoutId === id;
  return {
    ...s,
    view: "detail",
    // From the reconciliation, esc goes back to it; from anywhere else, to the list.
    detailFrom: s.view === "detail" ? s.detailFrom : s.view === "reconcile" ? "reconcile" : "list",
    form: { kind: "none" },
    detail: same && s.detail ? s.detail : { payoutId: id, payout: known, entries: [], complete: false },
  };
}

const statementPayout = (st: StatementState | undefined, id: string) =>
  st?.kind === "reconciled" ? st.payouts.get(id) : undefined;

/** The list as shown: the status filter and the `/` search applied. */
export function visiblePayouts(s: Pick<PayoutsState, "payouts" | "filters">): Payout[] {
  const { status, query } = s.filters;
  return (s.payouts ?? []).filter((p) => (!status || p.status === status) && payoutMatches(p, query));
}

/** The totals of the range, every status counted (the status filter narrows the rows only). */
export function rangeTotals(s: Pick<PayoutsState, "payouts">): PayoutTotals {
  return payoutTotals(s.payouts ?? []);
}

/** The open payout's entries by type and the check of their net against its amount. */
export function detailSummary(
  s: Pick<PayoutsState, "detail">,
): { breakdown: EntryBreakdown; problem: string | undefined; checked: boolean } | undefined {
  const d = s.detail;
  if (!d) return undefined;
  const breakdown = entryBreakdown(d.entries, d.payout?.amount_money?.currency ?? "USD");
  // The check waits for the last page: a partial sum would report a difference that is not there.
  const checked = d.complete && d.payout !== undefined;
  return { breakdown, problem: checked && d.payout ? checkPayoutNet(d.payout, d.entries) : undefined, checked };
}

/** One line of the reconciliation as the screen lists it: the problems first, then the matched. */
export interface ReconcileRow {
  line: number;
  kind: "ambiguous" | "unmatched" | "matched";
  statementLine: StatementLine | undefined;
  /** Why, in words, for a problem line. */
  reason: string;
  /** The payouts beside it: the candidates, the nearest ones, or the one it matched. */
  candidates: string[];
}

/** The statement's lines, problem lines first (in file order), each with its candidates. */
export function reconcileRows(st: StatementState | undefined): ReconcileRow[] {
  if (st?.kind !== "reconciled") return [];
  const lineOf = new Map(st.lines.map((l) => [l.line, l]));
  const r = st.result;
  const problems: ReconcileRow[] = [
    ...r.ambiguous.map((a) => ({
      line: a.line,
      kind: "ambiguous" as const,
      statementLine: lineOf.get(a.line),
      reason: a.why === "lines" ? "Its one payout fits other lines too." : `${a.payoutIds.length} payouts fit.`,
      candidates: a.payoutIds,
    })),
    ...r.unmatched.map((u) => ({
      line: u.line.line,
      kind: "unmatched" as const,
      statementLine: u.line,
      reason: u.reason,
      candidates: u.nearest,
    })),
  ].sort((a, b) => a.line - b.line);
  const matched: ReconcileRow[] = r.matched.map((m) => ({
    line: m.line,
    kind: "matched",
    statementLine: lineOf.get(m.line),
    reason: m.by === "end_to_end_id" ? "by reference" : "by amount and date",
    candidates: [m.payoutId],
  }));
  return [...problems, ...matched];
}

/** One row of the reconciliation view: a statement line, a payout beside it, or a section's title. */
export type ReconcileItem =
  | { kind: "line"; id: string; row: ReconcileRow }
  /** A payout that fits an ambiguous line, or is near an unmatched one. */
  | { kind: "candidate"; id: string; line: number; payoutId: string; role: "fits" | "near" }
  | { kind: "heading"; id: string; text: string }
  /** A paid payout missing from the statement, or a failed one (listed apart). */
  | { kind: "payout"; id: string; payoutId: string; section: "missing" | "failed" };

/**
 * The reconciliation as the screen lists it: each problem line followed by its candidates, then
 * the paid payouts missing from the statement, the failed ones apart, and the matched lines last.
 */
export function reconcileItems(st: StatementState | undefined): ReconcileItem[] {
  if (st?.kind !== "reconciled") return [];
  const rows = reconcileRows(st);
  const out: ReconcileItem[] = [];
  for (const row of rows.filter((r) => r.kind !== "matched")) {
    out.push({ kind: "line", id: `line:${row.line}`, row });
    const role = row.kind === "ambiguous" ? "fits" : "near";
    for (const payoutId of row.candidates) {
      out.push({ kind: "candidate", id: `line:${row.line}:${payoutId}`, line: row.line, payoutId, role });
    }
  }
  const section = (which: "missing" | "failed", title: string, payouts: readonly Payout[]) => {
    if (payouts.length === 0) return;
    out.push({ kind: "heading", id: `heading:${which}`, text: `${title} (${payouts.length})` });
    for (const p of payouts) out.push({ kind: "payout", id: `${which}:${p.id}`, payoutId: p.id, section: which });
  };
  section("missing", "Paid payouts missing from the statement", st.result.missing);
  section("failed", "Failed payouts, listed apart", st.result.failed);
  const matched = rows.filter((r) => r.kind === "matched");
  if (matched.length) out.push({ kind: "heading", id: "heading:matched", text: `Matched (${matched.length})` });
  for (const row of matched) out.push({ kind: "line", id: `line:${row.line}`, row });
  return out;
}

/** The payout a reconciliation row opens: its own, or a line's first candidate. */
export function itemPayoutId(item: ReconcileItem | undefined): string | undefined {
  if (!item || item.kind === "heading") return undefined;
  return item.kind === "line" ? item.row.candidates[0] : item.payoutId;
}
