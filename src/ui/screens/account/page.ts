// The account screen as one page: the facts above, the permissions and locations below. On a short
// terminal (60×24) the facts take most of the room; the page scrolls so that the list gets it
// back as the cursor goes down, and the row under the cursor is shown whole.
import { wrapLines } from "../../components/columns.js";
import type { ListState } from "../../components/windowed-list.js";

/** Where the page is: how many fact lines have gone off the top, and the list's window below them. */
export interface AccountPage {
  /** The first page line shown: the facts before it are scrolled off. */
  offset: number;
  /** The list's window: its cursor and its first row shown. */
  list: ListState;
  /** Rows of the list shown, its position line not counted. */
  listRows: number;
}

/**
 * The page shown in `room` lines: `facts` lines, then `rows` list rows with the cursor on
 * `cursor`, taking `extra` more lines (its whole text), and a position line. The page moves as
 * little as needed from `previous` to show the cursor's row whole; on the first row it is at its
 * top, every fact in view (as far as the room allows).
 */
export function accountPage(o: {
  facts: number;
  rows: number;
  cursor: number;
  extra: number;
  room: number;
  previous: number;
}): AccountPage {
  const visible = Math.max(1, o.room - 1 - o.extra);
  const cursor = Math.min(Math.max(0, o.cursor), Math.max(0, o.rows - 1));
  const at = o.facts + cursor;
  const lowest = Math.max(0, at - visible + 1);
  const highest = Math.max(lowest, Math.min(at, o.facts + o.rows - visible));
  const offset = cursor === 0 ? lowest : Math.min(Math.max(o.previous, lowest), highest);
  const factsShown = Math.max(0, o.facts - offset);
  return {
    offset,
    list: { cursor, offset: Math.max(0, offset - o.facts) },
    listRows: Math.max(1, visible - factsShown),
  };
}

/** Where a permission's reason starts on its row: the mark, the scope's 25 cells and a space. */
export const WHY_AT = 28;

/**
 * The row under the cursor, whole, in lines of `width` cells: its text wrapped, the lines after
 * the first under where its words start (at most four lines).
 */
export function wholeRow(text: string, indent: number, width: number): string[] {
  const head = text.slice(0, indent);
  const lines = wrapLines(text.slice(indent), Math.max(1, width - indent), 4);
  return lines.map((l, i) => `${i === 0 ? head : " ".repeat(indent)}${l}`);
}
