// The review of workdays: each shift with its hours, overtime and cost, summed per member and
// per member per week. Overtime counts all of a member's hours at every store of the business;
// the review shows one store's shifts (or all), each costed where its hours past a limit fell.
import type { Currency, Money, Shift, TeamMember, TeamMemberWage } from "../spec/generated/types.js";
import { sumMoney } from "./money.js";
import {
  addSplit,
  costOfSplit,
  DEFAULT_OVERTIME,
  emptySplit,
  type MinutesSplit,
  type OvertimeRules,
  overtimeMinutes,
  type PaidInterval,
  paidIntervals,
  paidMinutes,
  type SplitCost,
  splitOvertime,
} from "./overtime.js";
import {
  LONG_SHIFT_HOURS,
  memberName,
  rateOfShift,
  SharedValues,
  type ShiftRate,
  type ShiftTotals,
  shiftTotals,
} from "./shifts.js";
import { addDays, weekStartOf, workdayOf } from "./time.js";

/** The part of one shift worked in one workweek, split and costed. */
export interface WeekPiece {
  /** First date of the workweek. */
  week: string;
  split: MinutesSplit;
  /** Undefined when the shift has no wage. */
  cost: SplitCost | undefined;
}

/** One shift of the review, with its totals, overtime and cost. */
export interface ReviewRow {
  shift: Shift;
  memberId: string;
  memberName: string;
  /** The store it was worked at, and that store's time zone (its times and workday are in it). */
  locationId: string;
  timeZone: string;
  workday: string;
  totals: ShiftTotals;
  /** The rate it is costed at; undefined: no wage. */
  rate: ShiftRate | undefined;
  regularHours: number;
  overtimeHours: number;
  /** Regular, overtime and total cost; undefined when the shift has no wage. */
  cost: SplitCost | undefined;
  /** Its paid time per workweek (two pieces when it crosses the start of a week). */
  pieces: WeekPiece[];
  /** Part of this shift is over the daily limit. */
  overDay: boolean;
  /** Its workweek went over the weekly limit during or before this shift. */
  overWeek: boolean;
  /**
   * Overtime hours of this shift that are overtime only because of the member's hours at other
   * stores in the same workday or workweek (0 in a review of all locations).
   */
  overtimeFromElsewhereHours: number;
  /** In words, for the review and the CSV: `no wage`, `open`, `over 8 h` (shared between rows: never changed). */
  flags: readonly string[];
}

/** Hours and cost, regular and overtime apart. */
export interface PayTotals {
  shifts: number;
  paidHours: number;
  unpaidHours: number;
  regularHours: number;
  overtimeHours: number;
  /** Sums over the shifts that have a wage. */
  regularCost: Money;
  overtimeCost: Money;
  cost: Money;
  /** Shifts without a wage: their hours count, their cost is unknown. */
  noWageShifts: number;
  openShifts: number;
}

/** Per-member sums of the review. */
export interface MemberSummary extends PayTotals {
  memberId: string;
  memberName: string;
  /** Workdays with daily overtime. */
  overDays: string[];
  /** Workweeks (by first date) that went over the weekly limit. */
  overWeeks: string[];
  /** The stores of the member's rows (one in a one-store review). */
  locationIds: string[];
  /**
   * Paid hours at other stores in the workweeks of the review (from the first week's first day
   * to the last day shown), which count toward this member's overtime; by store. Empty in a review
   * of all locations.
   */
  elsewhere: { locationId: string; hours: number }[];
  /** Overtime hours here that are overtime only because of the hours {@link elsewhere}. */
  overtimeFromElsewhereHours: number;
}

/** The review of a date range: rows, per-member sums and the grand totals. */
export interface Review {
  rows: ReviewRow[];
  members: MemberSummary[];
  totals: PayTotals;
  /** The overtime rules the figures follow. */
  overtime: OvertimeRules;
  /** The store whose shifts are shown; undefined: all locations. */
  locationId: string | undefined;
}

