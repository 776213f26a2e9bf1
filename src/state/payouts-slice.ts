// The payouts screen's I/O: reads through runRead (the spinner, the status bar, the connection)
// and hands every answer to the pure machine (payouts-machine.ts). Nothing here decides what the
// screen shows; it only fetches, and drops answers that arrive after the question changed.
import { readStatement, statementRange } from "../domain/bank-statement.js";
import { reconcileStatement } from "../domain/payout-reconcile.js";
import { datedEntries, weeklyFees } from "../domain/payouts.js";
import { localDate } from "../domain/time.js";
import type { Location, Payout, PayoutEntry } from "../spec/generated/types.js";
import {
  isMissingPayoutsPermission,
  listPayoutsInRange,
  loadPayoutEntries,
  payoutsForStatement,
  readStatementText,
  typedPath,
} from "./payouts-load.js";
import {
  initialPayoutsState,
  type PayoutsEvent,
  type PayoutsState,
  payoutsQueryKey,
  payoutsReducer,
  statementRequest,
} from "./payouts-machine.js";
import { timeZoneOf } from "./shell-slice.js";
import type { SliceCreator } from "./store.js";

/** The payouts slice: the machine's state, its dispatch, and the reads that feed it. */
export interface PayoutsSlice {
  payouts: PayoutsState;
  /** Applies one event to the screen's state. */
  payoutsDispatch(event: PayoutsEvent): void;
  /** The locations the list covers: the selected one, or every one. */
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
}

/** Payouts whose entries are kept between views (a year of one location's payouts). */
const ENTRY_CACHE_LIMIT = 800;

