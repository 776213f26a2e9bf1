/**
 * The Stocktake slice's I/O around a count: the location's counts from the journal, starting a
 * count (scope, counter, catalog and books read, header journaled), resuming and discarding it.
 */

import { plural } from "../domain/plural.js";
import { memberName } from "../domain/shifts.js";
import { type CountScope, describeScope, type StockItem } from "../domain/stocktake.js";
import { type CountHeader, OpenCountExists, type StocktakeJournal } from "../local/stocktake-journal.js";
import { timeZoneOf } from "./shell-slice.js";
import { wantUnknownBooks } from "./stocktake-books.js";
import { data, locationOf, merchantOf, type StocktakeIo, withJournal } from "./stocktake-io.js";
import { loadedCountOf } from "./stocktake-machine.js";
import { listCategories, loadScope, readExpected } from "./stocktake-source.js";

/** Reads the location's counts from the journal: the open one to offer, and the recent others. */
export async function refreshHome(io: StocktakeIo): Promise<void> {
  const loc = locationOf(io);
  if (!loc) return;
  const listed = await withJournal(io, "Reading the journal", (j) => j.list(200));
  if (!listed) return;
  const merchant = merchantOf(io);
  const mine = listed.filter((c) => c.locationId === loc.id && (!merchant || c.merchantId === merchant));
  const live = (c: { status: string }) => c.status === "open" || c.status === "committing";
  io.dispatch({
    type: "home-read",
    openHere: mine.find(live),
    recent: mine.filter((c) => !live(c)).slice(0, 20),
  });
}

/** Begins starting a count, or offers the location's open count first. */
export async function startNew(io: StocktakeIo): Promise<void> {
  await refreshHome(io);
  const open = data(io).openHere;
  if (open) {
    const text = `${open.id} is still open here: enter resumes it, c commits it, D discards it; then start another.`;
    io.dispatch({ type: "open-count-first", text });
    io.get().setStatus({ screen: "stocktake", kind: "rule", text });
    return;
  }
  io.dispatch({ type: "start-asked" });
}

/** What to count: a category or words or SKUs are asked next; a scope then asks who counts. */
export async function chooseScope(io: StocktakeIo, scope: CountScope | "category" | "search" | "skus") {
  if (scope === "category") {
    const categories = await io.get().runRead("Loading categories", () => listCategories(io.deps.client));
    if (categories) io.dispatch({ type: "categories-read", categories });
    return;
  }
  if (scope === "search" || scope === "skus") {
    io.dispatch({ type: "show", view: { kind: "start", step: scope } });
    return;
  }
  const loc = locationOf(io);
  if (!loc) return;
  const members = await io
    .get()
    .runRead("Loading the team", () =>
      io.deps.client.team
        .searchTeamMembers({ query: { filter: { location_ids: [loc.id], status: "ACTIVE" } }, limit: 200 })
        .all(),
    );
  if (!members) return;
  // The account owner first: with a personal access token, that is who is signed in.
  const sorted = [...members].sort(
    (a, b) => Number(b.is_owner === true) - Number(a.is_owner === true) || memberName(a).localeCompare(memberName(b)),
  );
  io.dispatch({ type: "members-read", members: sorted, scope });
}

/** The catalog entries of a scope and the books at the location, read together. */
async function readScope(io: StocktakeIo, locationId: string, scope: CountScope) {
  return io.get().runRead(`Reading the catalog for ${describeScope(scope)}`, async () => {
    const [s, books] = await Promise.all([
      loadScope(io.deps.client, locationId, scope),
      readExpected(io.deps.client, locationId),
    ]);
    return { ...s, books };
  });
}

/** Journals a count's header with its catalog entries and books; the open count instead, if there is one. */
function journalStart(
  io: StocktakeIo,
  j: StocktakeJournal,
  scope: CountScope,
  counterId: string,
  read: { items: StockItem[]; books: Awaited<ReturnType<typeof readExpected>> },
  blind: boolean,
): CountHeader | OpenCountExists {
  const loc = locationOf(io);
  const member = data(io).members.find((m) => m.id === counterId);
  const ids = new Set(read.items.map((i) => i.variationId));
  const expected = new Map([...read.books.counts].filter(([id]) => ids.has(id)));
  const now = io.deps.clock.now();
  try {
    const header = j.startCount(
      {
        merchantId: merchantOf(io),
        locationId: loc?.id ?? "",
        locationName: loc?.name ?? loc?.id ?? "",
        timeZone: timeZoneOf(io.get()),
        scope,
        counterId: member?.id ?? "",
        counterName: member ? memberName(member) : "",
        startedAt: now.toISOString(),
        blind,
      },
      read.items,
      expected,
      now,
    );
    // The next read of the books starts where this one ended, for the whole location.
    if (read.books.latest) j.putExpected(header.id, new Map(), read.books.latest);
    return header;
  } catch (err) {
    if (err instanceof OpenCountExists) return err;
    throw err;
  }
}