/** What the location picker, headings and file names call every store together. */
export const ALL_LOCATIONS = "All locations";

/** What {@link buildReview} needs besides the shifts. */
export interface ReviewContext {
  members: ReadonlyMap<string, TeamMember>;
  /** The time zone of a shift at a store not in {@link zones}. */
  timeZone: string;
  startOfDay: string;
  startOfWeek: string;
  now: Date;
  /** Workdays shown, inclusive; shifts outside still count toward weekly totals. */
  from: string;
  to: string;
  currency?: Currency;
  /** Overtime rules; {@link DEFAULT_OVERTIME} when absent. */
  overtime?: OvertimeRules;
  /** Each member's team member wages, for shifts that carry no wage of their own. */
  wages?: ReadonlyMap<string, readonly TeamMemberWage[]>;
  /**
   * The store whose shifts the review shows; absent: every store (all locations). Shifts given
   * at other stores are not shown but count toward their member's daily and weekly overtime.
   */
  locationId?: string;
  /** Each store's time zone by id: a shift's workday is in the zone of the store it was worked at. */
  zones?: ReadonlyMap<string, string>;
}

/** Empty totals in a currency. */
export function emptyPayTotals(currency: Currency): PayTotals {
  return {
    shifts: 0,
    paidHours: 0,
    unpaidHours: 0,
    regularHours: 0,
    overtimeHours: 0,
    regularCost: { amount: 0, currency },
    overtimeCost: { amount: 0, currency },
    cost: { amount: 0, currency },
    noWageShifts: 0,
    openShifts: 0,
  };
}

/** Adds one row to running totals (in place). */
export function addToTotals(t: PayTotals, r: ReviewRow): void {
  t.shifts += 1;
  t.paidHours += r.totals.paidHours;
  t.unpaidHours += r.totals.unpaidHours;
  t.regularHours += r.regularHours;
  t.overtimeHours += r.overtimeHours;
  if (r.cost) {
    t.regularCost = sumMoney([t.regularCost, r.cost.regular], t.regularCost.currency ?? "USD");
    t.overtimeCost = sumMoney([t.overtimeCost, r.cost.overtime], t.overtimeCost.currency ?? "USD");
    t.cost = sumMoney([t.cost, r.cost.total], t.cost.currency ?? "USD");
  } else t.noWageShifts += 1;
  if (!r.shift.end_at) t.openShifts += 1;
}

/** A shift as {@link buildReview} works on it: with its member, store, zone and workday. */
interface Entry {
  key: string;
  shift: Shift;
  memberId: string;
  locationId: string;
  timeZone: string;
  workday: string;
}

/** Shift key → workweek → its split minutes. */
type Pieces = Map<string, Map<string, MinutesSplit>>;

/**
 * Each kept shift's paid time per workweek, split by {@link splitOvertime} over all of its
 * member's kept shifts together (whatever store they were at), in time order.
 */
function splitPieces(
  entries: readonly Entry[],
  keep: (e: Entry) => boolean,
  ctx: ReviewContext,
  rules: OvertimeRules,
): Pieces {
  const calendar = { timeZone: ctx.timeZone, startOfDay: ctx.startOfDay, startOfWeek: ctx.startOfWeek };
  const byMember = new Map<string, PaidInterval[]>();
  for (const e of entries) {
    if (!keep(e)) continue;
    const list = byMember.get(e.memberId) ?? [];
    list.push(...paidIntervals(e.key, e.shift, ctx.now, e.timeZone));
    byMember.set(e.memberId, list);
  }
  const pieces: Pieces = new Map();
  for (const intervals of byMember.values()) {
    for (const [key, weeks] of splitOvertime(intervals, calendar, rules).byKeyWeek) pieces.set(key, weeks);
  }
  return pieces;
}

