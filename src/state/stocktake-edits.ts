/**
 * The Stocktake slice's I/O on an open count besides the counting line: a pick from a name
 * search, the count's settings, a line set or removed from the review, unknown codes dismissed
 * or resolved, the books read again, and an item's history. Each is journaled before it shows.
 */
import { type FormProblem, onField } from "../domain/form-problem.js";
import { findByCode, parseCountEntry, type UncountedChoice } from "../domain/stocktake.js";
import { readWantedBooks } from "./stocktake-books.js";
import { countEntry, data, rememberItems, type StocktakeIo, withJournal } from "./stocktake-io.js";
import { itemHistory, lookupCode, readExpected, searchByName } from "./stocktake-source.js";

/** Picks an item of the search's list: its quantity is asked next (and an unknown code it resolves is marked). */
export async function pickItem(io: StocktakeIo, index: number): Promise<void> {
  const prompt = data(io).prompt;
  const item = prompt.kind === "pick" ? prompt.items[index] : undefined;
  if (prompt.kind !== "pick" || !item) return;
  await rememberItems(io, [item]);
  const fresh = data(io).count?.items.get(item.variationId) ?? item;
  io.dispatch({ type: "prompt-cancelled" });
  const code = prompt.resolving;
  const count = data(io).count;
  if (code && count) {
    const countId = count.header.id;
    const done = await withJournal(io, "Resolving a code", (j) => {
      j.resolveUnknown(countId, code, fresh.variationId);
      return true;
    });
    if (done) io.dispatch({ type: "unknown-resolved", countId, code, variationId: fresh.variationId });
    io.dispatch({ type: "show", view: { kind: "count" } });
  }
  io.dispatch({ type: "quantity-asked", variationId: fresh.variationId });
}

/**
 * Changes a setting of the open count. It shows at once — a scan right after `s` is counted in
 * the new mode — and goes back, with the reason said, if the journal cannot record it.
 */
async function changeSetting(
  io: StocktakeIo,
  what: string,
  change: { scanOne: boolean } | { uncounted: UncountedChoice } | { blind: boolean },
  before: { scanOne: boolean } | { uncounted: UncountedChoice } | { blind: boolean },
): Promise<void> {
  const count = data(io).count;
  if (count?.header.status !== "open") return;
  const countId = count.header.id;
  io.dispatch({ type: "settings-changed", countId, ...change });
  const done = await withJournal(io, what, (j) => {
    j.updateSettings(countId, change);
    return true;
  });
  // Back as it was; the feedback keeps saying why.
  if (!done) io.dispatch({ type: "settings-changed", countId, ...before, quiet: true });
}

/** Scan = 1 unit on or off. */
export function toggleScanOne(io: StocktakeIo): Promise<void> {
  const scanOne = data(io).count?.header.scanOne ?? false;
  return changeSetting(io, "Changing the scan mode", { scanOne: !scanOne }, { scanOne });
}

/**
 * A blind count on or off: while on, the counting view hides the expected quantities (counters
 * count what is there, not what the books say); the review shows them either way.
 */
export function toggleBlind(io: StocktakeIo): Promise<void> {
  const blind = data(io).count?.header.blind ?? false;
  return changeSetting(io, "Changing the blind count", { blind: !blind }, { blind });
}

/** What a full count does with the items nobody counted. */
export function setUncounted(io: StocktakeIo, uncounted: UncountedChoice): Promise<void> {
  const before = data(io).count?.header.uncounted ?? "leave";
  return changeSetting(io, "Changing the uncounted items", { uncounted }, { uncounted: before });
}

