import { memberName } from "../domain/shifts.js";
import {
  applyCountEntry,
  type CountEntry,
  type CountLine,
  type CountScope,
  describeScope,
  type ExpectedCount,
  findByCode,
  looksLikeCode,
  normalizeUpc,
  parseCountEntry,
  type StockItem,
  type UncountedChoice,
} from "../domain/stocktake.js";
import { localTime } from "../domain/time.js";
import type { InventoryChange, TeamMember } from "../spec/generated/types.js";
import { type WriteResult, writeProblem } from "./errors.js";
import { nothingToExport } from "./export-csv.js";
import { timeZoneOf } from "./shell-slice.js";
import { type CommitOutcome, type CommitProgress, planCommit, runCommit } from "./stocktake-commit.js";
import {
  type CountHeader,
  type CountListing,
  CountStateError,
  journalPath,
  OpenCountExists,
  openJournal,
  type StocktakeJournal,
  type UnknownCode,
} from "./stocktake-journal.js";
import { itemsCsvOfRecord, summaryCsvOfRecord } from "./stocktake-review.js";
import {
  type CategoryChoice,
  itemHistory,
  listCategories,
  loadScope,
  lookupCode,
  readExpected,
  searchByName,
} from "./stocktake-source.js";
import type { SliceCreator } from "./store.js";

/** What the Stocktake screen shows. */
export type StocktakeView =
  /** The location's open count (offered for resume, commit or discard) and recent counts. */
  | { kind: "home" }
  /** Starting a count: what to count, then who counts. */
  | { kind: "start"; step: "kind" | "category" | "search" | "skus" | "counter"; scope?: CountScope }
  /** Counting: the input line and the lines counted, most recent first. */
  | { kind: "count" }
  /** Review before commit: lines by absolute variance value, totals, uncounted items. */
  | { kind: "review" }
  /** The codes that matched nothing. */
  | { kind: "unknown" }
  /** One item's counts and adjustments, newest first. */
  | { kind: "history"; variationId: string; back: "count" | "review" }
  /** The commit: progress, then how it ended. */
  | { kind: "commit" };

/** What the counting line expects next. */
export type CountPrompt =
  | { kind: "code" }
  | { kind: "quantity"; variationId: string }
  /** A name search found several items: pick one. */
  | { kind: "pick"; query: string; items: StockItem[]; resolving?: string };

/** The answer to the last entry, shown under the counting line. */
export type CountFeedback =
  | { kind: "counted"; variationId: string; quantity: string; added: boolean }
  | { kind: "unknown"; code: string }
  | { kind: "problem"; text: string }
  | { kind: "info"; text: string };

/** A count the screen has open: the journal's record, kept in memory so a scan needs no round trip. */
export interface LoadedCount {
  header: CountHeader;
  items: Map<string, StockItem>;
  bySku: Map<string, StockItem>;
  byUpc: Map<string, StockItem>;
  scope: string[];
  expected: Map<string, ExpectedCount>;
  /** In the order first counted. */
  lines: CountLine[];
  /** Position of each variation's line in `lines`. */
  lineAt: Map<string, number>;
  unknown: UnknownCode[];
  /** The latest `calculated_at` of the books' quantities of the count's items: "expected last changed". */
  expectedChangedAt: string | undefined;
}

/** Data of the Stocktake screen. */
export interface StocktakeData {
  view: StocktakeView;
  count: LoadedCount | undefined;
  /** The open (or half-committed) count at the location, when none is loaded. */
  openHere: CountListing | undefined;
  /** Recent counts at the location. */
  recent: CountListing[];
  categories: CategoryChoice[];
  members: TeamMember[];
  prompt: CountPrompt;
  feedback: CountFeedback | undefined;
  /** Whether the counting line has the keyboard (esc lets go of it for the screen's keys). */
  typing: boolean;
  commit: { progress: CommitProgress; outcome: CommitOutcome | undefined } | undefined;
  history: { variationId: string; changes: InventoryChange[] | undefined } | undefined;
  /** A form open over the view. */
  form:
    | { kind: "none" }
    | { kind: "edit"; variationId: string }
    | { kind: "export"; what: "items" | "summary"; countId: string }
    | { kind: "resolve"; code: string };
  busy: string | undefined;
}