const sumOfWeeks = (weeks: ReadonlyMap<string, MinutesSplit> | undefined): MinutesSplit =>
  [...(weeks?.values() ?? [])].reduce(addSplit, emptySplit());

/** The cost of a shift's pieces: one piece's own cost (nearly all shifts), else their sum. */
function costOfPieces(pieces: readonly WeekPiece[], rate: ShiftRate | undefined): SplitCost | undefined {
  if (!rate) return undefined;
  const only = pieces.length === 1 ? pieces[0] : undefined;
  if (only) return only.cost;
  const currency = rate.rate.currency ?? "USD";
  const part = (pick: (c: SplitCost) => Money) =>
    sumMoney(
      pieces.map((p) => (p.cost ? pick(p.cost) : undefined)),
      currency,
    );
  return { regular: part((c) => c.regular), overtime: part((c) => c.overtime), total: part((c) => c.total) };
}

/** Makes the review's rows, sharing what rows repeat (names, rates, flag lists). */
function rowMaker(ctx: ReviewContext, rules: OvertimeRules, shared: SharedValues) {
  const names = new Map<string, string>();
  const nameOf = (id: string) => names.get(id) ?? names.set(id, memberName(ctx.members.get(id))).get(id) ?? "";
  const rates = new Map<string, Map<unknown, ShiftRate | undefined>>();
  const rateOf = (shift: Shift, memberId: string) => {
    let ofMember = rates.get(memberId);
    if (!ofMember) {
      ofMember = new Map();
      rates.set(memberId, ofMember);
    }
    // Keyed by the wage object: shifts compacted by the same pool share one per distinct wage.
    if (!ofMember.has(shift.wage)) ofMember.set(shift.wage, rateOfShift(shift, ctx.wages?.get(memberId) ?? []));
    return ofMember.get(shift.wage);
  };
  const flagLists = new Map<string, readonly string[]>();
  const flagsOf = (noWage: boolean, open: boolean, long: boolean, elsewhere: boolean) => {
    const key = `${+noWage}${+open}${+long}${+elsewhere}`;
    let flags = flagLists.get(key);
    if (!flags) {
      flags = Object.freeze(
        [
          noWage ? "no wage" : "",
          open ? "open" : "",
          long ? `over ${LONG_SHIFT_HOURS} h` : "",
          elsewhere ? "overtime from other stores" : "",
        ].filter(Boolean),
      );
      flagLists.set(key, flags);
    }
    return flags;
  };
  return (e: Entry, weeks: ReadonlyMap<string, MinutesSplit> | undefined, localOnly: MinutesSplit | undefined) => {
    const totals: ShiftTotals = shiftTotals(e.shift, ctx.now);
    const rate = rateOf(e.shift, e.memberId);
    const pieces: WeekPiece[] = [...(weeks ?? [])]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([week, split]) => ({
        week: shared.text(week),
        split,
        cost: rate ? costOfSplit(split, rate.rate, rules.multiplier) : undefined,
      }));
    const split = pieces.length === 1 && pieces[0] ? pieces[0].split : sumOfWeeks(weeks);
    const fromElsewhere = localOnly ? Math.max(0, overtimeMinutes(split) - overtimeMinutes(localOnly)) / 60 : 0;
    const row: ReviewRow = {
      shift: e.shift,
      memberId: e.memberId,
      memberName: nameOf(e.memberId),
      locationId: e.locationId,
      timeZone: e.timeZone,
      workday: e.workday,
      totals,
      rate,
      regularHours: split.regularMinutes / 60,
      overtimeHours: overtimeMinutes(split) / 60,
      cost: costOfPieces(pieces, rate),
      pieces,
      overDay: split.dailyOvertimeMinutes + split.doubleTimeMinutes > 0,
      overWeek: split.weeklyOvertimeMinutes > 0,
      overtimeFromElsewhereHours: fromElsewhere,
      flags: flagsOf(!rate, !e.shift.end_at, totals.paidHours > LONG_SHIFT_HOURS, fromElsewhere > 0),
    };
    return row;
  };
}

