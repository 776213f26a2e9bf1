// An in-memory stand-in for the client, for unit tests of the store and components. It keeps the
// service's labor rules that the app depends on, so a test can also see the service refuse.

import type {
  BreakType,
  Location,
  Shift,
  TeamMember,
  TeamMemberWage,
  WorkweekConfig,
} from "../spec/generated/types.js";
import { PageIterator, SquareApiError } from "../square/index.js";
import type { StoreClient } from "./types.js";

/** The records a fake client starts with. */
export interface FakeData {
  locations: Location[];
  members: TeamMember[];
  wages: TeamMemberWage[];
  breakTypes: BreakType[];
  shifts: Shift[];
  workweek: WorkweekConfig;
}

const refuse = (op: string, status: number, code: string, detail: string) =>
  new SquareApiError(op, status, [{ category: "INVALID_REQUEST_ERROR", code, detail }], {});

function pages<K extends string, T>(key: K, items: T[], size: number) {
  type Page = { [P in K]: T[] } & { cursor?: string };
  return new PageIterator<Page, T>(
    async (cursor) => {
      const at = Number(cursor ?? 0);
      const next = at + size < items.length ? String(at + size) : undefined;
      const page = { [key]: structuredClone(items.slice(at, at + size)), ...(next ? { cursor: next } : {}) } as Page;
      return { page, next };
    },
    (p) => p[key],
  );
}

