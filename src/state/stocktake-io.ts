/**
 * The Stocktake slice's I/O: the journal (every line on disk before the screen says it was
 * counted), the service's look-ups, and the entries of the counting line handled one after
 * another. What each step changes on screen is a `CountEvent` for `countReducer`.
 */
import { formatQuantity } from "../domain/quantity.js";
import type { CountEntry, CountLine, StockItem } from "../domain/stocktake.js";
import { addOrReplace, farFromExpected, farQuestion } from "../domain/stocktake-checks.js";
import { CountStateError, type StocktakeJournal } from "../local/stocktake-journal.js";
import { wantBooks } from "./stocktake-books.js";
import { type EntryReading, interpretEntry, lineOf, scanEntry } from "./stocktake-entry.js";
import type { CountEvent, CountQuestion, EntrySource, PendingEntry, StocktakeData } from "./stocktake-machine.js";
import { lookupCode, searchByName } from "./stocktake-source.js";
import type { LoadedState, StoreDeps } from "./store.js";

/** What the slice's I/O works with: the store, the reducer, the dependencies. */
export interface StocktakeIo {
  get: () => LoadedState;
  dispatch: (event: CountEvent) => void;
  deps: StoreDeps;
}

/** The screen's state now. */
export const data = (io: StocktakeIo): StocktakeData => io.get().stocktake;

/**
 * Runs a journal step; a failure (a full disk, a locked file) is said in words, and nothing is
 * acknowledged: the caller gets undefined.
 */
export async function withJournal<T>(
  io: StocktakeIo,
  what: string,
  step: (j: StocktakeJournal) => T | Promise<T>,
): Promise<T | undefined> {
  try {
    return await step(await io.deps.stocktakeJournal.open());
  } catch (err) {
    if (err instanceof CountStateError) {
      io.dispatch({ type: "problem", text: err.message });
      io.get().setStatus({ screen: "stocktake", kind: "rule", text: err.message });
      return undefined;
    }
    const text = `${what}: the journal could not be written, so nothing was recorded.`;
    io.dispatch({ type: "problem", text });
    io.get().setStatus({
      screen: "stocktake",
      kind: "error",
      text,
      details: err instanceof Error ? err.message : String(err),
    });
    return undefined;
  }
}

/** The location selected in the shell, with its id. */
export function locationOf(io: StocktakeIo) {
  const s = io.get();
  const loc = s.locations.find((l) => l.id === s.locationId);
  return loc?.id ? { ...loc, id: loc.id } : undefined;
}

/** The seller the location belongs to. */
export const merchantOf = (io: StocktakeIo): string => io.get().merchantId ?? locationOf(io)?.merchant_id ?? "";

/**
 * Queues an entry and resolves once it is handled. Entries are handled one after another in the
 * order they came: a scan that needs a look-up at the service is not overtaken by the quantity
 * typed after it.
 */
export function submitEntry(io: StocktakeIo, text: string, source: EntrySource): Promise<void> {
  io.dispatch({ type: "entry-queued", text, source });
  const waiting = data(io).entries;
  const mine = waiting[waiting.length - 1];
  if (!mine) return Promise.resolve();
  // The first in the queue starts the handling; the others are handled by it, in turn.
  if (waiting.length === 1) return drainEntries(io);
  return new Promise((resolve) => {
    const stop = io.deps.events.on("stocktake-entry-handled", (e) => {
      if (e.seq < mine.seq) return;
      stop();
      resolve();
    });
  });
}

async function drainEntries(io: StocktakeIo): Promise<void> {
  for (let next = data(io).entries[0]; next; next = data(io).entries[0]) {
    await handleEntry(io, next).catch(() => undefined);
    io.dispatch({ type: "entry-handled", seq: next.seq });
    io.deps.events.emit({ type: "stocktake-entry-handled", seq: next.seq });
  }
}

