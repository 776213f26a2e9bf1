import { reasonWords, shortGan, type WriteKind } from "../../../domain/gift-cards.js";
import { formatMoney } from "../../../domain/money.js";
import { selectLocation, useLoadedStore, useLoadedStoreApi } from "../../../state/index.js";
import { type GiftCardsForm, newWriteForm, reasonsOf, type WriteField, writeFields } from "../../../state/screens.js";
import { FormView, formHeight } from "../../components/FormView.js";
import type { FieldSpec } from "../../components/form.js";

/** Each field of a write's form, as the manager reads it. */
function fieldSpec(name: WriteField, currency: string): FieldSpec {
  switch (name) {
    case "amount":
      return { name, label: "Amount", hint: `in ${currency}, e.g. 25.00` };
    case "reason":
      return { name, label: "Reason", hint: "one above, or its first letters" };
    case "paidWith":
      return { name, label: "Paid with", hint: "cash, or payment ids (a, b)" };
    case "orderId":
      return { name, label: "Or order", hint: "sold in an order: its id" };
    case "lineItem":
      return { name, label: "Line item", hint: "the order's gift card line" };
  }
}

/** A write's fields. */
export function writeFieldSpecs(kind: WriteKind, currency: string): FieldSpec[] {
  return writeFields(kind).map((f) => fieldSpec(f, currency));
}

/** Rows the open form takes under the card. */
export function giftCardsFormHeight(form: GiftCardsForm): number {
  if (form.kind === "range") return formHeight(RANGE_FIELDS, false);
  if (form.kind === "write") return formHeight(writeFieldSpecs(form.form.kind, "USD"), true);
  return 0;
}

const TITLES: Readonly<Record<WriteKind, string>> = {
  activate: "Activate",
  load: "Load",
  "adjust-up": "Add to",
  "adjust-down": "Take off",
  clear: "Clear the balance of",
  deactivate: "Deactivate",
  block: "Block",
  unblock: "Unblock",
};

/** The write form of the card on screen: enter asks the one confirmation (balance before → after). */
export function WriteFormView({ kind }: { kind: WriteKind }) {
  const store = useLoadedStoreApi();
  const card = useLoadedStore((s) => s.giftCards.card);
  const currency = useLoadedStore((s) => selectLocation(s)?.currency ?? "USD");
  const gan = card.kind === "found" ? (card.card.gan ?? "") : card.kind === "unknown" ? card.gan : "";
  const balance = card.kind === "found" ? ` (holds ${formatMoney(card.card.balance_money)})` : "";
  const reasons = reasonsOf(kind);
  const note =
    reasons.length === 1
      ? "The one reason the interface takes is filled in."
      : reasons.length > 1
        ? reasons.map((r) => reasonWords(r)).join(" · ")
        : card.kind === "unknown"
          ? "Not registered yet: it is registered as a physical card with this number, then activated."
          : `Sold outside an order: say how it was paid. Amounts in ${currency}.`;
  const initial = newWriteForm(kind);
  return (
    <FormView
      title={`${TITLES[kind]} card ${shortGan(gan)}${balance}`}
      note={note}
      fields={writeFieldSpecs(kind, currency)}
      initial={{
        amount: initial.amount,
        reason: initial.reason,
        paidWith: initial.paidWith,
        orderId: initial.orderId,
        lineItem: initial.lineItem,
      }}
      onSubmit={(v) => store.getState().submitGiftCardWrite(v)}
      onCancel={() => store.getState().giftCardsEvent({ type: "close-form" })}
      resetKey={`${kind}|${gan}`}
    />
  );
}

/** The days form's fields. */
export const RANGE_FIELDS: FieldSpec[] = [
  { name: "from", label: "From", hint: "YYYY-MM-DD" },
  { name: "to", label: "To", hint: "YYYY-MM-DD (empty: the same day)" },
];

/** Picks the day, or a range of days, of the activity view. */
export function DaysFormView() {
  const store = useLoadedStoreApi();
  const form = useLoadedStore((s) => s.giftCards.form);
  const from = form.kind === "range" ? form.from : "";
  const to = form.kind === "range" ? form.to : "";
  return (
    <FormView
      title="Gift card activity of which days?"
      fields={RANGE_FIELDS}
      initial={{ from, to: to === from ? "" : to }}
      onSubmit={(v) => store.getState().setGiftCardDays(v.from ?? "", v.to ?? "")}
      onCancel={() => store.getState().giftCardsEvent({ type: "close-form" })}
    />
  );
}
