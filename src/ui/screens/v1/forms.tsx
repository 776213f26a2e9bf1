import { Box } from "ink";
import { useState } from "react";
import { formatMoney } from "../../../domain/money.js";
import {
  describeV1Range,
  isSplitTender,
  ORDER_ACTION_LABELS,
  paymentCurrency,
  paymentLeft,
  tenderLabel,
  tenderLeft,
  V1_DEFAULT_DAYS,
  V1_EARLIEST_DATE,
} from "../../../domain/v1-rules.js";
import type { V1Tender } from "../../../spec/generated/types.js";
import { useLoadedStore, useLoadedStoreApi } from "../../../state/index.js";
import { rangeFormProblem } from "../../../state/range-form.js";
import { type OrderActionForm, type RefundForm, type RefundRow, refundRows } from "../../../state/v1-machine.js";
import { EDITED_FIELD_LINES, FormView, formHeight, isLongValue, useValueRoom } from "../../components/FormView.js";
import { type FieldSpec, typedOverSelection } from "../../components/form.js";
import { TextField } from "../../components/TextField.js";
import { Txt } from "../../components/Txt.js";
import { useKeys } from "../../keyboard.js";
import { useHasFocus } from "../../shell.js";
import { useTheme } from "../../theme.js";

/** The range form's fields. */
export const RANGE_FIELDS: FieldSpec[] = [
  { name: "from", label: "From", hint: `YYYY-MM-DD, ${V1_EARLIEST_DATE} or later` },
  { name: "to", label: "To", hint: "YYYY-MM-DD, within a year (empty: today)" },
];

const noteFields = (complete: boolean): FieldSpec[] => [
  { name: "note", label: "Note", hint: "optional, kept with the order" },
  ...(complete ? [{ name: "tracking", label: "Tracking", hint: "optional shipment number" }] : []),
];

/** The refund form's labels' width. */
const REFUND_LABEL_WIDTH = 9;

/** The refund form's rows: border and title, its rows, and two lines for a problem or the keys. */
export function refundFormHeight(form: Pick<RefundForm, "mode">, split: boolean): number {
  // The reason being typed may go on over two more lines (see FieldRow).
  return 2 + 1 + refundRows(form, split).length + (EDITED_FIELD_LINES - 1) + 2;
}

/** Rows the open range or order form takes under the list. */
export function v1FormHeight(kind: string, action?: string): number {
  if (kind === "range") return formHeight(RANGE_FIELDS, true);
  if (kind === "order-action") return formHeight(noteFields(action === "COMPLETE"), true);
  return 0;
}

/** Which dates the payments, refunds and settlements are of: the interface's rules said before sending. */
export function V1RangeForm() {
  const store = useLoadedStoreApi();
  const filters = useLoadedStore((s) => s.v1.filters);
  const s = () => store.getState();
  return (
    <FormView
      title="Which days?"
      note={`At most one year, not before ${V1_EARLIEST_DATE}; now ${describeV1Range(filters).split(" (")[0]}. Empty from: the ${V1_DEFAULT_DAYS} days up to To.`}
      fields={RANGE_FIELDS}
      initial={{ from: filters.from, to: filters.to }}
      onSubmit={async (v) => {
        s().v1Dispatch({ type: "range-field", field: "from", value: v.from ?? "" });
        s().v1Dispatch({ type: "range-field", field: "to", value: v.to ?? "" });
        await s().submitV1Range();
        const form = s().v1.form;
        return form.kind === "range" ? rangeFormProblem(form) : undefined;
      }}
      onCancel={() => s().v1Dispatch({ type: "close-form" })}
    />
  );
}

/** The note (and, to complete, the tracking number) of an order action, then the question. */
export function V1OrderActionForm({ form }: { form: OrderActionForm }) {
  const store = useLoadedStoreApi();
  const s = () => store.getState();
  const order = useLoadedStore((st) => st.v1Current().order);
  const who = order?.recipient_name ?? order?.id ?? "";
  return (
    <FormView
      title={`${ORDER_ACTION_LABELS[form.action]}: the order for ${who}`}
      note={form.problem ?? "Enter asks before anything is sent."}
      fields={noteFields(form.action === "COMPLETE")}
      initial={{ note: form.note, tracking: form.tracking }}
      onSubmit={(v) => {
        s().v1Dispatch({ type: "order-field", field: "note", value: v.note ?? "" });
        s().v1Dispatch({ type: "order-field", field: "tracking", value: v.tracking ?? "" });
        s().submitV1OrderAction();
        const f = s().v1.form;
        return f.kind === "order-action" ? f.problem : undefined;
      }}
      onCancel={() => s().v1Dispatch({ type: "close-form" })}
    />
  );
}

/**
 * The refund form's keys: tab/↑/↓ between rows, ←/→ or space to change whole/part and the tender,
 * enter to check and ask, esc to cancel. Returns how a row's value is set, and whether the focused
 * text row's value is selected: moved to, it is, as in every form (src/ui/components/form.ts) —
 * what is typed replaces it, backspace empties it, an arrow lets go of it.
 */