/** A fake client over `data` (mutated in place) and a clock; `calls` records each write. */
export function createFakeClient(data: FakeData, now: () => Date) {
  const calls: { op: string; body: unknown }[] = [];
  let seq = 0;
  const id = (p: string) => `${p}${++seq}`;
  const keys = new Map<string, unknown>();
  const stamp = () => now().toISOString();

  const checkShift = (op: string, s: Shift, selfId?: string) => {
    if (new Date(s.start_at).getTime() > now().getTime() + 60_000)
      throw refuse(op, 400, "BAD_REQUEST", "start_at is in the future");
    const others = data.shifts.filter((o) => o.team_member_id === s.team_member_id && o.id !== selfId);
    if (!s.end_at && others.some((o) => !o.end_at))
      throw refuse(op, 400, "BAD_REQUEST", "the team member already has an open shift");
    const breaks = s.breaks ?? [];
    if (s.end_at && breaks.some((b) => !b.end_at))
      throw refuse(op, 400, "BAD_REQUEST", "every break must end before the shift closes");
    if (breaks.slice(0, -1).some((b) => !b.end_at))
      throw refuse(op, 400, "BAD_REQUEST", "an earlier break has no end_at");
  };

  const client = {
    calls,
    locations: {
      listLocations: async () => ({ locations: data.locations }),
    },
    oauth: {
      retrieveTokenStatus: async () => ({ merchant_id: "MERCHANT", scopes: [] }),
    },
    team: {
      searchTeamMembers: (body: { query?: { filter?: { location_ids?: string[] } } } = {}) => {
        const locs = body.query?.filter?.location_ids;
        return pages(
          "team_members",
          data.members.filter(
            (m) =>
              !locs ||
              m.assigned_locations?.assignment_type === "ALL_CURRENT_AND_FUTURE_LOCATIONS" ||
              m.assigned_locations?.location_ids?.some((l) => locs.includes(l)),
          ),
          50,
        );
      },
    },
    labor: {
      listBreakTypes: (q: { location_id?: string } = {}) =>
        pages(
          "break_types",
          data.breakTypes.filter((b) => !q.location_id || b.location_id === q.location_id),
          200,
        ),
      createBreakType: async (body: { idempotency_key?: string; break_type: BreakType }) => {
        calls.push({ op: "createBreakType", body });
        if (data.breakTypes.filter((b) => b.location_id === body.break_type.location_id).length >= 3) {
          throw refuse("CreateBreakType", 400, "BAD_REQUEST", "the limit of 3 breaks per location was exceeded");
        }
        const bt = { ...body.break_type, id: id("BT"), version: 1, created_at: stamp(), updated_at: stamp() };
        data.breakTypes.push(bt);
        return { break_type: bt };
      },
      updateBreakType: async (bid: string, body: { break_type: BreakType }) => {
        calls.push({ op: "updateBreakType", body });
        const i = data.breakTypes.findIndex((b) => b.id === bid);
        const cur = data.breakTypes[i];
        if (!cur) throw refuse("UpdateBreakType", 404, "NOT_FOUND", "no such break type");
        if (body.break_type.version !== undefined && body.break_type.version !== cur.version) {
          throw refuse("UpdateBreakType", 409, "CONFLICT", "version mismatch");
        }
        const next = { ...cur, ...body.break_type, id: bid, version: (cur.version ?? 0) + 1, updated_at: stamp() };
        data.breakTypes[i] = next;
        return { break_type: next };
      },
      deleteBreakType: async (bid: string) => {
        calls.push({ op: "deleteBreakType", body: bid });
        data.breakTypes = data.breakTypes.filter((b) => b.id !== bid);
        return {};
      },
      createShift: async (body: { idempotency_key?: string; shift: Shift }) => {
        calls.push({ op: "createShift", body });
        if (body.idempotency_key && keys.has(body.idempotency_key))
          return keys.get(body.idempotency_key) as { shift: Shift };
        checkShift("CreateShift", body.shift);
        const shift: Shift = {
          ...body.shift,
          id: id("SH"),
          status: "OPEN",
          version: 1,
          breaks: body.shift.breaks ?? [],
        };
        data.shifts.push(shift);
        const res = { shift: structuredClone(shift) };
        if (body.idempotency_key) keys.set(body.idempotency_key, res);
        return res;
      },
      updateShift: async (sid: string, body: { shift: Shift }) => {
        calls.push({ op: "updateShift", body });
        const i = data.shifts.findIndex((s) => s.id === sid);
        const cur = data.shifts[i];
        if (!cur) throw refuse("UpdateShift", 404, "NOT_FOUND", "no such shift");
        if (body.shift.version !== undefined && body.shift.version !== cur.version) {
          throw refuse("UpdateShift", 409, "CONFLICT", `the shift was changed since version ${body.shift.version}`);
        }
        const next: Shift = {
          ...body.shift,
          id: sid,
          version: (cur.version ?? 0) + 1,
          status: body.shift.end_at ? "CLOSED" : "OPEN",
        };
        checkShift("UpdateShift", next, sid);
        next.breaks = (next.breaks ?? []).map((b) => (b.id ? b : { ...b, id: id("BR") }));
        data.shifts[i] = next;
        return { shift: structuredClone(next) };
      },
      getShift: async (sid: string) => {
        const s = data.shifts.find((x) => x.id === sid);
        if (!s) throw refuse("GetShift", 404, "NOT_FOUND", "no such shift");
        return { shift: structuredClone(s) };
      },
      searchShifts: (
        body: {
          query?: {
            filter?: {
              location_ids?: string[];
              status?: string;
              workday?: { date_range?: { start_date?: string; end_date?: string }; default_timezone?: string };
            };
          };
        } = {},
      ) => {
        const f = body.query?.filter;
        const tz = f?.workday?.default_timezone ?? "UTC";
        const sod = data.workweek.start_of_day_local_time;
        const range = f?.workday?.date_range;
        const out = data.shifts.filter((s) => {
          if (f?.location_ids?.length && !f.location_ids.includes(s.location_id)) return false;
          if (f?.status && (s.end_at ? "CLOSED" : "OPEN") !== f.status) return false;
          if (range) {
            const day = workdayOfFake(s.start_at, tz, sod);
            if ((range.start_date && day < range.start_date) || (range.end_date && day > range.end_date)) return false;
          }
          return true;
        });
        return pages("shifts", out, 200);
      },
      listTeamMemberWages: () => pages("team_member_wages", data.wages, 200),
      listWorkweekConfigs: () => pages("workweek_configs", [data.workweek], 200),
    },
  };
  return client as typeof client & StoreClient;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

function workdayOfFake(iso: string, tz: string, startOfDay: string): string {
  // Independent of the domain code on purpose: the fake must not share the app's bugs.
  const [h = 0, m = 0] = startOfDay.split(":").map(Number);
  const shifted = new Date(new Date(iso).getTime() - (h * 60 + m) * 60_000);
  let f = dayFormats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit" });
    dayFormats.set(tz, f);
  }
  return f.format(shifted);
}

