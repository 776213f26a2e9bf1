// How `backroom v1` lays records out for people, and the columns of its CSV.
import { localDateTime } from "../domain/cash-drawers.js";
import { formatAmount, formatMoney } from "../domain/money.js";
import { plural } from "../domain/plural.js";
import {
  checkSettlement,
  OFFLINE_NOTE,
  ORDER_HISTORY_LABELS,
  orderNotes,
  PARTIAL_NOTE,
  paymentBreakdown,
  paymentTotals,
  SETTLEMENT_STATUS_LABELS,
  settlementVerdict,
  tendersSummary,
} from "../domain/v1-records.js";
import { allowedOrderActions, ORDER_ACTION_LABELS, ORDER_STATE_LABELS } from "../domain/v1-rules.js";
import type { V1Order, V1Payment, V1Refund, V1Settlement } from "../spec/generated/types.js";
import type { Located, V1ListKind, V1ListRecord } from "../state/v1-load.js";
import type { CsvColumn } from "./output.js";
import { columns } from "./report.js";

/** Where the records were read: locations by id, and the zone dates are shown in. */
export interface Places {
  names: ReadonlyMap<string, string>;
  zones: ReadonlyMap<string, string>;
  /** The zone of the location the command works in (all locations: the default one's). */
  timeZone: string;
}

const zoneOf = (places: Places, id: string | undefined) => (id && places.zones.get(id)) || places.timeZone;
const placeName = (places: Places, id: string | undefined) => (id ? (places.names.get(id) ?? id) : "—");
const money = (m: { amount?: number; currency_code?: string } | undefined) =>
  m?.amount === undefined ? "—" : formatAmount(m.amount, m.currency_code ?? "USD");
const withCode = (m: { amount?: number; currency_code?: string } | undefined) =>
  m?.amount === undefined ? "—" : formatMoney({ amount: m.amount, currency: m.currency_code ?? "USD" });
const when = (places: Places, at: string | undefined, loc: string | undefined) =>
  localDateTime(at, zoneOf(places, loc));

/** One list's table: header cells, right-aligned columns, and each record's cells. */
interface Table<R> {
  header: string[];
  right: number[];
  cells: (r: R) => string[];
}

function tables(places: Places, all: boolean) {
  const loc = (id: string | undefined) => (all ? [placeName(places, id)] : []);
  const locHead = all ? ["location"] : [];
  const shift = all ? 1 : 0;
  return {
    payments: {
      header: ["taken", ...locHead, "tenders", "collected", "fees", "refunded", ""],
      right: [2, 3, 4].map((i) => i + shift),
      cells: (p: Located<V1Payment>) => [
        when(places, p.created_at, p.location_id),
        ...loc(p.location_id),
        tendersSummary(p),
        money(p.total_collected_money),
        money(abs(p.processing_fee_money)),
        money(abs(p.refunded_money)),
        p.is_partial ? "PARTIAL" : "",
      ],
    } satisfies Table<Located<V1Payment>>,
    refunds: {
      header: ["refunded", ...locHead, "type", "amount", "reason", "payment or tender"],
      right: [2 + shift],
      cells: (r: Located<V1Refund>) => [
        when(places, r.created_at, r.location_id),
        ...loc(r.location_id),
        r.type ?? "",
        money(abs(r.refunded_money)),
        r.reason ?? "",
        r.payment_id ?? "",
      ],
    } satisfies Table<Located<V1Refund>>,
    settlements: {
      header: ["initiated", ...locHead, "status", "total", "id"],
      right: [2 + shift],
      cells: (s: Located<V1Settlement>) => [
        when(places, s.initiated_at, s.location_id),
        ...loc(s.location_id),
        SETTLEMENT_STATUS_LABELS[s.status ?? ""] ?? s.status ?? "",
        money(s.total_money),
        s.id ?? "",
      ],
    } satisfies Table<Located<V1Settlement>>,
    orders: {
      header: ["placed", ...locHead, "state", "buyer", "total", "id"],
      right: [3 + shift],
      cells: (o: Located<V1Order>) => [
        when(places, o.created_at, o.location_id),
        ...loc(o.location_id),
        o.state ?? "",
        o.recipient_name ?? o.buyer_email ?? "",
        money(o.total_price_money),
        o.id ?? "",
      ],
    } satisfies Table<Located<V1Order>>,
  };
}

const abs = (m: { amount?: number; currency_code?: string } | undefined) =>
  m?.amount === undefined ? m : { ...m, amount: Math.abs(m.amount) };

