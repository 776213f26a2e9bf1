// The old transactions (V1) screen's I/O: reads through runRead, the refund and the order update
// through runWrite, one idempotency key per logical refund. What the screen shows and which rules
// a form breaks is the pure machine's (v1-machine.ts); this slice feeds it the service's answers.
import { formatMoney } from "../domain/money.js";
import { localDate } from "../domain/time.js";
import {
  checkOrderAction,
  ORDER_ACTION_LABELS,
  ORDER_NOTE_FIELD,
  ORDER_STATE_LABELS,
  orderActionQuestion,
  refundConfirmation,
  type V1RefundDraft,
  v1RangeTimes,
  v1RefundRequest,
} from "../domain/v1-rules.js";
import type { V1Order, V1Payment, V1UpdateOrderRequest } from "../spec/generated/types.js";
import { problemOf } from "./errors.js";
import { timeZoneOf } from "./shell-slice.js";
import type { SliceCreator } from "./store.js";
import {
  createV1Refund,
  isNotFound,
  isRetired,
  LIST_OPERATION,
  type Located,
  listV1,
  retiredText,
  retrieveV1Order,
  retrieveV1Payment,
  retrieveV1Settlement,
  updateV1Order,
  type V1ListQuery,
} from "./v1-load.js";
import {
  checkRefundForm,
  initialV1State,
  type OrderActionForm,
  queryKey,
  V1_LIST_NAMES,
  type V1Detail,
  type V1Event,
  type V1State,
  type V1View,
  v1Reducer,
} from "./v1-machine.js";
import { selectedId } from "./view-slice.js";

/** The old transactions slice: the machine's state, and the reads and writes that feed it. */
export interface V1Slice {
  v1: V1State;
  /** Applies one event of the screen (a key, a form field) to its machine. */
  v1Dispatch(event: V1Event): void;
  /** Reads the shown list unless it was read for these filters already (`force`: read again). */
  loadV1(options?: { quiet?: boolean; force?: boolean }): Promise<void>;
  /** Shows another list, reading it if needed. */
  showV1View(view: V1View): Promise<void>;
  /** Applies the range form's dates (when they keep the rules) and reads again. */
  submitV1Range(): Promise<void>;
  /** Opens a record in full: a payment, a settlement with its entries, an order with its history. */
  openV1Detail(detail: V1Detail): Promise<void>;
  /**
   * Opens the payment a refund was made against. A refund of a split-tender payment names the
   * tender, not the payment: that payment is looked for among the payments already read.
   */
  openV1RefundedPayment(paymentOrTenderId: string): Promise<void>;
  /** Opens the refund form on the payment open in detail (or selected in the list). */
  openV1Refund(): void;
  /** Checks the refund form; when it keeps the rules, asks to confirm, then sends it. */
  submitV1Refund(): void;
  /** The payment a refund would be of (open, or selected in the list), and the order an action would change. */
  v1Current(): { payment: Located<V1Payment> | undefined; order: Located<V1Order> | undefined };
  /** Opens the form for an order action on the order open in detail. */
  openV1OrderAction(action: V1UpdateOrderRequest["action"]): void;
  /** Checks the order action against the order's state, asks to confirm, then sends it with its note. */
  submitV1OrderAction(): void;
}

/** What the screen says when the service no longer offers a list or a record. */
const WHAT: Readonly<Record<string, string>> = {
  V1ListPayments: "old payments",
  V1ListRefunds: "old refunds",
  V1ListSettlements: "settlements",
  V1ListOrders: "online-store orders",
  V1RetrievePayment: "old payments",
  V1RetrieveSettlement: "settlements",
  V1RetrieveOrder: "online-store orders",
  V1CreateRefund: "refunds of old payments",
  V1UpdateOrder: "changes to online-store orders",
};