/** Does what an entry's reading needs. */
async function handleEntry(io: StocktakeIo, entry: PendingEntry): Promise<void> {
  const reading: EntryReading = interpretEntry(entry.text, data(io), entry.source);
  switch (reading.kind) {
    case "nothing":
      return;
    case "no-count":
      io.get().setStatus({ screen: "stocktake", kind: "rule", text: "Nothing was counted: no count is open." });
      return;
    case "closed":
    case "nothing-to-add":
      io.dispatch({ type: "problem", text: reading.problem });
      return;
    case "quantity":
    case "add-to-last":
      await countEntry(io, reading.item, reading.entry);
      return;
    case "add-or-replace": {
      const countId = data(io).count?.header.id ?? "";
      const { question, added, replaced } = addOrReplace(reading.item.name, reading.current, reading.units);
      const units = reading.units;
      askQuestion(
        io,
        countId,
        { kind: "add-or-replace", variationId: reading.item.variationId, units, text: question },
        [`Add (→ ${added})`, `Replace (→ ${replaced})`],
      );
      return;
    }
    case "bad-quantity":
      io.dispatch({ type: "problem", text: `${reading.item.name}: ${reading.problem}` });
      return;
    case "scan":
      await scanned(io, reading.item);
      return;
    case "unknown-code":
    case "words":
      await lookUp(io, reading);
      return;
  }
}

/**
 * Asks the counting line's question in the one confirmation: its line is recorded (or not) by
 * the answer, `labels` saying what yes and no do. Scans wait for the answer (the shell says so).
 */
function askQuestion(io: StocktakeIo, countId: string, question: CountQuestion, labels: [string, string]): void {
  io.dispatch({ type: "question-asked", countId, question });
  const s = io.get();
  s.ask({
    message: question.text,
    risky: false,
    yes: labels[0],
    no: labels[1],
    onYes: () => s.stocktakeAnswer(true),
    onNo: () => s.stocktakeAnswer(false),
    // Add or replace are both changes: esc is neither (a far count's no already changes nothing).
    ...(question.kind === "add-or-replace" ? { onNeither: () => s.stocktakeAnswer(undefined) } : {}),
  });
}

/**
 * Journals a line's new count, then shows it; false when it was not recorded. A count far from
 * the books (ten times, or 500 units over) is asked about first, once per item: the line is
 * recorded when the manager keeps it.
 */
export async function countEntry(io: StocktakeIo, item: StockItem, entry: CountEntry): Promise<boolean> {
  const count = data(io).count;
  if (!count) return false;
  const line = lineOf(data(io), item, entry, io.deps.clock.now().toISOString());
  if (!line.ok) {
    io.dispatch({ type: "problem", text: line.problem });
    return false;
  }
  const expected = line.value.expected;
  const asked = data(io).farKept.includes(item.variationId);
  if (expected !== undefined && !asked && farFromExpected(line.value.quantity, expected)) {
    const text = farQuestion(item.name, line.value.quantity, expected);
    const question = {
      kind: "far" as const,
      variationId: item.variationId,
      line: line.value,
      added: entry.kind === "add",
      text,
    };
    askQuestion(io, count.header.id, question, ["Keep", "Type again"]);
    return false;
  }
  return recordLine(io, item, line.value, entry.kind === "add");
}

/** Journals a line, then shows it; false when the journal could not keep it. */
async function recordLine(io: StocktakeIo, item: StockItem, line: CountLine, added: boolean): Promise<boolean> {
  const countId = data(io).count?.header.id;
  if (!countId) return false;
  const ok = await withJournal(io, `Counting ${item.name}`, (j) => {
    j.recordLine(countId, line);
    return true;
  });
  if (!ok) return false;
  io.dispatch({ type: "line-recorded", countId, line, added });
  return true;
}

/**
 * The manager's answer to the counting line's question: `yes` adds the quantity to what is
 * counted (or keeps a count far from the books), `no` replaces the count with it (or drops the
 * far count, nothing recorded).
 */
export async function answerQuestion(io: StocktakeIo, yes: boolean | undefined): Promise<void> {
  const s = data(io);
  const q = s.question;
  const item = q ? s.count?.items.get(q.variationId) : undefined;
  io.dispatch({ type: "question-closed" });
  if (!q || !item || !s.count) return;
  if (q.kind === "add-or-replace" && yes === undefined) {
    const now = s.count.lines[s.count.lineAt.get(item.variationId) ?? -1]?.quantity ?? "0";
    io.dispatch({
      type: "note",
      text: `${item.name}: ${formatQuantity(q.units)} not counted; the count stays ${now}.`,
    });
    return;
  }
  if (q.kind === "add-or-replace") {
    await countEntry(
      io,
      item,
      yes ? { kind: "add", units: q.units, said: true } : { kind: "set", units: q.units, said: true },
    );
    return;
  }
  if (!yes) {
    io.dispatch({ type: "note", text: `${item.name}: ${q.line.quantity} not counted; type the count again.` });
    return;
  }
  io.dispatch({ type: "far-kept", countId: s.count.header.id, variationId: item.variationId });
  await recordLine(io, item, q.line, q.added);
}

