import { Box } from "ink";
import type { ReactNode } from "react";
import { useTheme } from "../theme.js";
import { Txt } from "./Txt.js";
import { type ListState, visibleRange } from "./windowed-list.js";

/** Props of {@link WindowedList}. */
export interface WindowedListProps<T> {
  items: readonly T[];
  state: ListState;
  height: number;
  renderRow: (item: T, index: number, selected: boolean) => ReactNode;
  rowKey: (item: T, index: number) => string;
  empty?: string;
}

/** A list that renders only the rows inside its window, with a scroll position at the bottom. */
export function WindowedList<T>({ items, state, height, renderRow, rowKey, empty }: WindowedListProps<T>) {
  const theme = useTheme();
  const rows = Math.max(1, height - 1);
  if (items.length === 0) return <Txt color={theme.muted}>{empty ?? "Nothing here."}</Txt>;
  const { start, end } = visibleRange(state, items.length, rows);
  const cursor = Math.min(state.cursor, items.length - 1);
  return (
    <Box flexDirection="column">
      {items.slice(start, end).map((item, i) => (
        <Box key={rowKey(item, start + i)}>
          <Txt color={start + i === cursor ? theme.accent : undefined} inverse={!theme.color && start + i === cursor}>
            {start + i === cursor ? "›" : " "}
          </Txt>
          {renderRow(item, start + i, start + i === cursor)}
        </Box>
      ))}
      {items.length > rows ? (
        <Txt color={theme.muted}>
          {" "}
          {start + 1}–{end} of {items.length.toLocaleString("en-US")}
        </Txt>
      ) : null}
    </Box>
  );
}
