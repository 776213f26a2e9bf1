// The payouts screen's I/O: reads through runRead (the spinner, the status bar, the connection)
// and hands every answer to the pure machine (payouts-machine.ts). Nothing here decides what the
// screen shows; it only fetches, and drops answers that arrive after the question changed.

import { readStatement, statementRange } from "../domain/bank-statement.js";
import { type FormProblem, problemOn } from "../domain/form-problem.js";
import { reconcileStatement } from "../domain/payout-reconcile.js";
import { datedEntries, PAYOUTS_KEPT_FROM, weeklyFees } from "../domain/payouts.js";
import { plural } from "../domain/plural.js";
import type { StatementWords } from "../domain/statement-columns.js";
import { localDate } from "../domain/time.js";
import type { Location, Payout, PayoutEntry } from "../spec/generated/types.js";
import { mapLimit } from "./drawers-load.js";
import {
  ENTRY_READ_CONCURRENCY,
  isMissingPayoutsPermission,
  listPayoutsInRange,
  loadPayoutEntries,
  payoutsForStatement,
  readStatementText,
  statementCurrency,
  typedPath,
} from "./payouts-load.js";
import {
  initialPayoutsState,
  type PayoutsEvent,
  type PayoutsState,
  payoutsQueryKey,
  payoutsReducer,
  type StatementFields,
  statementRequest,
} from "./payouts-machine.js";
import { rangeFormProblem } from "./range-form.js";
import { coveredLocations, placeKey, timeZoneOf } from "./shell-slice.js";
import type { LoadedSliceCreator } from "./store.js";

/** The payouts slice: the machine's state, its dispatch, and the reads that feed it. */
export interface PayoutsSlice {
  payouts: PayoutsState;
  /** Applies one event to the screen's state. */
  payoutsDispatch(event: PayoutsEvent): void;
  /** The locations the list covers: the selected one, or every one (the location picker's All locations). */
  payoutsLocations(): Location[];
  /** Reads the list for the current filters (and today, when the range follows it). */
  loadPayouts(options?: { quiet?: boolean }): Promise<void>;
  /** Reads the list when it was read for other filters, or not at all. */
  loadPayoutsIfStale(): Promise<void>;
  /** Opens one payout: its entries, page by page. */
  openPayout(id: string): Promise<void>;
  /** Shows the fees over time, reading the entries of every payout of the range. */
  showPayoutFees(): Promise<void>;
  /** Reads the statement the form names and reconciles it against the payouts. */
  reconcilePayouts(): Promise<void>;
  /**
   * The statement form submitted: its fields checked, then read and reconciled; a problem keeps it
   * open (naming its field — no file given, a date format backroom cannot read — when it has one).
   */
  submitStatement(fields: Partial<StatementFields>): Promise<FormProblem>;
  /** The range form submitted: checked, then the list read; a problem keeps it open. */
  /** Shows the payouts of those days; a problem (naming the field a bad date was typed in) keeps the form open. */
  applyPayoutsRange(from: string, to: string): Promise<FormProblem>;
  /** What `r` reads again: the list, the open payout, the fees or the statement. */
  reloadPayouts(): Promise<void>;
}

/** The statement form's fields, where the app's manager names columns and the date format (no flags). */
const FORM_WORDS: StatementWords = {
  date: "the form's Date column",
  amount: "the form's Amount column",
  description: "the form's Description",
  nameColumns: "in the form's Date column and Amount column",
  giveFormat: "give the form's Date format",
};

/** Payouts whose entries are kept between views (a year of one location's payouts). */
const ENTRY_CACHE_LIMIT = 800;

type Get = Parameters<LoadedSliceCreator<PayoutsSlice>>[1];
type Deps = Parameters<LoadedSliceCreator<PayoutsSlice>>[2];

/** What the slice's reads share: the store, the machine's dispatch, the entries read so far. */
interface Ctx {
  get: Get;
  deps: Deps;
  dispatch(event: PayoutsEvent): void;
  /** Runs a read; a refusal for lack of PAYOUTS_READ is a state of the screen, not an error. */
  read<T>(label: string, fn: () => Promise<T>, quiet?: boolean): Promise<T | undefined>;
  /** Entries of a payout do not change once it is made: read once, kept for the fees and detail. */
  entries: Map<string, PayoutEntry[]>;
  remember(id: string, list: PayoutEntry[]): void;
  /** Each read carries a ticket; an answer that arrives after a newer question is dropped. */
  tickets: { detail: number; fees: number };
  today(): string;
}

