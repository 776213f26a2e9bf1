// The payouts screen's tables. Every column is declared once (header and cells from one spec);
// on a narrow terminal the columns with the highest `drop` go first.
import { formatAmount } from "../../../domain/money.js";
import { dueDate } from "../../../domain/payout-reconcile.js";
import {
  type EntryGroup,
  entrySource,
  entryWords,
  type FeeWeek,
  formatRate,
  maskDestination,
  payoutStatusWord,
} from "../../../domain/payouts.js";
import { localDate, localTime } from "../../../domain/time.js";
import type { Payout, PayoutEntry } from "../../../spec/generated/types.js";
import type { ReconcileItem, ReconcileRow } from "../../../state/screens.js";
import type { Column } from "../../components/columns.js";
import type { Theme } from "../../theme.js";

const money = (m: { amount?: number; currency?: string } | undefined) =>
  m && typeof m.amount === "number" && m.currency ? formatAmount(m.amount, m.currency) : "—";

/** A status's colour: paid is done, sent is on its way, failed is the manager's problem. */
export const statusColor = (status: string | undefined, theme: Theme): string | undefined =>
  status === "FAILED" ? theme.bad : status === "SENT" ? theme.warn : undefined;

/**
 * The list: when it arrives, its status, the amount, where it went and the statement reference.
 * What stays at 60 columns: arrival, status, amount, reference, and with All locations the
 * location (never dropped: the rows of two stores look alike without it).
 */
export function payoutColumns(
  names: ReadonlyMap<string, string> | undefined,
  zoneOf: (p: Payout) => string,
): Column<Payout>[] {
  return [
    ...(names
      ? [{ header: "Location", width: 12, render: (p: Payout) => names.get(p.location_id) ?? p.location_id }]
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
    { header: "Type", width: 10, render: (e) => entryWords(e.type) },
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

const OUTCOME: Record<ReconcileRow["kind"], string> = {
  ambiguous: "ambiguous",
  unmatched: "unmatched",
  matched: "matched",
};

/**
 * The reconciliation's rows: a statement line (its number, date, amount, outcome, description),
 * a payout beside it (indented: its due date, amount, whether it fits or is near, status and
 * reference), a section's title, or a payout missing from the statement or failed.
 */
export function reconcileColumns(payouts: ReadonlyMap<string, Payout>, currency: string): Column<ReconcileItem>[] {
  const payoutOf = (i: ReconcileItem) =>
    i.kind === "candidate" || i.kind === "payout" ? payouts.get(i.payoutId) : undefined;
  const line = (i: ReconcileItem) => (i.kind === "line" ? i.row.statementLine : undefined);
  const describe = (p: Payout | undefined, id: string) =>
    `${payoutStatusWord(p?.status)} · ${p?.end_to_end_id ?? "no reference"} · ${id}`;
  return [
    { header: "Line", width: 4, align: "right", render: (i) => (i.kind === "line" ? String(i.row.line) : "") },
    {
      header: "Date",
      width: 10,
      render: (i) => line(i)?.date ?? (payoutOf(i) ? (dueDate(payoutOf(i) as Payout) ?? "—") : ""),
    },
    {
      header: "Amount",
      width: 10,
      align: "right",
      render: (i) => {
        const l = line(i);
        if (l) return formatAmount(l.amount, currency);
        return payoutOf(i) ? money(payoutOf(i)?.amount_money) : "";
      },
    },
    {
      header: "Outcome",
      width: 9,
      render: (i) =>
        i.kind === "line"
          ? OUTCOME[i.row.kind]
          : i.kind === "candidate"
            ? `  ${i.role}`
            : i.kind === "payout"
              ? i.section
              : "",
      color: (i, theme) =>
        i.kind === "heading"
          ? theme.accent
          : i.kind === "line"
            ? i.row.kind === "matched"
              ? theme.good
              : i.row.kind === "ambiguous"
                ? theme.warn
                : theme.bad
            : i.kind === "payout"
              ? i.section === "failed"
                ? theme.bad
                : theme.warn
              : theme.muted,
    },
    {
      header: "Description / payout",
      width: 12,
      flex: 1,
      render: (i) =>
        i.kind === "heading"
          ? i.text
          : i.kind === "line"
            ? (i.row.statementLine?.description ?? "")
            : `${i.kind === "candidate" ? "↳ " : ""}${describe(payoutOf(i), i.payoutId)}`,
    },
  ];
}
