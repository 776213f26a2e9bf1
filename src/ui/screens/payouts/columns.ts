// The payouts screen's tables. Every column is declared once (header and cells from one spec);
// on a narrow terminal the columns with the highest `drop` go first.
import { formatAmount } from "../../../domain/money.js";
import {
  type EntryGroup,
  entrySource,
  entryTypeWords,
  type FeeWeek,
  formatRate,
  maskDestination,
  payoutStatusWord,
} from "../../../domain/payouts.js";
import { localDate, localTime } from "../../../domain/time.js";
import type { Payout, PayoutEntry } from "../../../spec/generated/types.js";
import type { ReconcileRow } from "../../../state/payouts-machine.js";
import type { Column } from "../../components/columns.js";
import type { Theme } from "../../theme.js";

const money = (m: { amount?: number; currency?: string } | undefined) =>
  m && typeof m.amount === "number" && m.currency ? formatAmount(m.amount, m.currency) : "—";

/** A status's colour: paid is done, sent is on its way, failed is the manager's problem. */
export const statusColor = (status: string | undefined, theme: Theme): string | undefined =>
  status === "FAILED" ? theme.bad : status === "SENT" ? theme.warn : undefined;

/**
 * The list: when it arrives, its status, the amount, where it went and the statement reference.
 * What stays at 60 columns: arrival, status, amount, reference.
 */
export function payoutColumns(
  names: ReadonlyMap<string, string> | undefined,
  zoneOf: (p: Payout) => string,
): Column<Payout>[] {
  return [
    ...(names
      ? [{ header: "Location", width: 12, drop: 3, render: (p: Payout) => names.get(p.location_id) ?? p.location_id }]
      : []),
    { header: "Arrives", width: 10, render: (p) => p.arrival_date ?? "—" },
    { header: "Created", width: 10, drop: 4, render: (p) => (p.created_at ? localDate(p.created_at, zoneOf(p)) : "—") },
    {
      header: "Status",
      width: 6,
      render: (p) => payoutStatusWord(p.status),
      color: (p, theme) => statusColor(p.status, theme),
    },
    { header: "Amount", width: 10, align: "right", render: (p) => money(p.amount_money) },
    { header: "Destination", width: 11, drop: 2, render: (p) => maskDestination(p.destination, true) },
    { header: "Reference", width: 17, flex: 1, drop: 1, render: (p) => p.end_to_end_id ?? "—" },
  ];
}

/** The detail's groups: one row per entry type, then the total. */
export const groupColumns: Column<EntryGroup & { currency: string }>[] = [
  { header: "Type", width: 12, flex: 1, render: (g) => g.words },
  { header: "Entries", width: 7, align: "right", drop: 2, render: (g) => String(g.count) },
  { header: "Gross", width: 11, align: "right", render: (g) => formatAmount(g.gross, g.currency) },
  { header: "Fees", width: 9, align: "right", render: (g) => formatAmount(g.fee, g.currency) },
  { header: "Net", width: 11, align: "right", render: (g) => formatAmount(g.net, g.currency) },
];

/** The detail's entries: time, type, the money, and the payment or refund it comes from. */
export function entryColumns(timeZone: string): Column<PayoutEntry>[] {
  return [
    {
      header: "Time",
      width: 11,
      render: (e) =>
        e.effective_at ? `${localDate(e.effective_at, timeZone).slice(5)} ${localTime(e.effective_at, timeZone)}` : "—",
    },
    { header: "Type", width: 10, render: (e) => entryTypeWords(e.type) },
    { header: "Gross", width: 10, align: "right", drop: 2, render: (e) => money(e.gross_amount_money) },
    { header: "Fee", width: 7, align: "right", render: (e) => money(e.fee_amount_money) },
    { header: "Net", width: 10, align: "right", render: (e) => money(e.net_amount_money) },
    { header: "From", width: 10, flex: 1, drop: 1, render: (e) => entrySource(e) },
  ];
}

/** The fees table: per week, the charges' gross, the fees and the effective rate. */
export function feeColumns(currency: string): Column<FeeWeek>[] {
  return [
    { header: "Week of", width: 10, render: (w) => w.week },
    { header: "Charges", width: 11, align: "right", drop: 1, render: (w) => formatAmount(w.chargesGross, currency) },
    { header: "Fees", width: 9, align: "right", render: (w) => formatAmount(w.fees, currency) },
    { header: "Rate", width: 6, align: "right", render: (w) => formatRate(w.rate) },
  ];
}

const KIND_WORDS: Record<ReconcileRow["kind"], string> = {
  ambiguous: "ambiguous",
  unmatched: "unmatched",
  matched: "matched",
};

/** The reconciliation: each statement line, what became of it, and the payouts beside it. */
export function reconcileColumns(currency: string): Column<ReconcileRow>[] {
  return [
    { header: "Line", width: 4, align: "right", render: (r) => String(r.line) },
    { header: "Date", width: 10, render: (r) => r.statementLine?.date ?? "—" },
    {
      header: "Amount",
      width: 10,
      align: "right",
      render: (r) => (r.statementLine ? formatAmount(r.statementLine.amount, currency) : "—"),
    },
    {
      header: "Outcome",
      width: 9,
      render: (r) => KIND_WORDS[r.kind],
      color: (r, theme) => (r.kind === "matched" ? theme.good : r.kind === "ambiguous" ? theme.warn : theme.bad),
    },
    { header: "Description", width: 12, flex: 1, drop: 1, render: (r) => r.statementLine?.description ?? "" },
  ];
}