/** Builds the payouts slice. */
export const createPayoutsSlice: LoadedSliceCreator<PayoutsSlice> = (set, get, deps) => {
  const dispatch = (event: PayoutsEvent) => set((s) => ({ payouts: payoutsReducer(s.payouts, event) }));
  const entries = new Map<string, PayoutEntry[]>();
  const ctx: Ctx = {
    get,
    deps,
    dispatch,
    entries,
    remember(id, list) {
      if (entries.size >= ENTRY_CACHE_LIMIT) entries.clear();
      entries.set(id, list);
    },
    tickets: { detail: 0, fees: 0 },
    today: () => localDate(deps.clock.now(), timeZoneOf(get())),
    async read(label, fn, quiet = false) {
      const r = await get().runRead(
        label,
        async () => {
          try {
            return { ok: true as const, value: await fn() };
          } catch (err) {
            if (isMissingPayoutsPermission(err)) return { ok: false as const };
            throw err;
          }
        },
        { quiet },
      );
      if (r && !r.ok) dispatch({ type: "permission-missing" });
      return r?.ok ? r.value : undefined;
    },
  };
  // Another location, or all of them (or one again): what was read is of another place.
  const moved = () => {
    ctx.tickets.detail++;
    ctx.tickets.fees++;
    dispatch({ type: "location-changed" });
  };
  deps.events.on("location-changed", moved);
  deps.events.on("all-locations-changed", moved);
  return {
    // Today where the selected store is (see createV1Slice), not UTC's date.
    payouts: initialPayoutsState(ctx.today()),
    payoutsDispatch: dispatch,
    payoutsLocations: () => coveredLocations(get()),
    loadPayouts: (options = {}) => loadPayouts(ctx, options.quiet ?? false),
    async loadPayoutsIfStale() {
      dispatch({ type: "today", today: ctx.today() });
      const s = get();
      if (s.payouts.readFor !== payoutsQueryKey(s.payouts.filters, placeKey(s))) await s.loadPayouts();
    },
    openPayout: (id) => openPayout(ctx, id),
    showPayoutFees: () => showPayoutFees(ctx),
    reconcilePayouts: () => reconcilePayouts(ctx),
    async submitStatement(fields) {
      if (get().payouts.form.kind !== "statement") dispatch({ type: "open-form", form: "statement" });
      dispatch({ type: "edit-form", patch: fields });
      await reconcilePayouts(ctx);
      const form = get().payouts.form;
      return form.kind === "statement" ? problemOn(form.problem, form.problemField) : undefined;
    },
    async applyPayoutsRange(from, to) {
      if (get().payouts.form.kind !== "range") dispatch({ type: "open-form", form: "range" });
      dispatch({ type: "edit-form", patch: { from, to } });
      dispatch({ type: "submit-form", today: ctx.today() });
      const form = get().payouts.form;
      if (form.kind === "range") return rangeFormProblem(form);
      await (get().payouts.view === "fees" ? showPayoutFees(ctx) : loadPayouts(ctx, false));
      return undefined;
    },
    reloadPayouts: () => reloadPayouts(ctx),
  };
};

async function loadPayouts(ctx: Ctx, quiet: boolean): Promise<void> {
  ctx.dispatch({ type: "today", today: ctx.today() });
  const s = ctx.get();
  const locations = s.payoutsLocations();
  if (locations.length === 0) return;
  const f = s.payouts.filters;
  const key = payoutsQueryKey(f, placeKey(s));
  const range = { from: f.from, to: f.to };
  // A range wholly before January 2021 asks the service nothing: it keeps no payouts that old.
  if (range.to < PAYOUTS_KEPT_FROM) {
    ctx.dispatch({ type: "payouts-read", key, payouts: [] });
    return;
  }
  const label = s.allLocations ? "Reading the payouts of every location" : "Reading payouts";
  const payouts = await ctx.read(label, () => listPayoutsInRange(ctx.deps.client, { locations, ...range }), quiet);
  const now = ctx.get();
  if (payouts && payoutsQueryKey(now.payouts.filters, placeKey(now)) === key) {
    ctx.dispatch({ type: "payouts-read", key, payouts });
  }
}

async function openPayout(ctx: Ctx, id: string): Promise<void> {
  const ticket = ++ctx.tickets.detail;
  ctx.dispatch({ type: "open-detail", id });
  const still = () => ticket === ctx.tickets.detail && ctx.get().payouts.detail?.payoutId === id;
  if (!ctx.get().payouts.detail?.payout) {
    const r = await ctx.read("Reading the payout", () => ctx.deps.client.payouts.getPayout(id));
    if (!still()) return;
    if (r?.payout) ctx.dispatch({ type: "payout-read", payout: r.payout });
  }
  const known = ctx.entries.get(id);
  if (known) {
    ctx.dispatch({ type: "entries-read", payoutId: id, entries: known, complete: true });
    return;
  }
  // Page by page: the first hundred entries show while the rest are on their way.
  const all = await ctx.read("Reading the payout's entries", () =>
    loadPayoutEntries(ctx.deps.client, id, (soFar, done) => {
      if (still()) ctx.dispatch({ type: "entries-read", payoutId: id, entries: [...soFar], complete: done });
    }),
  );
  if (all) ctx.remember(id, all);
  else if (still()) ctx.dispatch({ type: "entries-stopped", payoutId: id });
}