/** Builds the old transactions slice. */
export const createV1Slice: SliceCreator<V1Slice> = (set, get, deps) => {
  const tz = () => timeZoneOf(get());
  const dispatch = (event: V1Event) => set((s) => ({ v1: v1Reducer(s.v1, event) }));
  // Each read carries a ticket; an answer that arrives after a newer read began is dropped.
  let listTicket = 0;
  let detailTicket = 0;
  // One logical refund, one key: a retry of the same refund (after a lost answer) re-sends it.
  let refundAttempt: { body: string; key: string } | undefined;

  deps.events.on("location-changed", () => {
    listTicket++;
    detailTicket++;
    dispatch({ type: "location-changed" });
  });

  /** Where the lists read: the selected location, or every location. */
  const where = (): Pick<V1ListQuery, "locationIds" | "all"> => {
    const s = get();
    if (s.v1.filters.all) return { locationIds: s.locations.map((l) => l.id ?? ""), all: true };
    return { locationIds: s.locationId ? [s.locationId] : [], all: false };
  };

  /** A read that says once, in the view, that the service no longer offers it; other failures go up. */
  const readOrRetire = async <T>(operation: string, read: () => Promise<T>): Promise<T | "retired"> => {
    try {
      return await read();
    } catch (err) {
      if (!isRetired(err)) throw err;
      dispatch({ type: "retired", operation, text: retiredText(err, WHAT[operation] ?? operation) });
      return "retired";
    }
  };

  /**
   * The record a form works on: the one open in detail (of that kind), else the one the form was
   * opened on, else the one selected in the list.
   */
  const current = <T extends { id?: string }>(
    kind: "payment" | "order",
    list: readonly T[],
    formId: string | undefined,
  ): T | undefined => {
    const v = get().v1;
    if (v.detail?.kind === kind) return v.record?.id === v.detail.id ? (v.record as unknown as T) : undefined;
    const listName = kind === "payment" ? V1_LIST_NAMES.payments : V1_LIST_NAMES.orders;
    const id =
      formId ??
      selectedId(
        get(),
        listName,
        list.map((r) => r.id ?? ""),
      );
    return list.find((r) => r.id === id);
  };
  const currentPayment = (): Located<V1Payment> | undefined => {
    const f = get().v1.form;
    return current("payment", get().v1.lists.payments ?? [], f.kind === "refund" ? f.paymentId : undefined);
  };
  const currentOrder = (): Located<V1Order> | undefined => {
    const f = get().v1.form;
    return current("order", get().v1.lists.orders ?? [], f.kind === "order-action" ? f.orderId : undefined);
  };

  const sendRefund = async (p: Located<V1Payment>, draft: V1RefundDraft) => {
    const unkeyed = JSON.stringify(v1RefundRequest(p, draft, ""));
    if (refundAttempt?.body !== unkeyed) refundAttempt = { body: unkeyed, key: deps.newIdempotencyKey() };
    const body = v1RefundRequest(p, draft, refundAttempt.key);
    const locationId = p.location_id ?? p.merchant_id ?? get().locationId ?? "";
    const res = await get().runWrite(`v1-refund:${p.id}`, "Refunding the payment", () =>
      createV1Refund(deps.client, locationId, body),
    );
    if (!res.ok) {
      if (res.error.kind === "failed" && isRetired(res.error.cause)) {
        const text = retiredText(res.error.cause, WHAT.V1CreateRefund ?? "refunds");
        dispatch({ type: "retired", operation: "V1CreateRefund", text });
        dispatch({ type: "refund-problem", problem: text });
      } else if (res.error.kind === "failed") {
        dispatch({ type: "refund-problem", problem: res.error.problem.headline });
      }
      return;
    }
    refundAttempt = undefined;
    const refunded = Math.abs(res.value.refunded_money?.amount ?? 0);
    const currency = res.value.refunded_money?.currency_code ?? "USD";
    const updated = await get().runRead("Reading the payment again", () =>
      retrieveV1Payment(deps.client, { locationIds: [locationId], all: false }, p.id ?? ""),
    );
    dispatch({ type: "refunded", payment: updated ?? p });
    get().setStatus({
      kind: "info",
      text: `Refunded ${formatMoney({ amount: refunded, currency })} of the payment taken ${localDate(p.created_at ?? 0, tz())}.`,
      details: `V1CreateRefund · payment ${p.id} · key ${body.request_idempotence_key}`,
    });
  };

  const sendOrderAction = async (order: Located<V1Order>, form: OrderActionForm) => {
    const body: V1UpdateOrderRequest = {
      action: form.action,
      ...(form.note.trim() ? { [ORDER_NOTE_FIELD[form.action]]: form.note.trim() } : {}),
      ...(form.action === "COMPLETE" && form.tracking.trim() ? { shipped_tracking_number: form.tracking.trim() } : {}),
    };
    const locationId = order.location_id ?? get().locationId ?? "";
    const res = await get().runWrite(`v1-order:${order.id}`, "Updating the order", () =>
      updateV1Order(deps.client, locationId, form.orderId, body),
    );
    if (!res.ok) {
      if (res.error.kind !== "failed") return;
      const cause = res.error.cause;
      const problem = isRetired(cause) ? retiredText(cause, WHAT.V1UpdateOrder ?? "orders") : problemOf(cause).headline;
      if (isRetired(cause)) dispatch({ type: "retired", operation: "V1UpdateOrder", text: problem });
      dispatch({ type: "order-problem", problem });
      return;
    }
    dispatch({ type: "order-updated", order: { ...res.value, location_id: locationId } });
    get().setStatus({
      kind: "info",
      text: `The order${order.recipient_name ? ` for ${order.recipient_name}` : ""} is now ${ORDER_STATE_LABELS[res.value.state ?? "PENDING"]}.`,
      details: `V1UpdateOrder ${form.action} · order ${order.id}`,
    });
  };

  return {
    v1: initialV1State(localDate(deps.clock.now(), "UTC")),

    v1Dispatch: dispatch,

    async loadV1(options = {}) {
      // The default range follows today at the location (it moves on at midnight there).
      dispatch({ type: "today", today: localDate(deps.clock.now(), tz()) });
      const s = get();
      const view = s.v1.view;
      const key = queryKey(view, s.v1.filters, s.locationId);
      const operation = LIST_OPERATION[view];
      if (!options.force && (s.v1.readFor[view] === key || s.v1.retired[operation])) return;
      if (!s.v1.filters.all && !s.locationId) return;
      const ticket = ++listTicket;
      const times = view === "orders" ? {} : v1RangeTimes(s.v1.filters, tz());
      const query: V1ListQuery = {
        ...where(),
        ...times,
        order: "DESC",
        status: s.v1.filters.status === "ALL" ? undefined : s.v1.filters.status,
        includePartial: s.v1.filters.includePartial,
      };
      const label = `Reading ${WHAT[operation]}`;
      const records = await get().runRead(
        label,
        () =>
          readOrRetire(operation, () =>
            listV1(deps.client, view, query, ({ pages, records: n }) => {
              if (ticket === listTicket && !options.quiet)
                set({ loading: `${label}: ${pages} page${pages === 1 ? "" : "s"}, ${n} records` });
            }),
          ),
        options,
      );
      if (records === undefined || records === "retired" || ticket !== listTicket) return;
      dispatch({ type: "list-read", view, key, records: records as never });
    },

    async showV1View(view) {
      dispatch({ type: "show-view", view });
      await get().loadV1();
    },

    async submitV1Range() {
      const before = get().v1.filters;
      dispatch({ type: "submit-range", today: localDate(deps.clock.now(), tz()) });
      if (get().v1.filters !== before) await get().loadV1();
    },

    async openV1Detail(detail) {
      dispatch({ type: "open-detail", detail });
      const ticket = ++detailTicket;
      const q = where();
      const operation = { payment: "V1RetrievePayment", settlement: "V1RetrieveSettlement", order: "V1RetrieveOrder" }[
        detail.kind
      ];
      const record = await get().runRead(`Reading the ${detail.kind}`, () =>
        readOrRetire(operation, (): Promise<NonNullable<V1State["record"]>> => {
          // A record of the list knows its location; read it there (orders take no `me`).
          const listed = listedLocation(get().v1, detail);
          const at = listed ? { locationIds: [listed], all: false } : q;
          if (detail.kind === "payment") return retrieveV1Payment(deps.client, at, detail.id);
          if (detail.kind === "settlement") return retrieveV1Settlement(deps.client, at, detail.id);
          return retrieveV1Order(deps.client, at, detail.id);
        }),
      );
      if (record === undefined || record === "retired" || ticket !== detailTicket) return;
      dispatch({ type: "record-read", record });
    },

    v1Current: () => ({ payment: currentPayment(), order: currentOrder() }),

    async openV1RefundedPayment(id) {
      const owner = get().v1.lists.payments?.find((p) => p.id === id || p.tender?.some((t) => t.id === id));
      if (owner?.id) return get().openV1Detail({ kind: "payment", id: owner.id });
      const answer = await get().runRead("Looking for the payment", async () => ({
        found: await retrieveV1Payment(deps.client, where(), id).catch((err: unknown) => {
          if (isNotFound(err)) return undefined;
          throw err;
        }),
      }));
      if (!answer) return;
      const found = answer.found;
      if (!found) {
        get().setStatus({
          kind: "rule",
          text: "This refund went back to one tender of a split payment; that payment is not among the payments read. Read Payments for the days before the refund (p, then d) and open it there.",
          details: `tender ${id}`,
        });
        return;
      }
      dispatch({ type: "open-detail", detail: { kind: "payment", id: found.id ?? id } });
      dispatch({ type: "record-read", record: found });
    },

    openV1Refund() {
      const p = currentPayment();
      if (!p) {
        get().setStatus({ kind: "rule", text: "Open or select a payment to refund first." });
        return;
      }
      refundAttempt = undefined;
      dispatch({ type: "open-refund", payment: p, now: deps.clock.now(), timeZone: tz() });
    },

    submitV1Refund() {
      const form = get().v1.form;
      const p = currentPayment();
      if (form.kind !== "refund" || !p) return;
      const checked = checkRefundForm(form, p, deps.clock.now(), tz());
      if (!checked.ok) {
        dispatch({ type: "refund-problem", problem: checked.problem });
        return;
      }
      // Irreversible (a card refund cannot be taken back): enter on the question means no.
      get().ask({
        message: refundConfirmation(p, checked.draft),
        risky: true,
        yes: "Refund",
        onYes: () => sendRefund(p, checked.draft),
      });
    },

    openV1OrderAction(action) {
      const order = currentOrder();
      if (!order) {
        get().setStatus({ kind: "rule", text: "Open or select an order first." });
        return;
      }
      dispatch({ type: "open-order-action", order, action });
    },

    submitV1OrderAction() {
      const form = get().v1.form;
      const order = currentOrder();
      if (form.kind !== "order-action" || !order || order.id !== form.orderId) return;
      const problem = checkOrderAction(order, form.action);
      if (problem) {
        dispatch({ type: "order-problem", problem });
        return;
      }
      get().ask({
        message: orderActionQuestion(order, form.action),
        // Completing is what the order is for; canceling or refunding it cannot be taken back.
        risky: form.action !== "COMPLETE",
        yes: ORDER_ACTION_LABELS[form.action].split(" ")[0] ?? "Yes",
        onYes: () => sendOrderAction(order, form),
      });
    },
  };
};

/** The location a listed record was read at, when the list knows it. */
function listedLocation(v: V1State, d: V1Detail): string | undefined {
  const list = d.kind === "payment" ? v.lists.payments : d.kind === "settlement" ? v.lists.settlements : v.lists.orders;
  return (list as { id?: string; location_id?: string }[] | undefined)?.find((r) => r.id === d.id)?.location_id;
}