/**
 * A small store for tests: two locations in different time zones, four members at the main one,
 * three break types there, a 05:00 start of day, and (relative to `now`) one member on shift
 * since this morning and one who forgot to clock out yesterday.
 */
export function fakeDemoData(now: Date): FakeData {
  const h = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * 3_600_000).toISOString();
  const usd = (amount: number) => ({ amount, currency: "USD" as const });
  const member = (mid: string, given: string, family: string): TeamMember => ({
    id: mid,
    given_name: given,
    family_name: family,
    status: "ACTIVE",
    assigned_locations: { assignment_type: "EXPLICIT_LOCATIONS", location_ids: ["L-MAIN"] },
  });
  return {
    locations: [
      {
        id: "L-MAIN",
        name: "Main Street",
        timezone: "America/New_York",
        business_name: "Corner Bakery",
        status: "ACTIVE",
      },
      {
        id: "L-WEST",
        name: "West Pier",
        timezone: "America/Los_Angeles",
        business_name: "Corner Bakery",
        status: "ACTIVE",
      },
    ],
    members: [
      member("TM-ANA", "Ana", "Diaz"),
      member("TM-BO", "Bo", "Li"),
      member("TM-CY", "Cy", "Okafor"),
      member("TM-DEV", "Dev", "Rao"),
    ],
    wages: [
      { id: "W1", team_member_id: "TM-ANA", title: "Baker", hourly_rate: usd(2000) },
      { id: "W2", team_member_id: "TM-BO", title: "Cashier", hourly_rate: usd(1600) },
      { id: "W3", team_member_id: "TM-CY", title: "Cashier", hourly_rate: usd(1500) },
      { id: "W4", team_member_id: "TM-DEV", title: "Barista", hourly_rate: usd(1700) },
    ],
    breakTypes: [
      {
        id: "BT-MEAL",
        location_id: "L-MAIN",
        break_name: "Meal",
        expected_duration: "PT30M",
        is_paid: false,
        version: 1,
      },
      {
        id: "BT-REST",
        location_id: "L-MAIN",
        break_name: "Rest",
        expected_duration: "PT10M",
        is_paid: true,
        version: 1,
      },
      {
        id: "BT-SMOKE",
        location_id: "L-MAIN",
        break_name: "Fresh air",
        expected_duration: "PT5M",
        is_paid: true,
        version: 1,
      },
    ],
    shifts: [
      {
        id: "SH-BO",
        location_id: "L-MAIN",
        team_member_id: "TM-BO",
        start_at: h(2),
        status: "OPEN",
        version: 1,
        wage: { hourly_rate: usd(1600) },
        breaks: [],
      },
      {
        id: "SH-CY",
        location_id: "L-MAIN",
        team_member_id: "TM-CY",
        start_at: h(30),
        status: "OPEN",
        version: 1,
        wage: { hourly_rate: usd(1500) },
        breaks: [],
      },
      {
        id: "SH-DEV",
        location_id: "L-MAIN",
        team_member_id: "TM-DEV",
        start_at: h(28),
        end_at: h(18),
        status: "CLOSED",
        version: 1,
        wage: { hourly_rate: usd(1700) },
        breaks: [],
      },
    ],
    workweek: { id: "WW", start_of_week: "MON", start_of_day_local_time: "05:00", version: 1 },
  };
}