function useRefundKeys(form: RefundForm, split: boolean, tenders: readonly V1Tender[], active: boolean) {
  const store = useLoadedStoreApi();
  const s = () => store.getState();
  const [selected, setSelected] = useState(false);
  const set = (field: "mode" | "tenderId" | "amount" | "reason", value: string) => {
    const typed = field === "amount" || field === "reason";
    const next = typed && selected ? typedOverSelection(form[field], value) : value;
    if (typed) setSelected(false);
    s().v1Dispatch({ type: "refund-field", field, value: next });
  };
  useKeys(
    (input, key) => {
      if (key.escape) s().v1Dispatch({ type: "close-form" });
      else if (key.return) {
        s().submitV1Refund();
        // A rule about the amount or the reason took the form to that row: its value selected, as in every form.
        const after = s().v1.form;
        if (after.kind === "refund" && (after.problemRow === "amount" || after.problemRow === "reason"))
          setSelected(true);
      } else if (key.tab || key.downArrow || key.upArrow) {
        const back = (key.tab && key.shift) || key.upArrow;
        s().v1Dispatch({ type: "refund-move", delta: back ? -1 : 1, split });
        setSelected(true);
      } else if (form.focus === "mode" && (key.leftArrow || key.rightArrow || input === " ")) {
        set("mode", form.mode === "full" ? "partial" : "full");
      } else if (form.focus === "tender" && (key.leftArrow || key.rightArrow || input === " ")) {
        const at = tenders.findIndex((t) => t.id === form.tenderId);
        const step = key.leftArrow ? -1 : 1;
        const next = at < 0 ? (step > 0 ? 0 : tenders.length - 1) : (at + step + tenders.length) % tenders.length;
        set("tenderId", tenders[next]?.id ?? "");
      }
      // The text rows take the typed keys themselves; nothing else leaves the form.
      return true;
    },
    { isActive: active },
  );
  return { set, selected, deselect: () => setSelected(false) };
}

/**
 * Refunds a payment: all that is left, or — for a split-tender payment — part of one tender.
 * tab/↑/↓ move between rows; ←/→ or space change whole/part and the tender; enter checks the
 * interface's rules, then asks (enter there means no); esc cancels.
 */
export function V1RefundForm({ form }: { form: RefundForm }) {
  const theme = useTheme();
  const payment = useLoadedStore((s) => s.v1Current().payment);
  const active = useHasFocus("refund");
  const split = payment ? isSplitTender(payment) : false;
  const rows = refundRows(form, split);
  const tenders = (payment?.tender ?? []).filter((t) => tenderLeft(t) > 0);
  const currency = payment ? paymentCurrency(payment) : "USD";
  const { set, selected, deselect } = useRefundKeys(form, split, tenders, active);
  const mark = (row: RefundRow) => (form.focus === row ? "› " : "  ");
  const label = (row: RefundRow, text: string) => (
    <Txt color={form.focus === row ? theme.accent : undefined} bold={form.focus === row}>
      {mark(row) + text.padEnd(REFUND_LABEL_WIDTH)}
    </Txt>
  );
  const m = (n: number) => formatMoney({ amount: n, currency });
  const tender = tenders.find((t) => t.id === form.tenderId);
  const [ref, room] = useValueRoom(REFUND_LABEL_WIDTH);
  // A long reason being typed goes on under itself, as a form's field does (FieldRow).
  const longReason = form.focus === "reason" && isLongValue(form.reason, room);
  return (
    <Box ref={ref} flexDirection="column" borderStyle="round" paddingX={1} flexShrink={0}>
      <Txt bold wrap="truncate-end">
        Refund the payment{payment ? ` · ${m(paymentLeft(payment))} left to refund` : ""}
      </Txt>
      <Box height={1} overflow="hidden">
        {label("mode", "Refund")}
        <Txt wrap="truncate-end">
          {form.mode === "full" ? "(•) all that is left  ( ) part" : "( ) all that is left  (•) part"}
          {split && form.mode === "full" ? <Txt color={theme.muted}> · every tender</Txt> : null}
        </Txt>
      </Box>
      {rows.includes("tender") ? (
        <Box height={1} overflow="hidden">
          {label("tender", "Tender")}
          <Txt wrap="truncate-end" color={tender ? undefined : theme.warn}>
            {tender ? `‹ ${tenderLabel(tender)}: ${m(tenderLeft(tender))} left ›` : "‹ choose a tender (←/→) ›"}
          </Txt>
        </Box>
      ) : null}
      {rows.includes("amount") ? (
        <Box height={1} overflow="hidden">
          {label("amount", "Amount")}
          <TextField
            value={form.amount}
            focus={active && form.focus === "amount"}
            selected={selected && form.focus === "amount"}
            onDeselect={deselect}
            onChange={(v) => set("amount", v)}
          />
          <Txt color={theme.muted}> {currency}</Txt>
        </Box>
      ) : null}
      <Box overflow="hidden" {...(longReason ? { maxHeight: EDITED_FIELD_LINES } : { height: 1 })}>
        <Box flexShrink={0}>{label("reason", "Reason")}</Box>
        <Box flexShrink={longReason ? 1 : 0}>
          <TextField
            value={form.reason}
            focus={active && form.focus === "reason"}
            selected={selected && form.focus === "reason"}
            onDeselect={deselect}
            maxLength={200}
            onChange={(v) => set("reason", v)}
          />
        </Box>
      </Box>
      {form.problem ? (
        <Box height={2} overflow="hidden">
          <Txt color={theme.bad}>! {form.problem}</Txt>
        </Box>
      ) : (
        <Txt color={theme.muted} wrap="truncate-end">
          tab next · ←/→ change · enter check and ask · esc cancel
        </Txt>
      )}
    </Box>
  );
}