/** A scan or a code that matched an item: one unit added in scan = 1 unit mode, else its quantity asked. */
export async function scanned(io: StocktakeIo, item: StockItem): Promise<void> {
  const entry = scanEntry(data(io));
  if (entry) {
    await countEntry(io, item, entry);
    return;
  }
  const { prompt, count } = data(io);
  const waiting = prompt.kind === "quantity" ? count?.items.get(prompt.variationId) : undefined;
  const skipped = prompt.kind === "quantity" ? (prompt.skipped ?? []) : [];
  // The line was still asking the quantity of a scan: never let that item go uncounted unsaid,
  // nor the ones a burst of scans left out before it (each note would hide the one before).
  if (waiting?.variationId === item.variationId) {
    io.dispatch({ type: "quantity-asked", variationId: item.variationId, skipped });
    io.dispatch({ type: "note", text: `${item.name} scanned again: type how many (esc s: scan = 1 unit).` });
  } else if (waiting) {
    const left = [...skipped.filter((name) => name !== waiting.name), waiting.name];
    io.dispatch({ type: "quantity-asked", variationId: item.variationId, skipped: left });
    // How many first: on a narrow line the names are what is cut.
    const text =
      left.length === 1
        ? `${waiting.name} not counted: no quantity was typed.`
        : `${left.length} items not counted (no quantity was typed): ${AND.format(left)}.`;
    io.dispatch({ type: "note", text });
  } else {
    io.dispatch({ type: "quantity-asked", variationId: item.variationId });
  }
}

/** Names in a sentence: "A and B", "A, B, and C". */
const AND = new Intl.ListFormat("en", { type: "conjunction" });

/** Adds catalog entries found during the count to it (and to the journal). */
export async function rememberItems(io: StocktakeIo, items: readonly StockItem[]): Promise<void> {
  const count = data(io).count;
  const fresh = count ? items.filter((i) => !count.items.has(i.variationId)) : [];
  if (!count || fresh.length === 0) return;
  const countId = count.header.id;
  const ok = await withJournal(io, "Remembering an item", (j) => {
    j.addItems(countId, fresh);
    return true;
  });
  if (!ok) return;
  io.dispatch({ type: "items-found", countId, items: fresh });
  // From outside the scope: its books are read before its variance is shown.
  wantBooks(
    io,
    fresh.map((i) => i.variationId),
  );
}

/** A code or words the count does not know: asked of the service, then kept as unknown or searched by name. */
async function lookUp(io: StocktakeIo, reading: Extract<EntryReading, { kind: "unknown-code" | "words" }>) {
  const count = data(io).count;
  if (!count) return;
  const text = reading.kind === "words" ? reading.text : reading.code;
  const { client } = io.deps;
  const locationId = count.header.locationId;
  io.dispatch({ type: "looking-up", text });
  // Nothing back is a failure to ask (said in the status bar); `{ item: undefined }`, no such code.
  const asked = await io
    .get()
    .runRead(`Looking up ${text}`, async () => ({ item: await lookupCode(client, text, locationId) }), {
      quiet: true,
    })
    .finally(() => io.dispatch({ type: "looking-up", text: undefined }));
  const found = asked?.item;
  if (found) {
    await rememberItems(io, [found]);
    await scanned(io, data(io).count?.items.get(found.variationId) ?? found);
    return;
  }
  if (reading.kind === "unknown-code") {
    // Kept either way: a scan is never lost, and a code the service could not be asked about is resolved later.
    await keepUnknown(io, reading.code, asked === undefined);
    return;
  }
  if (asked === undefined) {
    io.dispatch({ type: "problem", text: `“${text}” was not looked up: the catalog could not be asked. Try again.` });
    return;
  }
  const matches = await io.get().runRead(`Searching for ${text}`, () => searchByName(client, text, locationId));
  if (!matches) return;
  if (matches.length === 0) io.dispatch({ type: "problem", text: `Nothing in the catalog matches “${text}”.` });
  else io.dispatch({ type: "pick-offered", query: text, items: matches });
}

async function keepUnknown(io: StocktakeIo, code: string, unanswered: boolean): Promise<void> {
  const count = data(io).count;
  if (!count) return;
  const countId = count.header.id;
  const at = io.deps.clock.now().toISOString();
  const unknown = await withJournal(io, "Keeping an unknown code", (j) => {
    j.recordUnknown(countId, code, at);
    return j.unknownCodes(countId);
  });
  if (unknown) io.dispatch({ type: "unknown-kept", countId, code, unknown, unanswered });
}