/**
 * Starts the count with its scope and counter: reads the catalog and the books, journals the
 * header. `blind`: the expected quantities stay hidden while counting (shown in the review).
 */
export async function startCount(
  io: StocktakeIo,
  counterId: string,
  options: { blind?: boolean } = {},
): Promise<string | undefined> {
  const view = data(io).view;
  const loc = locationOf(io);
  if (view.kind !== "start" || !view.scope || !loc) return "Choose what to count first.";
  const scope = view.scope;
  io.dispatch({ type: "busy", label: `Reading the catalog for ${describeScope(scope)}` });
  try {
    const read = await readScope(io, loc.id, scope);
    if (!read) return "The catalog could not be read; nothing was started.";
    if (read.items.length === 0) {
      return scope.kind === "skus"
        ? `None of those SKUs is in the catalog at ${loc.name}.`
        : `Nothing to count: ${describeScope(scope)} has no items at ${loc.name}.`;
    }
    const started = await withJournal(io, "Starting the count", (j) => {
      const header = journalStart(io, j, scope, counterId, read, options.blind === true);
      return header instanceof OpenCountExists ? header : { header, record: j.load(header.id) };
    });
    if (!started) return "The count could not be started.";
    if (started instanceof OpenCountExists) {
      await refreshHome(io);
      io.dispatch({ type: "show", view: { kind: "home" } });
      return started.message;
    }
    if (!started.record) return "The count could not be started.";
    const note =
      read.missing.length > 0
        ? `Not in the catalog: ${read.missing.join(", ")}.`
        : `Counting ${plural(read.items.length, "item")}: scan or type a code.`;
    io.dispatch({ type: "count-opened", count: loadedCountOf(started.record), view: "count", note });
    const text = `Started ${started.header.id}: ${describeScope(scope)} at ${loc.name}.`;
    io.get().setStatus({ screen: "stocktake", kind: "info", text });
    return undefined;
  } finally {
    io.dispatch({ type: "busy", label: undefined });
  }
}

/** Opens the location's open count (resume), including a commit that stopped halfway. */
export async function resumeCount(io: StocktakeIo): Promise<void> {
  const id = data(io).openHere?.id ?? data(io).count?.header.id;
  if (!id) return;
  const record = await withJournal(io, "Opening the count", (j) => j.load(id));
  if (!record) return;
  const count = loadedCountOf(record);
  const n = count.lines.length;
  const committing = count.header.status === "committing";
  const note = `Resumed ${count.header.id}: ${plural(n, "line")} counted so far.`;
  io.dispatch({ type: "count-opened", count, view: committing ? "review" : "count", note });
  // A rule said while the count was closed ("Resume the open count first") holds no more.
  if (io.get().status.kind === "rule") io.get().setStatus({ kind: "idle" });
  if (committing) {
    io.get().setStatus({
      screen: "stocktake",
      kind: "rule",
      text: "This count's commit stopped halfway: c finishes it (requests already accepted are not counted twice).",
    });
  } else {
    // Items that joined from outside the scope before the terminal closed, their books not read.
    wantUnknownBooks(io);
    void io.get().stocktakeRefreshExpected({ quiet: true });
  }
}

/** Discards the open count; it stays in the journal, marked discarded. */
export async function discardCount(io: StocktakeIo): Promise<void> {
  const id = data(io).openHere?.id ?? data(io).count?.header.id;
  if (!id) return;
  const done = await withJournal(io, "Discarding the count", (j) => {
    j.discard(id);
    return true;
  });
  if (!done) return;
  io.dispatch({ type: "discarded", countId: id });
  io.get().setStatus({
    screen: "stocktake",
    kind: "info",
    text: `Discarded ${id}; it stays in the journal as discarded.`,
  });
  await refreshHome(io);
}
