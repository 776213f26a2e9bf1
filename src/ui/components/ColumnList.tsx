import { Box } from "ink";
import { useAppStore } from "../../state/index.js";
import { type Theme, useTheme } from "../theme.js";
import { type Column, cellText, fitCell, GAP, layoutColumns, type PlacedColumn, rowText } from "./columns.js";
import { Txt } from "./Txt.js";
import { type ListState, visibleRange } from "./windowed-list.js";

/** Props of {@link ColumnList}. */
export interface ColumnListProps<Row> {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  state: ListState;
  /** Rows of the terminal it may use: the header, the rows, and the position line. */
  height: number;
  width: number;
  rowKey: (row: Row, index: number) => string;
  empty?: string;
  /** Marks the rows dim (they are also dim while the service cannot be reached: read before, maybe stale). */
  dim?: boolean;
  /**
   * How many rows there are in all, when only the first `rows` are loaded (a long search read
   * page by page): the position line counts to it, as the screen's count does.
   */
  total?: number;
  /** `total` is where counting stopped: there are more (shown `10,000+`). */
  totalIsFloor?: boolean;
  /** The rows are this machine's own (the outbox), never stale when the service is away. */
  local?: boolean;
}

/**
 * A row's cells joined into runs of one colour: Ink's cost per frame grows with the number of
 * styled pieces, so neighbouring cells of the same colour are drawn as one.
 */
function segments<Row>(
  placed: readonly PlacedColumn<Row>[],
  row: Row,
  index: number,
  theme: Theme,
  fallback: string | undefined,
): { text: string; color: string | undefined }[] {
  const out: { text: string; color: string | undefined }[] = [];
  placed.forEach((p, ci) => {
    const color = p.column.color?.(row, theme) ?? fallback;
    const text =
      (ci > 0 ? " ".repeat(GAP) : "") + fitCell(cellText(p.column, row, index, p.width), p.width, p.column.align);
    const last = out[out.length - 1];
    if (last && last.color === color) last.text += text;
    else out.push({ text, color });
  });
  return out;
}

/** The rows of a list of `height` terminal rows (header and position line take two). */
export function listRows(height: number): number {
  return Math.max(1, height - 2);
}

/**
 * A windowed, selectable table: only the rows inside the window are rendered, and the header and
 * the cells are laid out from one column spec.
 */
export function ColumnList<Row>({
  columns,
  rows,
  state,
  height,
  width,
  rowKey,
  empty,
  dim,
  total,
  totalIsFloor,
  local,
}: ColumnListProps<Row>) {
  const theme = useTheme();
  const offline = useAppStore((s) => s.connection.state === "offline");
  const stale = Boolean(dim) || (offline && !local);
  const visible = listRows(height);
  // One cell for the cursor mark, then the columns.
  const placed = layoutColumns(columns, Math.max(1, width - 1 - GAP));
  const header = rowText(placed, (c) => c.header);
  if (rows.length === 0) {
    return (
      <Box flexDirection="column">
        <Txt color={theme.muted} wrap="truncate-end">{`${" ".repeat(1 + GAP)}${header}`}</Txt>
        <Txt color={theme.muted}>{`  ${empty ?? "Nothing here."}`}</Txt>
      </Box>
    );
  }
  const { start, end } = visibleRange(state, rows.length, visible);
  const cursor = Math.min(state.cursor, rows.length - 1);
  return (
    <Box flexDirection="column">
      <Txt color={theme.muted} bold wrap="truncate-end">{`${" ".repeat(1 + GAP)}${header}`}</Txt>
      {rows.slice(start, end).map((row, i) => {
        const index = start + i;
        const selected = index === cursor;
        return (
          <Txt key={rowKey(row, index)} wrap="truncate-end" dimColor={stale} bold={selected}>
            <Txt color={selected ? theme.accent : undefined} inverse={!theme.color && selected}>
              {selected ? "›" : " "}
            </Txt>
            {" ".repeat(GAP)}
            {segments(placed, row, index, theme, selected ? theme.accent : undefined).map((seg, si) => (
              <Txt key={String(si)} color={seg.color}>
                {seg.text}
              </Txt>
            ))}
          </Txt>
        );
      })}
      <Txt color={theme.muted}>
        {rows.length > visible
          ? ` ${start + 1}–${end} of ${Math.max(total ?? 0, rows.length).toLocaleString("en-US")}${totalIsFloor ? "+" : ""}`
          : " "}
        {stale && offline ? " · stale: read before the service stopped answering" : ""}
      </Txt>
    </Box>
  );
}
