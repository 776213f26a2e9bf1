import { Box } from "ink";
import { memo, useMemo } from "react";
import { plural } from "../../../domain/plural.js";
import { type CountLine, countVariance, describeScope, formatVariance } from "../../../domain/stocktake.js";
import { selectTimeZone, useLoadedStore, useLoadedStoreApi } from "../../../state/index.js";
import { countedOf, expectedChangedText, expectedOf, type LoadedCount } from "../../../state/screens.js";
import { ColumnList } from "../../components/ColumnList.js";
import { type Column, firstThatFits, wrapSegments } from "../../components/columns.js";
import { TextField } from "../../components/TextField.js";
import { Txt } from "../../components/Txt.js";
import type { ListState } from "../../components/windowed-list.js";
import { useHasFocus } from "../../shell.js";
import { useTheme } from "../../theme.js";
import { countedColumns, countedRows, OUT_OF_SCOPE, pickColumns } from "./columns.js";
import { COUNT_DRAFT, COUNTING_LINE } from "./commands.js";
import { Picker } from "./forms.js";

/** The rows above the counted lines: the count's line, the counting line, and the answer to the last entry. */
export const COUNT_HEAD_ROWS = 3;

/**
 * Counting: one input line that has the keyboard on arrival (typing is this view's job; the hint
 * bar says so), the answer to the last entry, and the lines counted, most recent first. esc lets
 * go of the line so the screen's keys apply; enter or i takes it back. A scan counts whether the
 * line has the keyboard or not (the screen's onScan).
 */
export function CountView({ height, width, list }: { height: number; width: number; list: ListState }) {
  const theme = useTheme();
  const store = useLoadedStoreApi();
  const count = useLoadedStore((s) => s.stocktake.count);
  const prompt = useLoadedStore((s) => s.stocktake.prompt);
  const tz = useLoadedStore(selectTimeZone);
  const text = useLoadedStore((s) => s.drafts[COUNT_DRAFT] ?? "");
  const setText = (t: string) => store.getState().setDraft(COUNT_DRAFT, t);
  const rows = useMemo(() => (count ? countedRows(count) : []), [count]);
  const columns = useMemo(() => (count ? countedColumns(tz, count) : []), [tz, count]);
  const pickCols = useMemo(() => pickColumns(count?.inScope ?? new Set()), [count]);
  const s = () => store.getState();
  const picking = prompt.kind === "pick";
  const focus = useHasFocus(COUNTING_LINE);
  const pickFocus = useHasFocus("pick");
  if (!count) return null;
  const h = count.header;
  const unknown = count.unknown.filter((u) => !u.resolvedTo).length;
  const asked = prompt.kind === "quantity" ? count.items.get(prompt.variationId) : undefined;
  const about = asked ? askedText(count, asked.variationId) : "";
  // The prompt in fewer words when the longer one would leave the field less room than its hint.
  const labels = asked
    ? [`${asked.name}${about ? ` (${about})` : ""} quantity`, `${asked.name} quantity`]
    : [ENTRY_LABEL, ENTRY_SHORT];
  const label = firstThatFits(labels, width - PROMPT_MARK.length - FIELD_ROOM);
  // Whole parts only, the mode first after the lines: on a narrow terminal the last ones go.
  const info = wrapSegments(
    [
      h.id,
      describeScope(h.scope),
      plural(count.lines.length, "line"),
      h.scanOne ? "SCAN = 1 UNIT" : "",
      h.blind ? "BLIND: expected shown in the review" : "",
      h.counterName ? `by ${h.counterName}` : "",
      unknown ? plural(unknown, "unknown code") : "",
      h.blind ? "" : expectedChangedText(count, tz),
    ].filter(Boolean),
    width - "Counting ".length,
  )[0];
  return (
    <Box flexDirection="column">
      <Txt wrap="truncate-end">
        <Txt bold>Counting</Txt> <Txt color={theme.muted}>{info}</Txt>
      </Txt>
      <Box height={1} overflow="hidden">
        {/* The prompt keeps its length; on a narrow terminal the field (or its hint) is what is cut. */}
        <Box flexShrink={0}>
          <Txt color={focus ? theme.accent : theme.muted}>{`${label}${PROMPT_MARK}`}</Txt>
        </Box>
        <TextField
          value={text}
          focus={focus}
          maxLength={200}
          placeholder={focus ? "" : LET_GO_HINT}
          onChange={setText}
          onSubmit={(v) => {
            setText("");
            void s().stocktakeSubmit(v);
          }}
        />
      </Box>
      <Box height={1} overflow="hidden">
        <Feedback />
      </Box>
      {picking ? (
        <Picker
          title={`Which item is “${prompt.query}”?`}
          rows={prompt.items}
          columns={pickCols}
          rowKey={(r) => r.variationId}
          height={height - COUNT_HEAD_ROWS}
          width={width}
          active={pickFocus}
          onPick={(i) => void s().stocktakePick(i)}
          onBack={() => s().stocktakeCancelPrompt()}
        />
      ) : (
        <CountedList columns={columns} rows={rows} list={list} height={height - COUNT_HEAD_ROWS} width={width} />
      )}
    </Box>
  );
}