async function showPayoutFees(ctx: Ctx): Promise<void> {
  ctx.dispatch({ type: "show-view", view: "fees" });
  const before = ctx.get();
  // The fees are of the list's payouts: read the list first when it is of other dates or places.
  if (before.payouts.readFor !== payoutsQueryKey(before.payouts.filters, placeKey(before))) {
    await loadPayouts(ctx, false);
  }
  const s = ctx.get();
  const key = payoutsQueryKey(s.payouts.filters, placeKey(s));
  if (s.payouts.readFor !== key) return;
  if (s.payouts.fees?.readFor === key && s.payouts.fees.weeks) return;
  // Failed payouts are left out: their money comes back in a later payout's entries.
  const payouts = (s.payouts.payouts ?? []).filter((p) => p.status !== "FAILED");
  const ticket = ++ctx.tickets.fees;
  const missing = payouts.filter((p) => !ctx.entries.has(p.id));
  let done = payouts.length - missing.length;
  ctx.dispatch({ type: "fees-progress", key, done, total: payouts.length });
  const ok = await ctx.read(`Reading the entries of ${plural(payouts.length, "payout")}`, async () => {
    // A few payouts at a time: a year of them is hundreds of reads.
    await mapLimit(missing, ENTRY_READ_CONCURRENCY, async (p) => {
      if (ticket !== ctx.tickets.fees) return;
      ctx.remember(p.id, await loadPayoutEntries(ctx.deps.client, p.id));
      done += 1;
      if (ticket === ctx.tickets.fees) ctx.dispatch({ type: "fees-progress", key, done, total: payouts.length });
    });
    return ticket === ctx.tickets.fees;
  });
  if (ticket !== ctx.tickets.fees) return;
  if (!ok) {
    ctx.dispatch({ type: "fees-stopped", key });
    return;
  }
  const zoneOf = (p: Payout) => s.locations.find((l) => l.id === p.location_id)?.timezone ?? "UTC";
  const rows = payouts.flatMap((p) => datedEntries(ctx.entries.get(p.id) ?? [], zoneOf(p)));
  const dates = rows.map((r) => r.date).sort();
  const range = { from: dates[0] ?? s.payouts.filters.from, to: dates.at(-1) ?? s.payouts.filters.to };
  const startOfWeek = s.workweek?.start_of_week ?? "MON";
  ctx.dispatch({ type: "fees-read", key, weeks: weeklyFees(rows, range, startOfWeek) });
}

async function reloadPayouts(ctx: Ctx): Promise<void> {
  // The locations never came (the service did not answer at start): they are read first.
  if (ctx.get().locations.length === 0) await ctx.get().init();
  const p = ctx.get().payouts;
  if (p.view === "detail" && p.detail) {
    // The payout's status may have moved on (sent → paid); its entries are read again too.
    ctx.entries.delete(p.detail.payoutId);
    ctx.dispatch({ type: "detail-reset" });
    await Promise.all([loadPayouts(ctx, true), openPayout(ctx, p.detail.payoutId)]);
    return;
  }
  if (p.view === "reconcile" && p.statement) {
    ctx.dispatch({ type: "open-form", form: "statement" });
    await reconcilePayouts(ctx);
    return;
  }
  await loadPayouts(ctx, false);
  if (p.view === "fees") await showPayoutFees(ctx);
}

async function reconcilePayouts(ctx: Ctx): Promise<void> {
  ctx.dispatch({ type: "submit-form", today: ctx.today() });
  const request = statementRequest(ctx.get().payouts);
  if (!request.ok) return;
  const path = typedPath(request.path);
  ctx.dispatch({ type: "statement-reading", path });
  const file = await readStatementText(path);
  if (!file.ok) {
    ctx.dispatch({ type: "statement-unusable", path, problem: file.problem, problems: [], retry: "file" });
    return;
  }
  const locations = ctx.get().payoutsLocations();
  const money = statementCurrency(locations);
  if (!money.ok) {
    ctx.dispatch({ type: "statement-unusable", path, problem: money.problem, problems: [], retry: "location" });
    return;
  }
  const opt = (v: string) => (v.trim() ? v.trim() : undefined);
  const statement = readStatement(file.text, {
    currency: money.currency,
    dateColumn: opt(request.dateColumn),
    amountColumn: opt(request.amountColumn),
    descriptionColumn: opt(request.descriptionColumn),
    dateFormat: opt(request.dateFormat),
    words: FORM_WORDS,
  });
  if (!statement.ok) {
    const retry = statement.whole ? "file" : "columns";
    const { problem, problems, option } = statement;
    ctx.dispatch({ type: "statement-unusable", path, problem, problems, retry, option });
    return;
  }
  const range = statementRange(statement.lines);
  const payouts = range
    ? await ctx.read("Reading the payouts of the statement's dates", () =>
        payoutsForStatement(ctx.deps.client, locations, range),
      )
    : [];
  if (!payouts || ctx.get().payouts.statement?.path !== path) return;
  const { lines, skipped, columns, dateFormat, notes } = statement;
  ctx.dispatch({
    type: "statement-reconciled",
    path,
    ...{ lines, skipped, columns, dateFormat, notes },
    result: reconcileStatement(lines, payouts),
    payouts: new Map(payouts.map((p) => [p.id, p])),
  });
}