/** The Stocktake slice. */
export interface StocktakeSlice {
  stocktake: StocktakeData;
  /** Reads the journal for the location: an open count to offer, and recent counts. */
  loadStocktakeHome(): Promise<void>;
  stocktakeShow(view: StocktakeView): void;
  /** Begins starting a count (or offers the open one first). */
  stocktakeNew(): Promise<void>;
  stocktakeChooseScope(scope: CountScope | "category" | "search" | "skus"): Promise<void>;
  /** Starts the count with its scope and counter: reads the catalog and the books, journals the header. */
  stocktakeStart(counterId: string): Promise<string | undefined>;
  /** Opens the location's open count (resume), including a commit that stopped halfway. */
  stocktakeResume(): Promise<void>;
  stocktakeDiscard(): Promise<void>;
  /** One entry of the counting line: a code, a quantity, +N, or words to search. */
  stocktakeSubmit(text: string): Promise<void>;
  stocktakePick(index: number): Promise<void>;
  stocktakeCancelPrompt(): void;
  stocktakeSetTyping(typing: boolean): void;
  stocktakeToggleScanOne(): void;
  stocktakeSetUncounted(choice: UncountedChoice): void;
  /** Sets a line's count from the review (any line is editable). */
  stocktakeSetLine(variationId: string, text: string): Promise<string | undefined>;
  stocktakeRemoveLine(variationId: string): void;
  stocktakeDismissUnknown(code: string): void;
  /** Looks up what an unknown code is (a SKU, UPC or words) and counts it as that item. */
  stocktakeResolveUnknown(code: string, text: string): Promise<string | undefined>;
  /** Reads the books' quantities changed since the last read (`updated_after`). */
  stocktakeRefreshExpected(options?: { quiet?: boolean }): Promise<void>;
  stocktakeHistory(variationId: string): Promise<void>;
  stocktakeCommit(): Promise<void>;
  stocktakeOpenForm(form: StocktakeData["form"]): void;
  stocktakeExportPath(what: "items" | "summary", countId: string): string;
  /** Writes the count's items or summary as CSV through the shell's `exportCsv`. */
  stocktakeExport(what: "items" | "summary", countId: string, typed: string): Promise<WriteResult<string[]>>;
  /** Leaves the loaded count (it stays in the journal). */
  stocktakeClose(): void;
  /** Another location: the count of the old one stays in the journal; this one's open count is offered. */
  stocktakeLocationChanged(): Promise<void>;
}

const INITIAL: StocktakeData = {
  view: { kind: "home" },
  count: undefined,
  openHere: undefined,
  recent: [],
  categories: [],
  members: [],
  prompt: { kind: "code" },
  feedback: undefined,
  typing: true,
  commit: undefined,
  history: undefined,
  form: { kind: "none" },
  busy: undefined,
};

function indexBy(items: Iterable<StockItem>) {
  const bySku = new Map<string, StockItem>();
  const byUpc = new Map<string, StockItem>();
  for (const it of items) {
    if (it.sku) {
      bySku.set(it.sku, it);
      bySku.set(it.sku.toUpperCase(), it);
    }
    if (it.upc) {
      byUpc.set(it.upc, it);
      byUpc.set(normalizeUpc(it.upc), it);
    }
  }
  return { bySku, byUpc };
}

function latestOf(expected: ReadonlyMap<string, ExpectedCount>, ids: Iterable<string>): string | undefined {
  let latest: string | undefined;
  for (const id of ids) {
    const at = expected.get(id)?.calculatedAt;
    if (at && (!latest || at > latest)) latest = at;
  }
  return latest;
}

