import { basename } from "node:path";
import { Box } from "ink";
import { useMemo } from "react";
import type { Reconciliation } from "../../../domain/payout-reconcile.js";
import { plural } from "../../../domain/plural.js";
import { selectedId, useLoadedStore } from "../../../state/index.js";
import type { ReconcileItem, StatementState } from "../../../state/screens.js";
import { ColumnList, listRows } from "../../components/ColumnList.js";
import { Txt } from "../../components/Txt.js";
import { useListWindow } from "../../components/use-list.js";
import { wrapParts } from "../../components/wrap.js";
import { useTheme } from "../../theme.js";
import type { ScreenProps } from "../screen-def.js";
import { reconcileColumns } from "./columns.js";
import { LISTS, payoutsRows, shownItems, whereWords } from "./commands.js";
import { OpenForm, payoutsFormHeight } from "./forms.js";

const NO_IDS: readonly string[] = [];

/** What to do about a statement that cannot be used, by what would help. */
const RETRY_WORDS: Readonly<Record<Extract<StatementState, { kind: "unusable" }>["retry"], string>> = {
  file: "R opens the form again to give another file.",
  location: "L chooses one location; R then reconciles its statement.",
  columns: "R opens the form again: name the columns or the date format when the headers are unusual.",
};
const NO_PAYOUTS = new Map();

/** The counts of a reconciliation, the problems first. */
function summaryParts(r: Reconciliation): string[] {
  const byRef = r.matched.filter((m) => m.by === "end_to_end_id").length;
  return [
    `ambiguous ${r.ambiguous.length}`,
    `unmatched ${r.unmatched.length}`,
    `missing ${r.missing.length}`,
    `failed ${r.failed.length}`,
    `matched ${r.matched.length} (${byRef} by reference)`,
  ];
}

/** The lines read as no transaction (a balance or summary line, no date), by number: never dropped unsaid. */
function skippedPart(skipped: readonly { line: number }[]): string[] {
  if (skipped.length === 0) return [];
  const numbers = skipped.slice(0, 5).map((l) => l.line);
  const more = skipped.length > numbers.length ? ", …" : "";
  const which = `line${skipped.length > 1 ? "s" : ""} ${numbers.join(", ")}${more}`;
  return [`skipped ${skipped.length} (${which}: not a transaction)`];
}

/** The statement's dates and counts as lines of at most `width` cells. */
function summaryLines(st: Extract<StatementState, { kind: "reconciled" }>, width: number): string[] {
  const r = st.result;
  const range = r.range ? `${r.range.from} → ${r.range.to}` : "no dated lines";
  const notes = st.notes.length ? [st.notes[0] ?? ""] : [];
  const count = `${plural(st.lines.length, "line")} ${range}`;
  const [first, ...rest] = wrapParts([count, ...summaryParts(r), ...skippedPart(st.skipped), ...notes], width);
  return [first ?? "", ...rest];
}

const problemsColor = (r: Reconciliation, theme: ReturnType<typeof useTheme>) =>
  r.ambiguous.length + r.unmatched.length + r.missing.length ? theme.warn : theme.good;

/** What the row under the cursor is about, in a sentence. */
function aboutItem(item: ReconcileItem | undefined): string {
  if (!item) return "";
  switch (item.kind) {
    case "line":
      return `Line ${item.row.line}: ${item.row.reason}${item.row.candidates.length ? " · enter opens its payout" : ""}`;
    case "candidate":
      return `${item.role === "fits" ? "Fits" : "Near"} line ${item.line} · enter opens this payout`;
    case "payout":
      return item.section === "missing"
        ? "Paid, due in the statement's dates, and on no line of it · enter opens it"
        : "The bank refused this payout: it will not be on a statement · enter opens it";
    case "heading":
      return item.text;
  }
}

/** A bank statement against the payouts: each problem line next to its candidates. */
export function ReconcileView({ height, width }: ScreenProps) {
  const theme = useTheme();
  const st = useLoadedStore((s) => s.payouts.statement);
  const formKind = useLoadedStore((s) => s.payouts.form.kind);
  const where = useLoadedStore((s) => (s.allLocations ? "every location" : whereWords(s)));
  const currency = useLoadedStore((s) => s.payoutsLocations()[0]?.currency ?? "USD");
  const items = useLoadedStore(shownItems);
  const ids = useLoadedStore((s) => payoutsRows(s)?.ids ?? NO_IDS);
  const selected = useLoadedStore((s) => selectedId(s, LISTS.reconcile, ids));
  const formRows = payoutsFormHeight(formKind);
  const summary = st?.kind === "reconciled" ? summaryLines(st, width - 1) : [];
  const listHeight = Math.max(3, height - 3 - Math.max(1, summary.length) - formRows);
  const list = useListWindow(LISTS.reconcile, ids, listRows(listHeight));
  const payouts = st?.kind === "reconciled" ? st.payouts : NO_PAYOUTS;
  const columns = useMemo(() => reconcileColumns(payouts, currency), [payouts, currency]);
  if (!st) return <OpenForm />;
  return (
    <Box flexDirection="column" width={width}>
      <Txt wrap="truncate-end">
        <Txt bold>{basename(st.path)}</Txt>
        <Txt> · against the payouts of {where}</Txt>
        {/* A hint is whole or left out: R and esc work all the same. */}
        {`${basename(st.path)} · against the payouts of ${where} · R another · esc back`.length <= width ? (
          <Txt color={theme.muted}> · R another · esc back</Txt>
        ) : null}
      </Txt>
      <StatementBody state={st} height={listHeight} width={width}>
        <ColumnList
          columns={columns}
          rows={items}
          state={list}
          height={listHeight}
          width={width}
          rowKey={(i) => i.id}
          empty="The statement has no lines with an amount."
        />
        <Txt color={theme.muted} wrap="truncate-end">
          {aboutItem(items.find((i) => i.id === selected))}
        </Txt>
      </StatementBody>
      <OpenForm />
    </Box>
  );
}

/** The statement's summary and rows once reconciled; while reading, or when unusable, why. */
function StatementBody({
  state,
  height,
  width,
  children,
}: {
  state: StatementState;
  height: number;
  width: number;
  children: React.ReactNode;
}) {
  const theme = useTheme();
  if (state.kind === "reading")
    return <Txt color={theme.muted}>Reading {state.path} and the payouts of its dates…</Txt>;
  if (state.kind === "unusable") {
    return (
      <Box flexDirection="column" width={width}>
        <Txt color={theme.bad}>The statement cannot be used: {state.problem}</Txt>
        {state.problems.slice(0, Math.max(1, height)).map((p) => (
          <Txt key={p.line} wrap="truncate-end">
            line {p.line}: {p.problem}
          </Txt>
        ))}
        <Txt color={theme.muted}>{RETRY_WORDS[state.retry]}</Txt>
      </Box>
    );
  }
  return (
    <>
      {summaryLines(state, width - 1).map((line, i) => (
        <Txt key={line} wrap="truncate-end" color={i === 0 ? undefined : problemsColor(state.result, theme)}>
          {line}
        </Txt>
      ))}
      {children}
    </>
  );
}
