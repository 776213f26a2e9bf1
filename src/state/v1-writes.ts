// The old transactions screen's writes: a payment's refund and an online-store order's update.
// Each is checked against the interface's rules (the machine's forms), asked through the one
// confirmation, then sent through runWrite; the service's answer goes back into the machine.
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
  v1RefundRequest,
} from "../domain/v1-rules.js";
import type { V1Order, V1Payment, V1UpdateOrderRequest } from "../spec/generated/types.js";
import { problemOf } from "./errors.js";
import {
  createV1Refund,
  isRetired,
  type Located,
  RETIRED_WHAT,
  retiredText,
  retrieveV1Payment,
  updateV1Order,
} from "./v1-load.js";
import { checkRefundForm, type OrderActionForm } from "./v1-machine.js";
import type { V1Context, V1Slice } from "./v1-slice.js";

/** A failed write's words for the form: a retired operation (said once in the view too), or the problem. */
function writeFailure(c: V1Context, operation: string, cause: unknown, headline: string): string {
  if (!isRetired(cause)) return headline;
  const text = retiredText(cause, RETIRED_WHAT[operation] ?? operation);
  c.dispatch({ type: "retired", operation, text });
  return text;
}

/** Sends a refund: the same refund again (after a lost answer) under its key, a changed one under a new key. */
function refundSender(c: V1Context) {
  let attempt: { body: string; key: string } | undefined;
  const send = async (p: Located<V1Payment>, draft: V1RefundDraft) => {
    const unkeyed = JSON.stringify(v1RefundRequest(p, draft, ""));
    if (attempt?.body !== unkeyed) attempt = { body: unkeyed, key: c.deps.newIdempotencyKey() };
    const body = v1RefundRequest(p, draft, attempt.key);
    const locationId = p.location_id ?? p.merchant_id ?? c.get().locationId ?? "";
    const res = await c
      .get()
      .runWrite(`v1-refund:${p.id}`, "Refunding the payment", () => createV1Refund(c.deps.client, locationId, body));
    if (!res.ok) {
      if (res.error.kind !== "failed") return;
      const problem = writeFailure(c, "V1CreateRefund", res.error.cause, res.error.problem.headline);
      c.dispatch({ type: "refund-problem", problem });
      return;
    }
    attempt = undefined;
    const refunded = formatMoney({
      amount: Math.abs(res.value.refunded_money?.amount ?? 0),
      currency: res.value.refunded_money?.currency_code ?? "USD",
    });
    const updated = await c
      .get()
      .runRead("Reading the payment again", () =>
        retrieveV1Payment(c.deps.client, { locationIds: [locationId], all: false }, p.id ?? ""),
      );
    c.dispatch({ type: "refunded", payment: updated ?? p });
    c.get().setStatus({
      screen: "v1",
      kind: "info",
      text: `Refunded ${refunded} of the payment taken ${localDate(p.created_at ?? 0, c.tz())}.`,
      details: `V1CreateRefund · payment ${p.id} · key ${body.request_idempotence_key}`,
    });
  };
  return { send, forget: () => (attempt = undefined) };
}

/** Sends an order action with its note (and, to complete, the tracking number). */
async function sendOrderAction(c: V1Context, order: Located<V1Order>, form: OrderActionForm): Promise<void> {
  const body: V1UpdateOrderRequest = {
    action: form.action,
    ...(form.note.trim() ? { [ORDER_NOTE_FIELD[form.action]]: form.note.trim() } : {}),
    ...(form.action === "COMPLETE" && form.tracking.trim() ? { shipped_tracking_number: form.tracking.trim() } : {}),
  };
  const locationId = order.location_id ?? c.get().locationId ?? "";
  const res = await c
    .get()
    .runWrite(`v1-order:${order.id}`, "Updating the order", () =>
      updateV1Order(c.deps.client, locationId, form.orderId, body),
    );
  if (!res.ok) {
    if (res.error.kind !== "failed") return;
    const problem = writeFailure(c, "V1UpdateOrder", res.error.cause, problemOf(res.error.cause).headline);
    c.dispatch({ type: "order-problem", problem });
    return;
  }
  c.dispatch({ type: "order-updated", order: { ...res.value, location_id: locationId } });
  const who = order.recipient_name ? ` for ${order.recipient_name}` : "";
  c.get().setStatus({
    screen: "v1",
    kind: "info",
    text: `The order${who} is now ${ORDER_STATE_LABELS[res.value.state ?? "PENDING"]}.`,
    details: `V1UpdateOrder ${form.action} · order ${order.id}`,
  });
}

/** The refund and the order actions: their forms, checks, questions and sends. */
export function v1Writes(
  c: V1Context,
): Pick<V1Slice, "openV1Refund" | "submitV1Refund" | "openV1OrderAction" | "submitV1OrderAction"> {
  const refunds = refundSender(c);
  return {
    openV1Refund() {
      const p = c.currentPayment();
      if (!p) {
        c.get().setStatus({ screen: "v1", kind: "rule", text: "Open or select a payment to refund first." });
        return;
      }
      refunds.forget();
      c.dispatch({ type: "open-refund", payment: p, now: c.deps.clock.now(), timeZone: c.tz() });
    },

    submitV1Refund() {
      const form = c.get().v1.form;
      const p = c.currentPayment();
      if (form.kind !== "refund" || !p) return;
      const checked = checkRefundForm(form, p, c.deps.clock.now(), c.tz());
      if (!checked.ok) {
        c.dispatch({ type: "refund-problem", problem: checked.problem, row: checked.row });
        return;
      }
      // Irreversible (a card refund cannot be taken back): enter on the question means no.
      c.get().ask({
        message: refundConfirmation(p, checked.draft),
        risky: true,
        yes: "Refund",
        onYes: () => refunds.send(p, checked.draft),
      });
    },

    openV1OrderAction(action) {
      const order = c.currentOrder();
      if (!order) {
        c.get().setStatus({ screen: "v1", kind: "rule", text: "Open or select an order first." });
        return;
      }
      c.dispatch({ type: "open-order-action", order, action });
    },

    submitV1OrderAction() {
      const form = c.get().v1.form;
      const order = c.currentOrder();
      if (form.kind !== "order-action" || !order || order.id !== form.orderId) return;
      const problem = checkOrderAction(order, form.action);
      if (problem) {
        c.dispatch({ type: "order-problem", problem });
        return;
      }
      c.get().ask({
        message: orderActionQuestion(order, form.action),
        // Completing is what the order is for; canceling or refunding it cannot be taken back.
        risky: form.action !== "COMPLETE",
        yes: ORDER_ACTION_LABELS[form.action].split(" ")[0] ?? "Yes",
        onYes: () => sendOrderAction(c, order, form),
      });
    },
  };
}