/** Builds the Stocktake slice. */
export const createStocktakeSlice: SliceCreator<StocktakeSlice> = (set, get, deps) => {
  const patch = (p: Partial<StocktakeData>) => set((s) => ({ stocktake: { ...s.stocktake, ...p } }));
  const data = () => get().stocktake;
  let journal: Promise<StocktakeJournal> | undefined;
  const openTheJournal = () => {
    journal ??= openJournal(journalPath(deps.dataDir)).catch((err: unknown) => {
      journal = undefined;
      throw err;
    });
    return journal;
  };
  /** Runs a journal step; a failure (a full disk, a locked file) is said in words and nothing is acknowledged. */
  const withJournal = async <T>(
    what: string,
    step: (j: StocktakeJournal) => T | Promise<T>,
  ): Promise<T | undefined> => {
    try {
      return await step(await openTheJournal());
    } catch (err) {
      if (err instanceof CountStateError) {
        patch({ feedback: { kind: "problem", text: err.message } });
        get().setStatus({ kind: "rule", text: err.message });
        return undefined;
      }
      const text = `${what}: the journal could not be written, so nothing was recorded.`;
      patch({ feedback: { kind: "problem", text } });
      get().setStatus({ kind: "error", text, details: err instanceof Error ? err.message : String(err) });
      return undefined;
    }
  };
  const location = () => {
    const s = get();
    const loc = s.locations.find((l) => l.id === s.locationId);
    return loc?.id ? { ...loc, id: loc.id } : undefined;
  };
  const merchantId = () => get().merchantId ?? location()?.merchant_id ?? "";
  const now = () => deps.clock.now();
  // Entries are handled one after another, in the order typed: a scan that needs a look-up at
  // the service must not be overtaken by the quantity typed after it.
  let queue: Promise<void> = Promise.resolve();

  const setCount = (count: LoadedCount | undefined, p: Partial<StocktakeData> = {}) => patch({ count, ...p });

  const loadRecord = (j: StocktakeJournal, countId: string): LoadedCount | undefined => {
    const record = j.load(countId);
    if (!record) return undefined;
    const { bySku, byUpc } = indexBy(record.items.values());
    return {
      header: record.header,
      items: record.items,
      bySku,
      byUpc,
      scope: record.scope,
      expected: record.expected,
      lines: record.lines,
      lineAt: new Map(record.lines.map((l, i) => [l.variationId, i])),
      unknown: record.unknown,
      expectedChangedAt: latestOf(record.expected, record.items.keys()),
    };
  };

  /** Journals a line's new count, then shows it. */
  const record = async (item: StockItem, quantity: string, added: boolean): Promise<boolean> => {
    const count = data().count;
    if (!count) return false;
    const line: CountLine = {
      variationId: item.variationId,
      quantity,
      countedAt: now().toISOString(),
      countedBy: count.header.counterId,
      expected: count.expected.get(item.variationId)?.quantity ?? "0",
    };
    const ok = await withJournal(`Counting ${item.name}`, (j) => {
      j.recordLine(count.header.id, line);
      return true;
    });
    if (!ok) return false;
    const current = data().count;
    if (!current || current.header.id !== count.header.id) return false;
    const at = current.lineAt.get(item.variationId);
    const lines = [...current.lines];
    if (at === undefined) {
      current.lineAt.set(item.variationId, lines.length);
      lines.push(line);
    } else lines[at] = line;
    setCount(
      { ...current, lines },
      { feedback: { kind: "counted", variationId: item.variationId, quantity, added }, prompt: { kind: "code" } },
    );
    return true;
  };

  const applyTo = async (item: StockItem, entry: CountEntry): Promise<void> => {
    const count = data().count;
    if (!count) return;
    const at = count.lineAt.get(item.variationId);
    const so = at === undefined ? undefined : count.lines[at]?.quantity;
    const next = applyCountEntry(so, entry);
    if (!next.ok) {
      patch({ feedback: { kind: "problem", text: `${item.name}: ${next.problem}` } });
      return;
    }
    await record(item, next.value, entry.kind === "add");
  };

  /** A scan or a typed code that matched an item: +1 in scan = 1 unit mode, else ask its quantity. */
  const scanned = async (item: StockItem): Promise<void> => {
    const count = data().count;
    if (!count) return;
    if (count.header.scanOne) {
      await applyTo(item, { kind: "add", units: 100_000 });
      return;
    }
    patch({ prompt: { kind: "quantity", variationId: item.variationId }, feedback: undefined });
  };

  /** Adds catalog entries found during the count to its cache (and the journal). */
  const remember = async (items: readonly StockItem[]): Promise<void> => {
    const count = data().count;
    if (!count || items.length === 0) return;
    const fresh = items.filter((i) => !count.items.has(i.variationId));
    if (fresh.length === 0) return;
    await withJournal("Remembering an item", (j) => j.addItems(count.header.id, fresh));
    const current = data().count;
    if (!current) return;
    for (const it of fresh) {
      current.items.set(it.variationId, it);
      if (it.sku) {
        current.bySku.set(it.sku, it);
        current.bySku.set(it.sku.toUpperCase(), it);
      }
      if (it.upc) {
        current.byUpc.set(it.upc, it);
        current.byUpc.set(normalizeUpc(it.upc), it);
      }
    }
    setCount({ ...current });
  };

  const keepUnknown = async (code: string): Promise<void> => {
    const count = data().count;
    if (!count) return;
    const at = now().toISOString();
    const ok = await withJournal("Keeping an unknown code", (j) => {
      j.recordUnknown(count.header.id, code, at);
      return j.unknownCodes(count.header.id);
    });
    if (!ok) return;
    const current = data().count;
    if (current)
      setCount({ ...current, unknown: ok }, { feedback: { kind: "unknown", code }, prompt: { kind: "code" } });
  };

  const handle = async (raw: string): Promise<void> => {
    const text = raw.trim();
    const count = data().count;
    if (!text || !count) return;
    if (count.header.status !== "open") {
      patch({ feedback: { kind: "problem", text: "This count is being committed; its lines can no longer change." } });
      return;
    }
    const prompt = data().prompt;
    if (prompt.kind === "quantity") {
      const item = count.items.get(prompt.variationId);
      if (item) {
        const entry = parseCountEntry(text, item.precision);
        if (entry.ok) {
          await applyTo(item, entry.value);
          return;
        }
        // Not a quantity: maybe the next scan, when the last one's quantity was left out.
        const hit = findByCode(text, count.bySku, count.byUpc);
        if (hit) {
          await scanned(hit);
          return;
        }
        if (/^[\d+\-.,\s]+$/.test(text)) {
          patch({ feedback: { kind: "problem", text: `${item.name}: ${entry.problem}` } });
          return;
        }
      }
    }
    const hit = findByCode(text, count.bySku, count.byUpc);
    if (hit) {
      await scanned(hit);
      return;
    }
    // `+2` right after a count adds to the item just counted (the same item on another shelf).
    const last = data().feedback;
    if (/^[+-]/.test(text) && last?.kind === "counted") {
      const item = count.items.get(last.variationId);
      const entry = item ? parseCountEntry(text, item.precision) : undefined;
      if (item && entry?.ok) {
        await applyTo(item, entry.value);
        return;
      }
      if (entry && !entry.ok) {
        patch({ feedback: { kind: "problem", text: `${item?.name}: ${entry.problem}` } });
        return;
      }
    }
    const locationId = count.header.locationId;
    const found = await get().runRead(`Looking up ${text}`, () => lookupCode(deps.client, text, locationId), {
      quiet: true,
    });
    if (found) {
      await remember([found]);
      const fresh = data().count?.items.get(found.variationId) ?? found;
      await scanned(fresh);
      return;
    }
    if (looksLikeCode(text)) {
      await keepUnknown(text);
      return;
    }
    const matches = await get().runRead(`Searching for ${text}`, () => searchByName(deps.client, text, locationId));
    if (!matches) return;
    if (matches.length === 0) {
      patch({ feedback: { kind: "problem", text: `Nothing in the catalog matches “${text}”.` } });
      return;
    }
    patch({ prompt: { kind: "pick", query: text, items: matches }, typing: false });
  };

  const refreshHome = async () => {
    const loc = location();
    if (!loc) return;
    const listed = await withJournal("Reading the journal", (j) => j.list(200));
    if (!listed) return;
    const mine = listed.filter((c) => c.locationId === loc.id && (!merchantId() || c.merchantId === merchantId()));
    patch({
      openHere: mine.find((c) => c.status === "open" || c.status === "committing"),
      recent: mine.filter((c) => c.status !== "open" && c.status !== "committing").slice(0, 20),
    });
  };

  return {
    stocktake: INITIAL,

    async loadStocktakeHome() {
      await refreshHome();
    },

    stocktakeShow(view) {
      patch({ view, form: { kind: "none" }, ...(view.kind === "count" ? { typing: true } : {}) });
    },

    async stocktakeNew() {
      await refreshHome();
      const open = data().openHere;
      if (open) {
        const text = `${open.id} is still open here: enter resumes it, c commits it, D discards it; then start another.`;
        patch({ view: { kind: "home" }, feedback: { kind: "info", text } });
        get().setStatus({ kind: "rule", text });
        return;
      }
      patch({ view: { kind: "start", step: "kind" }, feedback: undefined });
    },

    async stocktakeChooseScope(scope) {
      if (scope === "category") {
        const categories = await get().runRead("Loading categories", () => listCategories(deps.client));
        if (!categories) return;
        patch({ categories, view: { kind: "start", step: "category" } });
        return;
      }
      if (scope === "search" || scope === "skus") {
        patch({ view: { kind: "start", step: scope } });
        return;
      }
      const loc = location();
      if (!loc) return;
      const members = await get().runRead("Loading the team", () =>
        deps.client.team
          .searchTeamMembers({ query: { filter: { location_ids: [loc.id], status: "ACTIVE" } }, limit: 200 })
          .all(),
      );
      if (!members) return;
      // The account owner first: with a personal access token, that is who is signed in.
      const sorted = [...members].sort(
        (a, b) =>
          Number(b.is_owner === true) - Number(a.is_owner === true) || memberName(a).localeCompare(memberName(b)),
      );
      patch({ members: sorted, view: { kind: "start", step: "counter", scope } });
    },

    async stocktakeStart(counterId) {
      const view = data().view;
      const loc = location();
      if (view.kind !== "start" || !view.scope || !loc) return "Choose what to count first.";
      const scope = view.scope;
      const member = data().members.find((m) => m.id === counterId);
      patch({ busy: `Reading the catalog for ${describeScope(scope)}` });
      try {
        const loaded = await get().runRead(`Reading the catalog for ${describeScope(scope)}`, async () => {
          const [s, books] = await Promise.all([
            loadScope(deps.client, loc.id, scope),
            readExpected(deps.client, loc.id),
          ]);
          return { ...s, books };
        });
        if (!loaded) return "The catalog could not be read; nothing was started.";
        if (loaded.items.length === 0) {
          return scope.kind === "skus"
            ? `None of those SKUs is in the catalog at ${loc.name}.`
            : `Nothing to count: ${describeScope(scope)} has no items at ${loc.name}.`;
        }
        const ids = new Set(loaded.items.map((i) => i.variationId));
        const expected = new Map([...loaded.books.counts].filter(([id]) => ids.has(id)));
        const header = await withJournal("Starting the count", (j) => {
          try {
            return j.startCount(
              {
                merchantId: merchantId(),
                locationId: loc.id,
                locationName: loc.name ?? loc.id,
                timeZone: timeZoneOf(get()),
                scope,
                counterId: member?.id ?? "",
                counterName: member ? memberName(member) : "",
                startedAt: now().toISOString(),
              },
              loaded.items,
              expected,
              now(),
            );
          } catch (err) {
            if (err instanceof OpenCountExists) return err;
            throw err;
          }
        });
        if (!header) return "The count could not be started.";
        if (header instanceof OpenCountExists) {
          await refreshHome();
          patch({ view: { kind: "home" } });
          return header.message;
        }
        const j = await openTheJournal();
        // The next read of the books starts where this one ended, for the whole location.
        if (loaded.books.latest) j.putExpected(header.id, new Map(), loaded.books.latest);
        const count = loadRecord(j, header.id);
        setCount(count, {
          view: { kind: "count" },
          prompt: { kind: "code" },
          typing: true,
          feedback:
            loaded.missing.length > 0
              ? { kind: "info", text: `Not in the catalog: ${loaded.missing.join(", ")}.` }
              : { kind: "info", text: `Counting ${loaded.items.length} items: scan or type a code.` },
          openHere: undefined,
        });
        get().setStatus({ kind: "info", text: `Started ${header.id}: ${describeScope(scope)} at ${loc.name}.` });
        return undefined;
      } finally {
        patch({ busy: undefined });
      }
    },

    async stocktakeResume() {
      const id = data().openHere?.id ?? data().count?.header.id;
      if (!id) return;
      const count = await withJournal("Opening the count", (j) => loadRecord(j, id));
      if (!count) return;
      setCount(count, {
        view: count.header.status === "committing" ? { kind: "review" } : { kind: "count" },
        prompt: { kind: "code" },
        typing: true,
        feedback: {
          kind: "info",
          text: `Resumed ${count.header.id}: ${count.lines.length} line${count.lines.length === 1 ? "" : "s"} counted so far.`,
        },
      });
      if (count.header.status === "committing") {
        get().setStatus({
          kind: "rule",
          text: "This count's commit stopped halfway: c finishes it (requests already accepted are not counted twice).",
        });
      } else void get().stocktakeRefreshExpected({ quiet: true });
    },

    async stocktakeDiscard() {
      const id = data().openHere?.id ?? data().count?.header.id;
      if (!id) return;
      const done = await withJournal("Discarding the count", (j) => {
        j.discard(id);
        return true;
      });
      if (!done) return;
      if (data().count?.header.id === id) setCount(undefined);
      patch({ view: { kind: "home" }, feedback: undefined });
      get().setStatus({ kind: "info", text: `Discarded ${id}; it stays in the journal as discarded.` });
      await refreshHome();
    },

    stocktakeSubmit(text) {
      queue = queue.then(() => handle(text)).catch(() => undefined);
      return queue;
    },

    async stocktakePick(index) {
      const prompt = data().prompt;
      if (prompt.kind !== "pick") return;
      const item = prompt.items[index];
      if (!item) return;
      await remember([item]);
      const fresh = data().count?.items.get(item.variationId) ?? item;
      patch({ typing: true, prompt: { kind: "code" } });
      if (prompt.resolving) {
        const code = prompt.resolving;
        const count = data().count;
        if (count) {
          await withJournal("Resolving a code", (j) => j.resolveUnknown(count.header.id, code, fresh.variationId));
          const current = data().count;
          if (current) {
            setCount({
              ...current,
              unknown: current.unknown.map((u) => (u.code === code ? { ...u, resolvedTo: fresh.variationId } : u)),
            });
          }
        }
        patch({ view: { kind: "count" } });
      }
      patch({ prompt: { kind: "quantity", variationId: fresh.variationId }, feedback: undefined });
    },

    stocktakeCancelPrompt() {
      patch({ prompt: { kind: "code" }, typing: true, feedback: undefined });
    },

    stocktakeSetTyping(typing) {
      patch({ typing });
    },

    stocktakeToggleScanOne() {
      const count = data().count;
      if (count?.header.status !== "open") return;
      const scanOne = !count.header.scanOne;
      void withJournal("Changing the scan mode", (j) => j.updateSettings(count.header.id, { scanOne }));
      setCount(
        { ...count, header: { ...count.header, scanOne } },
        {
          feedback: {
            kind: "info",
            text: scanOne
              ? "Scan = 1 unit: every scan adds one."
              : "Scan, then type the quantity (or +N to add to what is counted).",
          },
        },
      );
    },

    stocktakeSetUncounted(choice) {
      const count = data().count;
      if (count?.header.status !== "open") return;
      void withJournal("Changing the uncounted items", (j) => j.updateSettings(count.header.id, { uncounted: choice }));
      setCount({ ...count, header: { ...count.header, uncounted: choice } });
    },

    async stocktakeSetLine(variationId, text) {
      const count = data().count;
      const item = count?.items.get(variationId);
      if (!count || !item) return "That item is not in this count.";
      if (count.header.status !== "open") return "This count is being committed; its lines can no longer change.";
      const entry = parseCountEntry(text, item.precision);
      if (!entry.ok) return entry.problem;
      const at = count.lineAt.get(variationId);
      const next = applyCountEntry(at === undefined ? undefined : count.lines[at]?.quantity, entry.value);
      if (!next.ok) return next.problem;
      const ok = await record(item, next.value, entry.value.kind === "add");
      if (!ok) return "The line was not recorded.";
      patch({ form: { kind: "none" } });
      return undefined;
    },

    stocktakeRemoveLine(variationId) {
      const count = data().count;
      if (!count || count.lineAt.get(variationId) === undefined) return;
      void withJournal("Removing a line", (j) => {
        j.removeLine(count.header.id, variationId);
        return true;
      }).then((ok) => {
        const current = data().count;
        if (!ok || !current) return;
        const lines = current.lines.filter((l) => l.variationId !== variationId);
        setCount(
          { ...current, lines, lineAt: new Map(lines.map((l, i) => [l.variationId, i])) },
          { feedback: { kind: "info", text: `Removed ${current.items.get(variationId)?.name ?? variationId}.` } },
        );
      });
    },

    stocktakeDismissUnknown(code) {
      const count = data().count;
      if (!count) return;
      void withJournal("Dismissing a code", (j) => {
        j.dismissUnknown(count.header.id, code);
        return true;
      }).then((ok) => {
        const current = data().count;
        if (ok && current) setCount({ ...current, unknown: current.unknown.filter((u) => u.code !== code) });
      });
    },

    async stocktakeResolveUnknown(code, text) {
      const count = data().count;
      if (!count) return "No count is open.";
      const t = text.trim();
      if (!t) return "Type the item's SKU, UPC or name.";
      const loc = count.header.locationId;
      const hit =
        findByCode(t, count.bySku, count.byUpc) ??
        (await get().runRead(`Looking up ${t}`, () => lookupCode(deps.client, t, loc), { quiet: true }));
      const items = hit ? [hit] : await get().runRead(`Searching for ${t}`, () => searchByName(deps.client, t, loc));
      if (!items || items.length === 0) return `Nothing in the catalog matches “${t}”.`;
      patch({ form: { kind: "none" }, view: { kind: "count" } });
      if (items.length === 1 && items[0]) {
        patch({ prompt: { kind: "pick", query: t, items, resolving: code } });
        await get().stocktakePick(0);
        return undefined;
      }
      patch({ prompt: { kind: "pick", query: t, items, resolving: code }, typing: false });
      return undefined;
    },

    async stocktakeRefreshExpected(options = {}) {
      const count = data().count;
      if (count?.header.status !== "open") return;
      const since = count.header.expectedSyncedAt;
      const fresh = await get().runRead(
        "Reading the books",
        () => readExpected(deps.client, count.header.locationId, since),
        options,
      );
      if (!fresh) return;
      const mine = new Map([...fresh.counts].filter(([id]) => count.items.has(id)));
      await withJournal("Recording the books", (j) => j.putExpected(count.header.id, mine, fresh.latest));
      const current = data().count;
      if (!current || current.header.id !== count.header.id) return;
      const expected = mine.size > 0 ? new Map([...current.expected, ...mine]) : current.expected;
      const latest = latestOf(mine, mine.keys());
      const syncedAt = fresh.latest && (!since || fresh.latest > since) ? fresh.latest : since;
      setCount({
        ...current,
        expected,
        header: { ...current.header, expectedSyncedAt: syncedAt },
        expectedChangedAt:
          latest && (!current.expectedChangedAt || latest > current.expectedChangedAt)
            ? latest
            : current.expectedChangedAt,
      });
    },

    async stocktakeHistory(variationId) {
      const count = data().count;
      if (!count) return;
      const back = data().view.kind === "review" ? "review" : "count";
      patch({ view: { kind: "history", variationId, back }, history: { variationId, changes: undefined } });
      const changes = await get().runRead("Reading the item's history", () =>
        itemHistory(deps.client, variationId, count.header.locationId),
      );
      if (changes && data().history?.variationId === variationId) patch({ history: { variationId, changes } });
    },

    async stocktakeCommit() {
      const count = data().count;
      if (!count) return;
      const id = count.header.id;
      if (count.header.status === "open" && count.lines.length === 0 && count.header.uncounted !== "zero") {
        get().setStatus({ kind: "rule", text: "Nothing to commit: no line has been counted." });
        return;
      }
      const progress: CommitProgress = {
        batchesDone: 0,
        batchesTotal: 0,
        linesDone: 0,
        linesTotal: 0,
        inFlight: 0,
        refused: 0,
      };
      patch({ view: { kind: "commit" }, commit: { progress, outcome: undefined } });
      const res = await get().runWrite(`stocktake:${id}`, `Committing ${id}`, async () => {
        const j = await openTheJournal();
        if (j.get(id)?.status === "open") planCommit(j, id, now(), deps.newIdempotencyKey);
        const header = j.get(id);
        if (header) setCount({ ...count, header });
        let last = "";
        return runCommit({
          journal: j,
          countId: id,
          client: deps.client,
          now,
          newKey: deps.newIdempotencyKey,
          onProgress: (p) => {
            // Only what the screen shows redraws it: requests settled, in flight, refused.
            const key = `${p.batchesDone}/${p.batchesTotal}/${p.inFlight}/${p.refused}`;
            if (key === last) return;
            last = key;
            patch({ commit: { progress: p, outcome: undefined } });
          },
        });
      });
      if (!res.ok) {
        const problem = res.error.kind === "failed" ? res.error.problem.headline : writeProblem(res.error);
        if (problem) {
          const outcome: CommitOutcome = {
            kind: "stopped",
            problem,
            details: res.error.kind === "failed" ? res.error.problem.details : undefined,
            progress: data().commit?.progress ?? progress,
          };
          patch({ commit: { progress: outcome.progress, outcome } });
        } else patch({ view: { kind: "review" } });
        return;
      }
      const outcome = res.value;
      const j = await openTheJournal();
      const reloaded = loadRecord(j, id);
      setCount(reloaded, {
        commit: {
          progress: outcome.kind === "stopped" ? outcome.progress : (data().commit?.progress ?? progress),
          outcome,
        },
      });
      if (outcome.kind === "committed") {
        get().setStatus({
          kind: "info",
          text: `Committed ${outcome.lines} lines of ${id}${outcome.refused.length ? `; ${outcome.refused.length} refused by the service` : ""}.`,
        });
      } else
        get().setStatus({
          kind: "error",
          text: outcome.problem,
          ...(outcome.details ? { details: outcome.details } : {}),
        });
    },

    stocktakeOpenForm(form) {
      patch({ form });
    },

    stocktakeExportPath(what, countId) {
      return get().exportTarget("", `${countId}-${what}.csv`);
    },

    async stocktakeExport(what, countId, typed) {
      const rec = await withJournal("Reading the count", (j) => j.load(countId));
      if (!rec) return nothingToExport(`There is no count ${countId} in the journal.`);
      const csv = what === "items" ? itemsCsvOfRecord(rec) : summaryCsvOfRecord(rec);
      const path = get().exportTarget(typed, `${countId}-${what}.csv`);
      const written = await get().exportCsv([
        { path, text: csv, what: `the ${what === "items" ? "items" : "summary"} of ${countId}` },
      ]);
      if (written.ok || written.error.kind === "exists") patch({ form: { kind: "none" } });
      return written;
    },

    stocktakeClose() {
      setCount(undefined, { view: { kind: "home" }, prompt: { kind: "code" }, feedback: undefined, commit: undefined });
      void refreshHome();
    },

    async stocktakeLocationChanged() {
      const count = data().count;
      if (count && count.header.locationId !== get().locationId) {
        setCount(undefined, {
          view: { kind: "home" },
          prompt: { kind: "code" },
          feedback: undefined,
          commit: undefined,
        });
      } else if (!count && data().view.kind !== "home") patch({ view: { kind: "home" } });
      await refreshHome();
    },
  };
};

/** "expected last changed 14:05" (local), or nothing before the books are read. */
export function expectedChangedText(count: LoadedCount | undefined, timeZone: string): string {
  if (!count?.expectedChangedAt) return "";
  return `expected last changed ${localTime(count.expectedChangedAt, timeZone)}`;
}

/** The counted quantity of a line, or undefined. */
export function countedOf(count: LoadedCount, variationId: string): string | undefined {
  const at = count.lineAt.get(variationId);
  return at === undefined ? undefined : count.lines[at]?.quantity;
}