/**
 * Builds the review: each shift bucketed into the workday of its start (the workweek's start of
 * day, in the time zone of its store); its paid time split into regular and overtime by
 * {@link splitOvertime} over all of its member's hours — at every store given, shifts before
 * `from` in the same workweek counting toward the week — and costed at {@link rateOfShift},
 * overtime at the multiplier. Only the shifts of `locationId` (all, without one) are rows; for a
 * member with hours at other stores, the overtime those hours brought here is told apart.
 */
export function buildReview(shifts: readonly Shift[], ctx: ReviewContext): Review {
  const rules = ctx.overtime ?? DEFAULT_OVERTIME;
  // A long range holds thousands of rows: what rows repeat (workdays, names, rates, flags) is made once.
  const shared = new SharedValues();
  const all: Entry[] = shifts.map((shift, index) => {
    const timeZone = ctx.zones?.get(shift.location_id) ?? ctx.timeZone;
    return {
      key: shift.id ?? `#${index}`,
      shift,
      memberId: shift.team_member_id ?? shift.employee_id ?? "",
      locationId: shift.location_id,
      timeZone,
      workday: shared.text(workdayOf(shift.start_at, timeZone, ctx.startOfDay)),
    };
  });
  const here = ctx.locationId;
  const shown = (e: Entry) =>
    e.workday >= ctx.from && e.workday <= ctx.to && (here === undefined || e.locationId === here);
  const pieces = splitPieces(all, () => true, ctx, rules);
  // Members who also worked elsewhere: their shifts here split again without those hours, to
  // tell the overtime the other stores brought from the overtime of this store's own hours.
  const elsewhere = new Set(here === undefined ? [] : all.filter((e) => e.locationId !== here).map((e) => e.memberId));
  const localOnly =
    elsewhere.size > 0
      ? splitPieces(all, (e) => elsewhere.has(e.memberId) && e.locationId === here, ctx, rules)
      : undefined;
  const makeRow = rowMaker(ctx, rules, shared);
  const rows = all
    .filter(shown)
    .map((e) => makeRow(e, pieces.get(e.key), localOnly?.has(e.key) ? sumOfWeeks(localOnly.get(e.key)) : undefined))
    .sort((a, b) => a.memberName.localeCompare(b.memberName) || ms(a.shift.start_at) - ms(b.shift.start_at));
  const currency: Currency = ctx.currency ?? rows.find((r) => r.rate)?.rate?.rate.currency ?? "USD";
  const { members, totals } = summarize(rows, currency);
  if (here !== undefined)
    addElsewhere(members, all, here, { from: weekStartOf(ctx.from, ctx.startOfWeek), to: ctx.to }, ctx.now);
  return { rows, members, totals, overtime: rules, locationId: here };
}

const ms = (iso: string) => Date.parse(iso);

/** Per-member sums of the rows, and the grand totals. */
function summarize(rows: readonly ReviewRow[], currency: Currency): { members: MemberSummary[]; totals: PayTotals } {
  const summaries = new Map<string, MemberSummary>();
  const totals = emptyPayTotals(currency);
  for (const r of rows) {
    const s = summaries.get(r.memberId) ?? {
      memberId: r.memberId,
      memberName: r.memberName,
      ...emptyPayTotals(currency),
      overDays: [],
      overWeeks: [],
      locationIds: [],
      elsewhere: [],
      overtimeFromElsewhereHours: 0,
    };
    summaries.set(r.memberId, s);
    addToTotals(s, r);
    addToTotals(totals, r);
    s.overtimeFromElsewhereHours += r.overtimeFromElsewhereHours;
    if (!s.locationIds.includes(r.locationId)) s.locationIds.push(r.locationId);
    if (r.overDay && !s.overDays.includes(r.workday)) s.overDays.push(r.workday);
    for (const p of r.pieces) {
      if (p.split.weeklyOvertimeMinutes > 0 && !s.overWeeks.includes(p.week)) s.overWeeks.push(p.week);
    }
  }
  for (const s of summaries.values()) {
    s.overDays.sort();
    s.overWeeks.sort();
    s.locationIds.sort();
  }
  const members = [...summaries.values()].sort((a, b) => a.memberName.localeCompare(b.memberName));
  return { members, totals };
}

