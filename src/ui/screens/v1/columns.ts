import { localDateTime } from "../../../domain/cash-drawers.js";
import { formatAmount } from "../../../domain/money.js";
import { SETTLEMENT_STATUS_LABELS, tendersSummary } from "../../../domain/v1-records.js";
import type { V1Money, V1Order, V1Payment, V1Refund, V1Settlement } from "../../../spec/generated/types.js";
import type { Located } from "../../../state/v1-load.js";
import type { Column } from "../../components/columns.js";

/** Where the rows were read: location names, their zones, and whether the list spans them all. */
export interface RowPlaces {
  names: ReadonlyMap<string, string>;
  zones: ReadonlyMap<string, string>;
  /** The selected location's zone, for rows whose location is not known. */
  timeZone: string;
  all: boolean;
}

const amount = (m: V1Money | undefined, abs = false) =>
  m?.amount === undefined ? "—" : formatAmount(abs ? Math.abs(m.amount) : m.amount, m.currency_code ?? "USD");

/** When, in the zone of the location the record belongs to: `2026-06-14 15:02`. */
const whenColumn = <R extends { location_id?: string }>(
  header: string,
  at: (r: R) => string | undefined,
  p: RowPlaces,
): Column<R> => ({
  header,
  width: 16,
  render: (r) => localDateTime(at(r), (r.location_id && p.zones.get(r.location_id)) || p.timeZone),
});

/**
 * The location column, shown only when the list spans every location, and then never dropped:
 * two stores' rows look alike without it.
 */
const placeColumns = <R extends { location_id?: string }>(p: RowPlaces): Column<R>[] =>
  p.all
    ? [
        {
          header: "Location",
          width: 12,
          render: (r) => (r.location_id ? (p.names.get(r.location_id) ?? r.location_id) : "—"),
        },
      ]
    : [];

/** A payment's columns: when, tenders, collected, fees, refunded; partial ones marked. */
export function paymentColumns(p: RowPlaces): Column<Located<V1Payment>>[] {
  return [
    whenColumn("Taken", (r) => r.created_at, p),
    ...placeColumns<Located<V1Payment>>(p),
    { header: "Tenders", width: 10, flex: 1, render: (r) => tendersSummary(r) },
    { header: "Collected", width: 9, align: "right", render: (r) => amount(r.total_collected_money) },
    { header: "Fees", width: 6, align: "right", drop: 2, render: (r) => amount(r.processing_fee_money, true) },
    {
      header: "Refunded",
      width: 8,
      align: "right",
      drop: 1,
      render: (r) => ((r.refunded_money?.amount ?? 0) === 0 ? "" : amount(r.refunded_money, true)),
      color: (_r, theme) => theme.warn,
    },
    {
      header: "",
      width: 7,
      render: (r) => (r.is_partial ? "partial" : ""),
      color: (_r, theme) => theme.warn,
    },
  ];
}

/** A refund's columns: when, full or partial, the amount, the reason. */
export function refundColumns(p: RowPlaces): Column<Located<V1Refund>>[] {
  return [
    whenColumn("Refunded", (r) => r.created_at, p),
    ...placeColumns<Located<V1Refund>>(p),
    { header: "Type", width: 7, render: (r) => (r.type === "FULL" ? "full" : "partial") },
    { header: "Amount", width: 9, align: "right", render: (r) => amount(r.refunded_money, true) },
    { header: "Reason", width: 8, flex: 1, render: (r) => r.reason ?? "" },
    { header: "Payment or tender", width: 22, drop: 2, render: (r) => r.payment_id ?? "" },
  ];
}

/** A settlement's columns: when it was initiated, sent or failed, its total. */
export function settlementColumns(p: RowPlaces): Column<Located<V1Settlement>>[] {
  return [
    whenColumn("Initiated", (r) => r.initiated_at, p),
    ...placeColumns<Located<V1Settlement>>(p),
    {
      header: "Status",
      width: 6,
      render: (r) => SETTLEMENT_STATUS_LABELS[r.status ?? ""] ?? r.status ?? "",
      color: (r, theme) => (r.status === "FAILED" ? theme.bad : undefined),
    },
    { header: "Total", width: 10, align: "right", render: (r) => amount(r.total_money) },
    { header: "Settlement", width: 10, flex: 1, drop: 2, render: (r) => r.id ?? "" },
  ];
}

/** An order's columns: when it was placed, its state, the buyer, the total. */
export function orderColumns(p: RowPlaces): Column<Located<V1Order>>[] {
  return [
    whenColumn("Placed", (r) => r.created_at, p),
    ...placeColumns<Located<V1Order>>(p),
    {
      header: "State",
      width: 9,
      render: (r) => (r.state ?? "").toLowerCase(),
      color: (r, theme) => (r.state === "OPEN" || r.state === "PENDING" ? theme.warn : undefined),
    },
    { header: "Buyer", width: 8, flex: 1, render: (r) => r.recipient_name ?? r.buyer_email ?? "" },
    { header: "Total", width: 9, align: "right", render: (r) => amount(r.total_price_money) },
    { header: "Order", width: 22, drop: 2, render: (r) => r.id ?? "" },
  ];
}