/** A list for people: what was read, a table, and the totals. */
export function listText<K extends V1ListKind>(
  kind: K,
  records: readonly V1ListRecord[K][],
  places: Places,
  heading: { where: string; range: string | undefined; all: boolean },
): string {
  const t = tables(places, heading.all)[kind] as Table<V1ListRecord[K]>;
  const noun = kind === "orders" ? "Online-store orders" : kind[0]?.toUpperCase() + kind.slice(1);
  const out = [`${noun} at ${heading.where}${heading.range ? `, ${heading.range}` : ""}.`];
  if (kind === "payments") out.push(OFFLINE_NOTE);
  out.push("");
  if (records.length === 0) out.push(`No ${kind} in that range.`);
  else out.push(...columns([t.header, ...records.map(t.cells)], new Set(t.right)));
  out.push("", footText(kind, records));
  return `${out.join("\n")}\n`;
}

function footText(kind: V1ListKind, records: readonly object[]): string {
  if (kind === "payments") {
    const list = records as V1Payment[];
    const currency = list[0]?.total_collected_money?.currency_code ?? "USD";
    const t = paymentTotals(list);
    const m = (n: number) => formatMoney({ amount: n, currency });
    const partial = t.partial
      ? ` ${plural(t.partial, "partial payment")} besides, still being taken (their items are empty until they are complete).`
      : "";
    return `${plural(t.count, "payment")}: collected ${m(t.collected)}, fees ${m(t.fees)}, refunded ${m(t.refunded)}.${partial}`;
  }
  return `${plural(records.length, kind.slice(0, -1), kind)}.`;
}

/** One payment for people: tenders, items, totals, fees and refunds. */
export function paymentText(p: Located<V1Payment>, places: Places): string {
  const b = paymentBreakdown(p);
  const m = (n: number) => formatMoney({ amount: n, currency: b.currency });
  const out = [
    `Payment ${b.id} at ${placeName(places, p.location_id)}, taken ${when(places, b.createdAt, p.location_id)}${b.device ? ` on ${b.device}` : ""}.`,
  ];
  if (b.partial) out.push(PARTIAL_NOTE);
  out.push("", "Tenders:");
  out.push(
    ...columns(
      [["", "amount", "refunded", "left"], ...b.tenders.map((t) => [t.label, m(t.total), m(t.refunded), m(t.left)])],
      new Set([1, 2, 3]),
    ).map((l) => `  ${l}`),
  );
  out.push("", "Items:");
  if (b.items.length === 0) out.push(b.partial ? "  none yet (the payment is not complete)" : "  none");
  else {
    const rows = b.items.map((i) => [`${i.quantity} ×`, i.name, i.variation, i.sku, m(i.total)]);
    out.push(...columns(rows, new Set([0, 4])).map((l) => `  ${l}`));
  }
  out.push(
    "",
    `Sales ${m(b.gross)}, discounts ${m(b.discount)}, tax ${m(b.tax)}, tips ${m(b.tip)}: collected ${m(b.collected)}.`,
    `Processing fees ${m(b.fees)}; refunded ${m(b.refunded)}; ${m(b.left)} left to refund; net ${m(b.net)}.`,
  );
  if (b.refunds.length) {
    out.push("", "Refunds:");
    const rows = b.refunds.map((r) => [
      when(places, r.at, p.location_id),
      r.type,
      m(r.amount),
      r.tender ?? "",
      r.reason,
    ]);
    out.push(...columns(rows, new Set([2])).map((l) => `  ${l}`));
  }
  return `${out.join("\n")}\n`;
}

/** One settlement for people: its entries, and whether they add up to its total. */
export function settlementText(s: Located<V1Settlement>, places: Places): string {
  const c = checkSettlement(s);
  const m = (n: number) => formatMoney({ amount: n, currency: c.currency });
  const out = [
    `Settlement ${c.id}${s.location_id ? ` at ${placeName(places, s.location_id)}` : ""}: ${SETTLEMENT_STATUS_LABELS[s.status ?? ""] ?? s.status}, initiated ${when(places, s.initiated_at, s.location_id)}, total ${m(c.total)}.`,
    "",
  ];
  const rows = c.lines.map((l) => [l.label, l.paymentId, m(l.amount), m(l.fee), m(c.amountsAlone ? l.amount : l.net)]);
  out.push(...columns([["entry", "payment", "amount", "fee", "adds"], ...rows], new Set([2, 3, 4])));
  out.push("", c.byKind.map((k) => `${k.label} ×${k.count}: ${m(k.net)}`).join("; "));
  out.push(settlementVerdict(c));
  return `${out.join("\n")}\n`;
}