/** Adds to each member's summary their paid hours at stores other than `here` in the workdays `days`. */
function addElsewhere(
  members: readonly MemberSummary[],
  all: readonly Entry[],
  here: string,
  days: { from: string; to: string },
  now: Date,
): void {
  const byId = new Map(members.map((m) => [m.memberId, m]));
  for (const e of all) {
    const m = byId.get(e.memberId);
    if (!m || e.locationId === here || e.workday < days.from || e.workday > days.to) continue;
    const hours = shiftTotals(e.shift, now).paidHours;
    const at = m.elsewhere.find((x) => x.locationId === e.locationId);
    if (at) at.hours += hours;
    else m.elsewhere.push({ locationId: e.locationId, hours });
  }
}

/** One member's week: the shifts of the review that count to it, in hours and cost. */
export interface MemberWeek extends PayTotals {
  memberId: string;
  memberName: string;
  /** First and last date of the workweek. */
  week: string;
  weekEnd: string;
  /** Paid hours of shifts without a wage, left out of the costs. */
  uncostedHours: number;
  /** The stores where the hours of this week were worked (in a review of all locations, maybe several). */
  locationIds: string[];
  /** Overtime hours of the week that are overtime only because of hours at other stores not in the review. */
  overtimeFromElsewhereHours: number;
}

/**
 * The review's rows summed per member per workweek. Paid, regular and overtime hours and their
 * cost count to the week they were worked in (a shift crossing the start of the week counts to
 * both); the shift itself, its unpaid breaks and its flags count to the week of its workday.
 */
export function memberWeeks(review: Review, startOfWeek: string): MemberWeek[] {
  const out = new Map<string, MemberWeek>();
  const currency = review.totals.cost.currency ?? "USD";
  const bucket = (r: ReviewRow, week: string) => {
    const k = `${r.memberId}|${week}`;
    let w = out.get(k);
    if (!w) {
      w = {
        memberId: r.memberId,
        memberName: r.memberName,
        week,
        weekEnd: addDays(week, 6),
        ...emptyPayTotals(currency),
        uncostedHours: 0,
        locationIds: [],
        overtimeFromElsewhereHours: 0,
      };
      out.set(k, w);
    }
    return w;
  };
  for (const r of review.rows) {
    const home = bucket(r, weekStartOf(r.workday, startOfWeek));
    home.shifts += 1;
    home.unpaidHours += r.totals.unpaidHours;
    if (!r.rate) home.noWageShifts += 1;
    if (!r.shift.end_at) home.openShifts += 1;
    home.overtimeFromElsewhereHours += r.overtimeFromElsewhereHours;
    for (const p of r.pieces) {
      const w = bucket(r, p.week);
      if (!w.locationIds.includes(r.locationId)) w.locationIds.push(r.locationId);
      w.paidHours += paidMinutes(p.split) / 60;
      w.regularHours += p.split.regularMinutes / 60;
      w.overtimeHours += overtimeMinutes(p.split) / 60;
      if (p.cost) {
        w.regularCost = sumMoney([w.regularCost, p.cost.regular], currency);
        w.overtimeCost = sumMoney([w.overtimeCost, p.cost.overtime], currency);
        w.cost = sumMoney([w.cost, p.cost.total], currency);
      } else w.uncostedHours += paidMinutes(p.split) / 60;
    }
  }
  for (const w of out.values()) w.locationIds.sort();
  return [...out.values()].sort((a, b) => a.memberName.localeCompare(b.memberName) || a.week.localeCompare(b.week));
}