/** Builds the payouts slice. */
export const createPayoutsSlice: SliceCreator<PayoutsSlice> = (set, get, deps) => {
  const dispatch = (event: PayoutsEvent) => set((s) => ({ payouts: payoutsReducer(s.payouts, event) }));
  const today = () => localDate(deps.clock.now(), timeZoneOf(get()));
  // Entries of a payout do not change once it is made: read once, kept for the fees and detail.
  const entries = new Map<string, PayoutEntry[]>();
  const remember = (id: string, list: PayoutEntry[]) => {
    if (entries.size >= ENTRY_CACHE_LIMIT) entries.clear();
    entries.set(id, list);
  };
  let detailTicket = 0;
  let feesTicket = 0;

  deps.events.on("location-changed", () => {
    detailTicket++;
    feesTicket++;
    dispatch({ type: "location-changed" });
  });

  /** Runs a read; a refusal for lack of PAYOUTS_READ is a state of the screen, not an error. */
  const read = async <T>(label: string, fn: () => Promise<T>, quiet = false): Promise<T | undefined> => {
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
  };

  const zoneOf = (p: Payout) => get().locations.find((l) => l.id === p.location_id)?.timezone ?? "UTC";

  return {
    payouts: initialPayoutsState(localDate(deps.clock.now(), "UTC")),

    payoutsDispatch: dispatch,

    payoutsLocations() {
      const s = get();
      if (s.payouts.filters.all) return s.locations;
      return s.locations.filter((l) => l.id === s.locationId);
    },

    async loadPayouts(options = {}) {
      dispatch({ type: "today", today: today() });
      const s = get();
      const locations = s.payoutsLocations();
      if (locations.length === 0) return;
      const f = s.payouts.filters;
      const key = payoutsQueryKey(f, s.locationId);
      const range = { from: f.from, to: f.to };
      // A range wholly before January 2021 asks the service nothing: it keeps no payouts that old.
      if (range.to < "2021-01-01") {
        dispatch({ type: "payouts-read", key, payouts: [] });
        return;
      }
      const label = f.all ? "Reading the payouts of every location" : "Reading payouts";
      const payouts = await read(label, () => listPayoutsInRange(deps.client, { locations, ...range }), options.quiet);
      if (payouts && payoutsQueryKey(get().payouts.filters, get().locationId) === key) {
        dispatch({ type: "payouts-read", key, payouts });
      }
    },

    async loadPayoutsIfStale() {
      dispatch({ type: "today", today: today() });
      const s = get();
      if (s.payouts.readFor !== payoutsQueryKey(s.payouts.filters, s.locationId)) await s.loadPayouts();
    },

    async openPayout(id) {
      const ticket = ++detailTicket;
      dispatch({ type: "open-detail", id });
      const still = () => ticket === detailTicket && get().payouts.detail?.payoutId === id;
      const known = entries.get(id);
      if (!get().payouts.detail?.payout) {
        const r = await read("Reading the payout", () => deps.client.payouts.getPayout(id));
        if (!still()) return;
        if (r?.payout) dispatch({ type: "payout-read", payout: r.payout });
      }
      if (known) {
        dispatch({ type: "entries-read", payoutId: id, entries: known, complete: true });
        return;
      }
      // Page by page: the first hundred entries show while the rest are on their way.
      const all = await read("Reading the payout's entries", () =>
        loadPayoutEntries(deps.client, id, (soFar, done) => {
          if (still()) dispatch({ type: "entries-read", payoutId: id, entries: [...soFar], complete: done });
        }),
      );
      if (all) remember(id, all);
    },

    async showPayoutFees() {
      dispatch({ type: "show-view", view: "fees" });
      const s = get();
      if (!s.payouts.payouts) await s.loadPayouts();
      const now = get();
      const key = payoutsQueryKey(now.payouts.filters, now.locationId);
      if (now.payouts.fees?.readFor === key && now.payouts.fees.weeks) return;
      // Failed payouts are left out: their money comes back in a later payout's entries.
      const payouts = (now.payouts.payouts ?? []).filter((p) => p.status !== "FAILED");
      const ticket = ++feesTicket;
      const missing = payouts.filter((p) => !entries.has(p.id));
      let done = payouts.length - missing.length;
      dispatch({ type: "fees-progress", key, done, total: payouts.length });
      const ok = await read(`Reading the entries of ${payouts.length} payouts`, async () => {
        for (const p of missing) {
          if (ticket !== feesTicket) return false;
          remember(p.id, await loadPayoutEntries(deps.client, p.id));
          done += 1;
          dispatch({ type: "fees-progress", key, done, total: payouts.length });
        }
        return true;
      });
      if (!ok || ticket !== feesTicket) return;
      const rows = payouts.flatMap((p) => datedEntries(entries.get(p.id) ?? [], zoneOf(p)));
      const dates = rows.map((r) => r.date).sort();
      const range = { from: dates[0] ?? now.payouts.filters.from, to: dates.at(-1) ?? now.payouts.filters.to };
      const startOfWeek = get().workweek?.start_of_week ?? "MON";
      dispatch({ type: "fees-read", key, weeks: weeklyFees(rows, range, startOfWeek) });
    },

    async reconcilePayouts() {
      dispatch({ type: "submit-form", today: today() });
      const request = statementRequest(get().payouts);
      if (!request.ok) return;
      const path = typedPath(request.path);
      dispatch({ type: "statement-reading", path });
      const file = await readStatementText(path);
      if (!file.ok) {
        dispatch({ type: "statement-unusable", path, problem: file.problem, problems: [] });
        return;
      }
      const locations = get().payoutsLocations();
      const currency = locations[0]?.currency ?? "USD";
      const opt = (v: string) => (v.trim() ? v.trim() : undefined);
      const statement = readStatement(file.text, {
        currency,
        dateColumn: opt(request.dateColumn),
        amountColumn: opt(request.amountColumn),
        descriptionColumn: opt(request.descriptionColumn),
        dateFormat: opt(request.dateFormat),
      });
      if (!statement.ok) {
        dispatch({ type: "statement-unusable", path, problem: statement.problem, problems: statement.problems });
        return;
      }
      const range = statementRange(statement.lines);
      const payouts = range
        ? await read("Reading the payouts of the statement's dates", () =>
            payoutsForStatement(deps.client, locations, range),
          )
        : [];
      if (!payouts || get().payouts.statement?.path !== path) return;
      dispatch({
        type: "statement-reconciled",
        path,
        lines: statement.lines,
        skipped: statement.skipped,
        columns: statement.columns,
        dateFormat: statement.dateFormat,
        notes: statement.notes,
        result: reconcileStatement(statement.lines, payouts),
        payouts: new Map(payouts.map((p) => [p.id, p])),
      });
    },
  };
};
