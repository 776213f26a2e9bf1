// One V1 record in full, as lines of at most `width` cells: the detail pane scrolls through them,
// so a settlement of sixty entries fits a 24-row terminal. Each line says which colour role it
// takes; tables inside (tenders, items, entries) are laid out from Column specs like the lists.
import { localDateTime } from "../../../domain/cash-drawers.js";
import { formatMoney } from "../../../domain/money.js";
import { showPhone } from "../../../domain/phone.js";
import {
  checkSettlement,
  ORDER_HISTORY_LABELS,
  orderNotes,
  PARTIAL_NOTE,
  paymentBreakdown,
  SETTLEMENT_STATUS_LABELS,
  type SettlementCheck,
  settlementVerdict,
} from "../../../domain/v1-records.js";
import { allowedOrderActions, ORDER_ACTION_LABELS, ORDER_STATE_LABELS } from "../../../domain/v1-rules.js";
import type { V1Money, V1Order, V1Payment, V1Settlement } from "../../../spec/generated/types.js";
import type { LoadedState } from "../../../state/index.js";
import type { Located } from "../../../state/v1-load.js";
import { type Column, layoutColumns, rowText, wrapLines } from "../../components/columns.js";
import type { RowPlaces } from "./columns.js";

/** A line of a detail and the colour role it is drawn in. */
export interface DetailLine {
  text: string;
  tone?: "heading" | "muted" | "warn" | "bad" | "good";
}

/** Where records were read; `countries` (by location) says how a phone number is written there. */
type Places = Omit<RowPlaces, "all"> & { countries?: ReadonlyMap<string, string> };

const zone = (p: Places, loc: string | undefined) => (loc && p.zones.get(loc)) || p.timeZone;
const placeName = (p: Places, loc: string | undefined) => (loc ? (p.names.get(loc) ?? loc) : "");

/** Words wrapped to the width, each line in one tone. */
const para = (text: string, width: number, tone?: DetailLine["tone"]): DetailLine[] =>
  wrapLines(text, width).map((t) => (tone ? { text: t, tone } : { text: t }));

/** A small table: the header line, then one line per row, laid out by the columns within `width`. */
function table<R>(columns: Column<R>[], rows: readonly R[], width: number): DetailLine[] {
  const placed = layoutColumns(columns, width - 2);
  return [
    { text: `  ${rowText(placed, (c) => c.header)}`, tone: "muted" },
    ...rows.map((r, i) => ({ text: `  ${rowText(placed, (c) => c.render(r, i))}` })),
  ];
}

/** A payment: tenders with what is left, items (or why there are none), totals, refunds against it. */
export function paymentLines(p: Located<V1Payment>, places: Places, width: number): DetailLine[] {
  const b = paymentBreakdown(p);
  const m = (n: number) => formatMoney({ amount: n, currency: b.currency });
  const at = localDateTime(b.createdAt, zone(places, p.location_id));
  const where = placeName(places, p.location_id);
  const out: DetailLine[] = [
    ...para(`Payment taken ${at}${where ? ` at ${where}` : ""}${b.device ? ` on ${b.device}` : ""}`, width, "heading"),
  ];
  if (b.partial) out.push(...para(PARTIAL_NOTE, width, "warn"));
  out.push({ text: "Tenders", tone: "heading" });
  out.push(
    ...table(
      [
        { header: "Tender", width: 8, flex: 1, render: (t: (typeof b.tenders)[number]) => t.label },
        { header: "Amount", width: 12, align: "right", render: (t) => m(t.total) },
        { header: "Refunded", width: 12, align: "right", drop: 2, render: (t) => m(t.refunded) },
        { header: "Left", width: 12, align: "right", render: (t) => m(t.left) },
      ],
      b.tenders,
      width,
    ),
  );
  out.push({ text: "Items", tone: "heading" });
  if (b.items.length === 0) {
    out.push({ text: b.partial ? "  none yet: the payment is still being taken" : "  none", tone: "muted" });
  } else {
    out.push(
      ...table(
        [
          { header: "Qty", width: 3, align: "right", render: (i: (typeof b.items)[number]) => String(i.quantity) },
          { header: "Item", width: 10, flex: 1, render: (i) => i.name },
          { header: "SKU", width: 12, drop: 2, render: (i) => i.sku },
          { header: "Total", width: 12, align: "right", render: (i) => m(i.total) },
        ],
        b.items,
        width,
      ),
    );
  }
  out.push({ text: "Totals", tone: "heading" });
  out.push(
    ...table(
      [
        { header: "", width: 10, flex: 1, render: (r: [string, number]) => r[0] },
        { header: "", width: 14, align: "right", render: (r) => m(r[1]) },
      ],
      [
        ["Sales", b.gross],
        ["Discounts", -b.discount],
        ["Tax", b.tax],
        ["Tips", b.tip],
        ["Collected", b.collected],
        ["Processing fees", -b.fees],
        ["Refunded", -b.refunded],
        ["Net", b.net],
        ["Left to refund", b.left],
      ],
      width,
    ).slice(1),
  );
  out.push({ text: `Refunds against it (${b.refunds.length})`, tone: "heading" });
  if (b.refunds.length === 0) out.push({ text: "  none", tone: "muted" });
  else {
    out.push(
      ...table(
        [
          {
            header: "When",
            width: 16,
            render: (r: (typeof b.refunds)[number]) => localDateTime(r.at, zone(places, p.location_id)),
          },
          { header: "Amount", width: 12, align: "right", render: (r) => m(r.amount) },
          { header: "Tender", width: 10, drop: 2, render: (r) => r.tender ?? (b.split ? "all" : "") },
          { header: "Reason", width: 8, flex: 1, render: (r) => r.reason },
        ],
        b.refunds,
        width,
      ),
    );
  }
  return out;
}