/** One order for people: buyer, money, notes, history and what can be done with it now. */
export function orderText(o: Located<V1Order>, places: Places): string {
  const state = o.state ?? "PENDING";
  const out = [
    `Order ${o.id} at ${placeName(places, o.location_id)}: ${ORDER_STATE_LABELS[state]}, placed ${when(places, o.created_at, o.location_id)}.`,
    `Buyer: ${[o.recipient_name, o.buyer_email, o.recipient_phone_number].filter(Boolean).join(", ")}`,
    `Subtotal ${money(o.subtotal_money)}, discount ${money(o.total_discount_money)}, shipping ${money(o.total_shipping_money)}, tax ${money(o.total_tax_money)}: total ${withCode(o.total_price_money)}.`,
  ];
  for (const n of orderNotes(o)) out.push(`${n.label}: ${n.note}`);
  out.push("", "History:");
  for (const h of o.order_history ?? []) {
    out.push(`  ${when(places, h.created_at, o.location_id)}  ${h.action ? ORDER_HISTORY_LABELS[h.action] : ""}`);
  }
  const actions = allowedOrderActions(o).map((a) => ORDER_ACTION_LABELS[a].toLowerCase());
  out.push("", actions.length ? `It can now be: ${actions.join(", ")}.` : "Nothing more can be done with it.");
  return `${out.join("\n")}\n`;
}

/** The CSV columns of each list: amounts as decimals of the currency, times local and UTC. */
export function csvColumns(places: Places): { [K in V1ListKind]: CsvColumn<V1ListRecord[K]>[] } {
  const local = (at: string | undefined, loc: string | undefined) => when(places, at, loc);
  const plain = (m: { amount?: number; currency_code?: string } | undefined) =>
    m?.amount === undefined ? "" : formatAmount(Math.abs(m.amount), m.currency_code ?? "USD", { grouping: false });
  const where: CsvColumn<{ location_id?: string }>[] = [
    { header: "location_id", cell: (r) => r.location_id },
    { header: "location", cell: (r) => (r.location_id ? placeName(places, r.location_id) : "") },
  ];
  return {
    payments: [
      { header: "payment_id", cell: (p) => p.id },
      ...where,
      { header: "taken_at", cell: (p) => p.created_at },
      { header: "taken_local", cell: (p) => local(p.created_at, p.location_id) },
      { header: "partial", cell: (p) => (p.is_partial ? "yes" : "no") },
      { header: "tenders", cell: (p) => tendersSummary(p) },
      { header: "currency", cell: (p) => p.total_collected_money?.currency_code },
      { header: "collected", cell: (p) => plain(p.total_collected_money) },
      { header: "fees", cell: (p) => plain(p.processing_fee_money) },
      { header: "refunded", cell: (p) => plain(p.refunded_money) },
      { header: "items", cell: (p) => (p.itemizations ?? []).length },
    ],
    refunds: [
      { header: "payment_or_tender_id", cell: (r) => r.payment_id },
      ...where,
      { header: "refunded_at", cell: (r) => r.created_at },
      { header: "refunded_local", cell: (r) => local(r.created_at, r.location_id) },
      { header: "type", cell: (r) => r.type },
      { header: "currency", cell: (r) => r.refunded_money?.currency_code },
      { header: "amount", cell: (r) => plain(r.refunded_money) },
      { header: "reason", cell: (r) => r.reason },
    ],
    settlements: [
      { header: "settlement_id", cell: (s) => s.id },
      ...where,
      { header: "initiated_at", cell: (s) => s.initiated_at },
      { header: "status", cell: (s) => s.status },
      { header: "currency", cell: (s) => s.total_money?.currency_code },
      {
        header: "total",
        cell: (s) =>
          s.total_money
            ? formatAmount(s.total_money.amount ?? 0, s.total_money.currency_code ?? "USD", { grouping: false })
            : "",
      },
    ],
    orders: [
      { header: "order_id", cell: (o) => o.id },
      ...where,
      { header: "placed_at", cell: (o) => o.created_at },
      { header: "state", cell: (o) => o.state },
      { header: "buyer", cell: (o) => o.recipient_name },
      { header: "email", cell: (o) => o.buyer_email },
      { header: "currency", cell: (o) => o.total_price_money?.currency_code },
      { header: "total", cell: (o) => plain(o.total_price_money) },
      { header: "payment_id", cell: (o) => o.payment_id },
    ],
  };
}
