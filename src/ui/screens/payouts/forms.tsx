// The payouts screen's forms: the date range, the bank statement to reconcile, and the `/` line.
import { useLoadedStore, useLoadedStoreApi } from "../../../state/index.js";
import { FilterLine } from "../../components/FilterLine.js";
import { FormView, formHeight } from "../../components/FormView.js";
import type { FieldSpec } from "../../components/form.js";
import { FIND_FIELD } from "./commands.js";

/** The range form's fields. */
export const RANGE_FIELDS: FieldSpec[] = [
  { name: "from", label: "From", hint: "YYYY-MM-DD (empty: 29 days before To)" },
  { name: "to", label: "To", hint: "YYYY-MM-DD (empty: today)" },
];

/** The statement form's fields: the file, then the flags of `payouts reconcile` for unusual headers. */
export const STATEMENT_FIELDS: FieldSpec[] = [
  { name: "path", label: "Statement CSV", hint: "~ is your home folder" },
  { name: "dateColumn", label: "Date column", hint: "empty: found by its header" },
  { name: "amountColumn", label: "Amount column", hint: "empty: Amount, or Debit and Credit" },
  { name: "descriptionColumn", label: "Description", hint: "empty: found by its header" },
  { name: "dateFormat", label: "Date format", hint: "e.g. DD/MM/YYYY; empty: guessed" },
];

/** Rows the open form takes under the view. */
export function payoutsFormHeight(kind: "none" | "range" | "statement"): number {
  if (kind === "range") return formHeight(RANGE_FIELDS, true);
  if (kind === "statement") return formHeight(STATEMENT_FIELDS, true);
  return 0;
}

/** The dates of the list: created from … to …, local days. */
export function PayoutsRangeForm() {
  const store = useLoadedStoreApi();
  const form = useLoadedStore((s) => s.payouts.form);
  if (form.kind !== "range") return null;
  const s = () => store.getState();
  return (
    <FormView
      title="Payouts created on which days?"
      note="The service keeps payouts from January 2021."
      fields={RANGE_FIELDS}
      initial={{ from: form.from, to: form.to }}
      onSubmit={(v) => s().applyPayoutsRange(v.from ?? "", v.to ?? "")}
      onCancel={() => s().payoutsDispatch({ type: "close-form" })}
    />
  );
}

/** The bank statement to reconcile, and how to read it when its headers are unusual. */
export function StatementForm() {
  const store = useLoadedStoreApi();
  const form = useLoadedStore((s) => s.payouts.form);
  const all = useLoadedStore((s) => s.allLocations);
  if (form.kind !== "statement") return null;
  const s = () => store.getState();
  return (
    <FormView
      title="Reconcile a bank statement export"
      note={`Matched against the payouts of ${all ? "every location" : "this location"}; L chooses.`}
      fields={STATEMENT_FIELDS}
      initial={{
        path: form.path,
        dateColumn: form.dateColumn,
        amountColumn: form.amountColumn,
        descriptionColumn: form.descriptionColumn,
        dateFormat: form.dateFormat,
      }}
      startAt={form.startAt}
      onSubmit={(v) => s().submitStatement(v)}
      onCancel={() => s().payoutsDispatch({ type: "close-form" })}
    />
  );
}

/** The `/` line: an amount (`25.50`, `$1,234`) or a piece of a statement reference. */
export function FindLine() {
  const store = useLoadedStoreApi();
  const query = useLoadedStore((s) => s.payouts.filters.query);
  return (
    <FilterLine
      field={FIND_FIELD}
      value={query}
      what="amount or reference"
      onChange={(text) => store.getState().payoutsDispatch({ type: "set-query", query: text })}
      onDone={() => store.getState().focusField("payouts", undefined)}
    />
  );
}

/** The form open under a view, if any. */
export function OpenForm() {
  const kind = useLoadedStore((s) => s.payouts.form.kind);
  if (kind === "range") return <PayoutsRangeForm />;
  if (kind === "statement") return <StatementForm />;
  return null;
}