const rowKey = (l: CountLine) => l.variationId;

/** The counting line's prompt when it asks for nothing in particular. */
const ENTRY_LABEL = "Scan or type a code, a name, +N (adds) or =N (replaces)";
/** The same in fewer words, for a narrow terminal. */
const ENTRY_SHORT = "Scan or type a code, name, +N, =N";
const PROMPT_MARK = "› ";
/** The field's hint after esc let go of the line: how to take it back first; the why is what is cut. */
const LET_GO_HINT = "enter or i to type again (esc let go of the line)";
/** The room the field keeps beside the prompt: the hint's essential words. */
const FIELD_ROOM = "enter or i to type again".length + 1;

/**
 * "expected 12, counted 3" for the item the line asks a quantity of (no expected on a blind count),
 * and "not in scope" before it is counted, not only after.
 */
function askedText(count: LoadedCount, variationId: string): string {
  const counted = countedOf(count, variationId);
  return [
    count.header.blind ? "" : `expected ${expectedOf(count, variationId) ?? "…"}`,
    counted ? `counted ${counted}` : "",
    count.inScope.has(variationId) ? "" : OUT_OF_SCOPE,
  ]
    .filter(Boolean)
    .join(", ");
}

/** The lines counted; a keystroke on the counting line does not redraw it (its props are unchanged). */
const CountedList = memo(function CountedList({
  columns,
  rows,
  list,
  height,
  width,
}: {
  columns: Column<CountLine>[];
  rows: CountLine[];
  list: ListState;
  height: number;
  width: number;
}) {
  return (
    <ColumnList
      columns={columns}
      rows={rows}
      state={list}
      height={height}
      width={width}
      rowKey={rowKey}
      empty="Nothing counted yet."
    />
  );
});

/** The answer to the last entry: what was counted, a code kept as unknown, or what was wrong. */
function Feedback() {
  const theme = useTheme();
  const feedback = useLoadedStore((s) => s.stocktake.feedback);
  const count = useLoadedStore((s) => s.stocktake.count);
  const lookingUp = useLoadedStore((s) => s.stocktake.lookingUp);
  const waiting = useLoadedStore((s) => Math.max(0, s.stocktake.entries.length - 1));
  if (lookingUp !== undefined) {
    // A slow service holds the scans behind this one: say so, rather than seem to ignore them.
    const behind = waiting > 0 ? ` · ${waiting} more waiting, counted in order` : "";
    return (
      <Txt color={theme.muted} wrap="truncate-end">
        Looking up {lookingUp} in the catalog…{behind}
      </Txt>
    );
  }
  if (!feedback || !count) return <Txt> </Txt>;
  switch (feedback.kind) {
    case "counted": {
      const item = count.items.get(feedback.variationId);
      const expected = expectedOf(count, feedback.variationId);
      const books = count.header.blind
        ? ""
        : expected === undefined
          ? " (expected …)"
          : ` (expected ${expected}, ${formatVariance(countVariance(feedback.quantity, expected))})`;
      const outside = count.inScope.has(feedback.variationId) ? "" : ` · ${OUT_OF_SCOPE}`;
      return (
        <Txt wrap="truncate-end">
          <Txt color={theme.good}>✓ </Txt>
          {item?.name ?? feedback.variationId}: <Txt bold>{feedback.quantity}</Txt>
          <Txt color={theme.muted}>
            {books}
            {outside}
          </Txt>
        </Txt>
      );
    }
    case "unknown":
      return (
        <Txt color={theme.warn} wrap="truncate-end">
          {feedback.unanswered
            ? `? ${feedback.code}: the catalog could not be asked; kept in the unknown codes (u) to resolve later.`
            : `? Unknown code ${feedback.code}: kept in the unknown codes (u) to resolve later.`}
        </Txt>
      );
    case "problem":
      return (
        <Txt color={theme.bad} wrap="truncate-end">
          ! {feedback.text}
        </Txt>
      );
    case "info":
      return (
        <Txt color={theme.muted} wrap="truncate-end">
          {feedback.text}
        </Txt>
      );
  }
}