/** A settlement: its entries, the sums by kind, and whether they add up to its total. */
export function settlementLines(s: Located<V1Settlement>, places: Places, width: number): DetailLine[] {
  const c = checkSettlement(s);
  const m = (n: number) => formatMoney({ amount: n, currency: c.currency });
  const at = localDateTime(s.initiated_at, zone(places, s.location_id));
  const status = SETTLEMENT_STATUS_LABELS[s.status ?? ""] ?? s.status ?? "";
  const out: DetailLine[] = [
    ...para(`Settlement ${status}, initiated ${at}: total ${m(c.total)}`, width, "heading"),
    ...para(settlementVerdict(c), width, c.addsUp ? "good" : "bad"),
    { text: `Entries (${c.lines.length})`, tone: "heading" },
    ...table(
      [
        { header: "Entry", width: 10, flex: 1, render: (l: SettlementCheck["lines"][number]) => l.label },
        { header: "Amount", width: 11, align: "right", drop: 2, render: (l) => m(l.amount) },
        { header: "Fee", width: 9, align: "right", drop: 1, render: (l) => m(l.fee) },
        { header: "Adds", width: 11, align: "right", render: (l) => m(c.amountsAlone ? l.amount : l.net) },
        { header: "Payment", width: 22, drop: 3, render: (l) => l.paymentId },
      ],
      c.lines,
      width,
    ),
    { text: "By kind", tone: "heading" },
    ...c.byKind.map((k) => ({ text: `  ${k.label} ×${k.count}: ${m(k.net)}` })),
  ];
  return out;
}

const v1Money = (m: V1Money | undefined) =>
  m?.amount === undefined ? "—" : formatMoney({ amount: m.amount, currency: m.currency_code ?? "USD" });

/** An order: its state, buyer, money, notes, history, and what can be done with it now. */
export function orderLines(o: Located<V1Order>, places: Places, width: number): DetailLine[] {
  const state = o.state ?? "PENDING";
  const tz = zone(places, o.location_id);
  // As the customers screen writes numbers: the store's country's own way, others internationally.
  const saved = o.recipient_phone_number;
  const phone = saved ? showPhone(saved, places.countries?.get(o.location_id ?? "")) : undefined;
  const out: DetailLine[] = [
    ...para(`Order ${ORDER_STATE_LABELS[state]}, placed ${localDateTime(o.created_at, tz)}`, width, "heading"),
    ...para(`Buyer: ${[o.recipient_name, o.buyer_email, phone].filter(Boolean).join(" · ")}`, width),
    ...para(
      `Subtotal ${v1Money(o.subtotal_money)}, discount ${v1Money(o.total_discount_money)}, shipping ${v1Money(o.total_shipping_money)}, tax ${v1Money(o.total_tax_money)}: total ${v1Money(o.total_price_money)}`,
      width,
    ),
  ];
  for (const n of orderNotes(o)) out.push(...para(`${n.label}: ${n.note}`, width, "muted"));
  out.push({ text: "History", tone: "heading" });
  for (const h of o.order_history ?? []) {
    out.push({ text: `  ${localDateTime(h.created_at, tz)}  ${h.action ? ORDER_HISTORY_LABELS[h.action] : ""}` });
  }
  if ((o.order_history ?? []).length === 0) out.push({ text: "  not read yet", tone: "muted" });
  const actions = allowedOrderActions(o).map((a) => ORDER_ACTION_LABELS[a].toLowerCase());
  out.push(
    ...para(
      actions.length ? `It can now be: ${actions.join(", ")}.` : "Nothing more can be done with it.",
      width,
      "muted",
    ),
  );
  return out;
}

const linesCache = new WeakMap<object, { width: number; lines: DetailLine[] }>();

/** Where records were read, for their times and location names. */
export function placesOf(s: Pick<LoadedState, "locations" | "locationId">): Places {
  const names = new Map(s.locations.map((l) => [l.id ?? "", l.name ?? l.id ?? ""]));
  const zones = new Map(s.locations.map((l) => [l.id ?? "", l.timezone ?? "UTC"]));
  const countries = new Map(s.locations.map((l) => [l.id ?? "", l.country ?? ""]));
  const here = s.locations.find((l) => l.id === s.locationId);
  return { names, zones, countries, timeZone: here?.timezone ?? "UTC" };
}

/** The open record's lines at a width (none while it is being read); the same array for the same record and width. */
export function detailLinesOf(s: Pick<LoadedState, "v1" | "locations" | "locationId">, width: number): DetailLine[] {
  const { detail, record } = s.v1;
  if (!detail || !record) return [];
  const cached = linesCache.get(record);
  if (cached && cached.width === width) return cached.lines;
  const places = placesOf(s);
  const lines =
    detail.kind === "payment"
      ? paymentLines(record as Located<V1Payment>, places, width)
      : detail.kind === "settlement"
        ? settlementLines(record as Located<V1Settlement>, places, width)
        : orderLines(record as Located<V1Order>, places, width);
  linesCache.set(record, { width, lines });
  return lines;
}
