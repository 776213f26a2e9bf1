/**
 * The books' quantities of items that join a count from outside its scope — scanned, typed,
 * searched, resolved or imported. Each is read from the service before its variance is shown,
 * in batches: the ids wanted within a moment go in one request, so a scanner's pace never waits
 * on a read (the line says `expected …` until it arrives, never 0). A read that fails is tried
 * again at the next refresh of the books.
 */
import type { StocktakeIo } from "./stocktake-io.js";
import { data, withJournal } from "./stocktake-io.js";
import { booksUnknown, expectedOf } from "./stocktake-machine.js";
import { readExpectedOf } from "./stocktake-source.js";

/** Ids wanted within this many milliseconds go in one read. */
export const BOOKS_BATCH_MS = 40;

/** Asks for the book quantities of items the count does not know them for (batched). */
export function wantBooks(io: StocktakeIo, ids: readonly string[]): void {
  const count = data(io).count;
  if (!count) return;
  const unknown = ids.filter((id) => expectedOf(count, id) === undefined);
  if (unknown.length === 0) return;
  io.dispatch({ type: "books-wanted", countId: count.header.id, ids: unknown });
  if (!data(io).books.reading) io.deps.timers.after(BOOKS_BATCH_MS, () => void readWantedBooks(io));
}

/** Every item of the open count whose book quantity is not known (a count resumed): asked for. */
export function wantUnknownBooks(io: StocktakeIo): void {
  const count = data(io).count;
  if (count) wantBooks(io, booksUnknown(count));
}

/** Reads the wanted book quantities now, then any wanted meanwhile. */
export async function readWantedBooks(io: StocktakeIo): Promise<void> {
  const s = data(io);
  const count = s.count;
  if (!count || s.books.reading || s.books.wanted.length === 0) return;
  const ids = s.books.wanted;
  const countId = count.header.id;
  io.dispatch({ type: "books-reading", countId, reading: true });
  const read = await io
    .get()
    .runRead("Reading the books", () => readExpectedOf(io.deps.client, count.header.locationId, ids), { quiet: true });
  const kept =
    read &&
    (await withJournal(io, "Recording the books", (j) => {
      j.putExpected(countId, read);
      return true;
    }));
  if (read && kept) io.dispatch({ type: "books-read", countId, counts: read, syncedAt: undefined });
  io.dispatch({ type: "books-reading", countId, reading: false });
  // Not read (the service did not answer): still wanted, for the next refresh of the books.
  if (!read || !kept) io.dispatch({ type: "books-wanted", countId, ids });
  else if (data(io).books.wanted.length > 0) await readWantedBooks(io);
}