/** Sets a line's count from the review (any line is editable); the problem (a count that cannot be read: its field), or undefined. */
export async function setLine(io: StocktakeIo, variationId: string, text: string): Promise<FormProblem> {
  const count = data(io).count;
  const item = count?.items.get(variationId);
  if (!count || !item) return "That item is not in this count.";
  if (count.header.status !== "open") return "This count is being committed; its lines can no longer change.";
  const entry = parseCountEntry(text, item.precision);
  if (!entry.ok) return onField(entry.problem, "count");
  const recorded = await countEntry(io, item, entry.value);
  if (!recorded && data(io).question) {
    // Far from the books: the question takes over; the line is recorded if the manager keeps it.
    io.dispatch({ type: "form", form: { kind: "none" } });
    return undefined;
  }
  if (!recorded) {
    const feedback = data(io).feedback;
    return feedback?.kind === "problem" ? feedback.text : "The line was not recorded.";
  }
  io.dispatch({ type: "form", form: { kind: "none" } });
  return undefined;
}

/** Takes a line out of the count (counted by mistake). */
export async function removeLine(io: StocktakeIo, variationId: string): Promise<void> {
  const count = data(io).count;
  if (!count || count.lineAt.get(variationId) === undefined) return;
  const countId = count.header.id;
  const done = await withJournal(io, "Removing a line", (j) => {
    j.removeLine(countId, variationId);
    return true;
  });
  if (done) io.dispatch({ type: "line-removed", countId, variationId });
}

/** Drops an unknown code from the list (scanned by mistake). */
export async function dismissUnknown(io: StocktakeIo, code: string): Promise<void> {
  const count = data(io).count;
  if (!count) return;
  const countId = count.header.id;
  const done = await withJournal(io, "Dismissing a code", (j) => {
    j.dismissUnknown(countId, code);
    return true;
  });
  if (done) io.dispatch({ type: "unknown-dismissed", countId, code });
}

/** Looks up what an unknown code is (a SKU, UPC or words) and counts it as that item; the problem, or undefined. */
export async function resolveUnknown(io: StocktakeIo, code: string, text: string): Promise<FormProblem> {
  const count = data(io).count;
  if (!count) return "No count is open.";
  const t = text.trim();
  if (!t) return onField("Type the item's SKU, UPC or name.", "text");
  const loc = count.header.locationId;
  const { client } = io.deps;
  const hit =
    findByCode(t, count.bySku, count.byUpc) ??
    (await io.get().runRead(`Looking up ${t}`, () => lookupCode(client, t, loc), { quiet: true }));
  const items = hit ? [hit] : await io.get().runRead(`Searching for ${t}`, () => searchByName(client, t, loc));
  if (!items || items.length === 0) {
    // The text typed is why when the catalog answered with nothing; not when it could not be asked.
    const nothing = `Nothing in the catalog matches “${t}”.`;
    return items ? onField(nothing, "text") : nothing;
  }
  io.dispatch({ type: "show", view: { kind: "count" } });
  io.dispatch({ type: "pick-offered", query: t, items, resolving: code });
  if (items.length === 1) await pickItem(io, 0);
  return undefined;
}

/** Reads the books' quantities changed since the last read (`updated_after`), and any still wanted. */
export async function refreshBooks(io: StocktakeIo, options: { quiet?: boolean } = {}): Promise<void> {
  const count = data(io).count;
  if (count?.header.status !== "open") return;
  const countId = count.header.id;
  const since = count.header.expectedSyncedAt;
  const read = () => readExpected(io.deps.client, count.header.locationId, since);
  const fresh = await io.get().runRead("Reading the books", read, options);
  if (!fresh) return;
  const mine = new Map([...fresh.counts].filter(([id]) => count.items.has(id)));
  const done = await withJournal(io, "Recording the books", (j) => {
    j.putExpected(countId, mine, fresh.latest);
    return true;
  });
  if (done) io.dispatch({ type: "books-read", countId, counts: mine, syncedAt: fresh.latest });
  // Items that joined from outside the scope and whose books a failed read left unknown.
  await readWantedBooks(io);
}

/** One item's counts and adjustments at the location, newest first. */
export async function openHistory(io: StocktakeIo, variationId: string): Promise<void> {
  const count = data(io).count;
  if (!count) return;
  io.dispatch({ type: "history-opened", variationId });
  const changes = await io
    .get()
    .runRead("Reading the item's history", () => itemHistory(io.deps.client, variationId, count.header.locationId));
  if (changes) io.dispatch({ type: "history-read", variationId, changes });
}
