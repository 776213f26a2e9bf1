import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClock } from "../src/service/clock.js";
import type { ServiceEvent } from "../src/service/events.js";
import { DEMO_CLOCKED_IN_MEMBER } from "../src/service/labor/seed.js";
import { DEMO } from "../src/service/seed/demo-ids.js";
import type { SearchShiftsRequest, Shift } from "../src/spec/generated/types.js";
import { failure, startService, type TestService } from "./helpers/service.js";

// Thursday 2024-01-18, 12:00 in New York (09:00 in Los Angeles); the clock stands still.
const NOW = Date.parse("2024-01-18T17:00:00Z");
const MAIN = DEMO.mainLocationId;
const DOCK = DEMO.secondLocationId;
// Members who have left: no seeded shifts, so each test can lay out its own.
const JORDAN = "TMDEMO0008";
const GRACE = "TMDEMO0012";
// Active members; their seeded shifts lie in the two weeks before NOW, so December 2023 is free.
const MARCUS = "TMDEMO0002";
const TOMAS = "TMDEMO0004";
const AISHA = "TMDEMO0005";
const LIAM = "TMDEMO0006";

let t: TestService;
const events: ServiceEvent[] = [];

beforeAll(async () => {
  t = await startService({
    clock: createClock(() => NOW),
    events: { publish: (e) => void events.push(...e) },
  });
});
afterAll(async () => {
  await t.close();
});

async function expectBadRequest(p: PromiseLike<unknown>, detail: RegExp, field?: string) {
  const err = await failure(p);
  expect(err.status).toBe(400);
  expect(err.category).toBe("INVALID_REQUEST_ERROR");
  expect(err.code).toBe("BAD_REQUEST");
  expect(err.errors[0]?.detail).toMatch(detail);
  if (field) expect(err.errors[0]?.field).toBe(field);
}

const shiftFor = (member: string, start: string, end?: string, extra: Partial<Shift> = {}): Shift => ({
  location_id: MAIN,
  team_member_id: member,
  start_at: start,
  ...(end ? { end_at: end } : {}),
  ...extra,
});

async function mainBreakTypes() {
  const page = await t.client.labor.listBreakTypes({ location_id: MAIN });
  const byName = new Map((page.break_types ?? []).map((b) => [b.break_name, b]));
  const get = (n: string) => {
    const b = byName.get(n);
    if (!b?.id) throw new Error(`no break type ${n}`);
    return b as typeof b & { id: string };
  };
  return { coffee: get("Coffee"), lunch: get("Lunch"), rest: get("Rest") };
}

describe("break types", () => {
  it("lists the demo's three break types at the main location, and filters by location", async () => {
    const main = await t.client.labor.listBreakTypes({ location_id: MAIN });
    expect(main.break_types?.map((b) => [b.break_name, b.expected_duration, b.is_paid])).toEqual([
      ["Coffee", "PT10M", true],
      ["Lunch", "PT30M", false],
      ["Rest", "PT15M", true],
    ]);
    for (const b of main.break_types ?? []) {
      expect(b).toMatchObject({ location_id: MAIN, version: 1 });
      expect(b.id).toBeTruthy();
      expect(b.created_at).toBeTruthy();
    }
    const dock = await t.client.labor.listBreakTypes({ location_id: DOCK });
    expect(dock.break_types ?? []).toEqual([]);
  });

  it("refuses a fourth break type at one location", async () => {
    const err = await failure(
      t.client.labor.createBreakType({
        break_type: { location_id: MAIN, break_name: "Smoke", expected_duration: "PT5M", is_paid: false },
      }),
    );
    expect(err.status).toBe(400);
    expect(err.category).toBe("INVALID_REQUEST_ERROR");
    expect(err.errors[0]?.detail).toMatch(/limit of 3 breaks per location was exceeded/);
  });

  it("creates, reads, updates with a version, and pages with limit and cursor", async () => {
    const created = await t.client.labor.createBreakType({
      idempotency_key: "bt-dock-1",
      break_type: { location_id: DOCK, break_name: "Tea", expected_duration: "PT900S", is_paid: true },
    });
    const bt = created.break_type;
    expect(bt).toMatchObject({ location_id: DOCK, break_name: "Tea", expected_duration: "PT15M", version: 1 });
    // Same key, same body: the first answer again, no second break type.
    const again = await t.client.labor.createBreakType({
      idempotency_key: "bt-dock-1",
      break_type: { location_id: DOCK, break_name: "Tea", expected_duration: "PT900S", is_paid: true },
    });
    expect(again.break_type?.id).toBe(bt?.id);
    const id = bt?.id as string;
    expect((await t.client.labor.getBreakType(id)).break_type?.break_name).toBe("Tea");

    const stale = await failure(
      t.client.labor.updateBreakType(id, {
        break_type: { location_id: DOCK, break_name: "Tea", expected_duration: "PT20M", is_paid: true, version: 7 },
      }),
    );
    expect(stale.status).toBe(409);
    expect(stale.code).toBe("CONFLICT");
    const updated = await t.client.labor.updateBreakType(id, {
      break_type: { location_id: DOCK, break_name: "Long tea", expected_duration: "PT20M", is_paid: false, version: 1 },
    });
    expect(updated.break_type).toMatchObject({ break_name: "Long tea", expected_duration: "PT20M", version: 2 });

    const first = await t.client.labor.listBreakTypes({ limit: 2 });
    expect(first.break_types).toHaveLength(2);
    expect(first.cursor).toBeTruthy();
    const all: string[] = [];
    for await (const b of t.client.labor.listBreakTypes({ limit: 2 })) all.push(b.id as string);
    expect(all).toHaveLength(4);
    expect(new Set(all).size).toBe(4);

    await t.client.labor.deleteBreakType(id);
    expect((await failure(t.client.labor.getBreakType(id))).status).toBe(404);
  });

  it("validates the expected duration and the limit", async () => {
    const bad = await failure(
      t.client.labor.createBreakType({
        break_type: { location_id: DOCK, break_name: "Odd", expected_duration: "15 minutes", is_paid: true },
      }),
    );
    expect(bad.code).toBe("INVALID_VALUE");
    expect(bad.errors[0]?.field).toBe("break_type.expected_duration");
    expect((await failure(t.client.labor.listBreakTypes({ limit: 0 }))).code).toBe("VALUE_TOO_LOW");
    expect((await failure(t.client.labor.listBreakTypes({ limit: 201 }))).code).toBe("VALUE_TOO_HIGH");
    expect((await t.client.labor.listBreakTypes({ limit: 200 })).break_types?.length).toBeGreaterThanOrEqual(3);
  });
});

describe("creating shifts", () => {
  it("writes the shift at the location's offset, to the minute, with status, version and a zero wage", async () => {
    const { shift } = await t.client.labor.createShift({
      shift: shiftFor(GRACE, "2023-12-01T17:03:45.678Z", "2023-12-02T01:10:59Z", { location_id: DOCK }),
    });
    expect(shift).toMatchObject({
      location_id: DOCK,
      team_member_id: GRACE,
      employee_id: GRACE,
      timezone: "America/Los_Angeles",
      start_at: "2023-12-01T09:03:00-08:00",
      end_at: "2023-12-01T17:10:00-08:00",
      status: "CLOSED",
      version: 1,
      breaks: [],
    });
    expect(shift?.wage?.hourly_rate).toEqual({ amount: 0, currency: "USD" });
    expect(shift?.created_at).toBe(new Date(NOW).toISOString());
    const got = await t.client.labor.getShift(shift?.id as string);
    expect(got.shift).toEqual(shift);
  });

  it("accepts the deprecated employee_id and fills team_member_id from it", async () => {
    const { shift } = await t.client.labor.createShift({
      shift: {
        location_id: MAIN,
        employee_id: GRACE,
        start_at: "2023-12-03T14:00:00Z",
        end_at: "2023-12-03T15:00:00Z",
      },
    });
    expect(shift).toMatchObject({ team_member_id: GRACE, employee_id: GRACE, status: "CLOSED" });
  });

  it("opens a shift when end_at is missing, and refuses a second open shift for the member", async () => {
    const { shift } = await t.client.labor.createShift({ shift: shiftFor(JORDAN, "2024-01-18T15:00:00Z") });
    expect(shift?.status).toBe("OPEN");
    expect(shift?.end_at).toBeUndefined();
    await expectBadRequest(
      t.client.labor.createShift({ shift: shiftFor(JORDAN, "2024-01-18T16:00:00Z") }),
      /already has an open shift/,
    );
    // The demo's clocked-in member cannot clock in again either.
    await expectBadRequest(
      t.client.labor.createShift({ shift: shiftFor(DEMO_CLOCKED_IN_MEMBER, "2023-11-01T14:00:00Z") }),
      /already has an open shift/,
    );
  });

  it("refuses a start in the future of the service clock", async () => {
    await expectBadRequest(
      t.client.labor.createShift({ shift: shiftFor(GRACE, "2024-01-18T17:01:01Z") }),
      /future/,
      "shift.start_at",
    );
    // Within the clock-skew allowance (a minute) is not the future; seconds are then dropped.
    const { shift } = await t.client.labor.createShift({
      shift: shiftFor(LIAM, "2024-01-18T17:00:30Z", "2024-01-18T17:00:50Z"),
    });
    expect(shift?.start_at).toBe("2024-01-18T12:00:00-05:00");
  });

  it("refuses a shift that overlaps another shift of the member, but not one that only touches it", async () => {
    await t.client.labor.createShift({ shift: shiftFor(TOMAS, "2023-12-05T13:00:00Z", "2023-12-05T21:00:00Z") });
    await expectBadRequest(
      t.client.labor.createShift({ shift: shiftFor(TOMAS, "2023-12-05T20:00:00Z", "2023-12-05T23:00:00Z") }),
      /overlaps/,
    );
    await expectBadRequest(
      t.client.labor.createShift({ shift: shiftFor(TOMAS, "2023-12-05T10:00:00Z", "2023-12-05T22:00:00Z") }),
      /overlaps/,
    );
    const touching = await t.client.labor.createShift({
      shift: shiftFor(TOMAS, "2023-12-05T21:00:00Z", "2023-12-05T23:00:00Z"),
    });
    expect(touching.shift?.status).toBe("CLOSED");
    // Another member may work the same hours.
    await t.client.labor.createShift({ shift: shiftFor(AISHA, "2023-12-05T13:00:00Z", "2023-12-05T21:00:00Z") });
  });

  it("refuses an end before the start", async () => {
    await expectBadRequest(
      t.client.labor.createShift({ shift: shiftFor(GRACE, "2023-12-06T15:00:00Z", "2023-12-06T14:00:00Z") }),
      /end_at must not be before start_at/,
      "shift.end_at",
    );
  });

  it("refuses a break that starts before the shift or ends after it, and copies break fields from the type", async () => {
    const { coffee, lunch } = await mainBreakTypes();
    const brk = (start: string, end: string | undefined, type = lunch) => ({
      start_at: start,
      ...(end ? { end_at: end } : {}),
      break_type_id: type.id,
      name: "whatever",
      expected_duration: "PT1M",
      is_paid: true,
    });
    await expectBadRequest(
      t.client.labor.createShift({
        shift: shiftFor(GRACE, "2023-12-07T14:00:00Z", "2023-12-07T22:00:00Z", {
          breaks: [brk("2023-12-07T13:50:00Z", "2023-12-07T14:20:00Z")],
        }),
      }),
      /before the shift starts/,
      "shift.breaks[0].start_at",
    );
    await expectBadRequest(
      t.client.labor.createShift({
        shift: shiftFor(GRACE, "2023-12-07T14:00:00Z", "2023-12-07T22:00:00Z", {
          breaks: [brk("2023-12-07T21:45:00Z", "2023-12-07T22:15:00Z")],
        }),
      }),
      /after the shift ends/,
      "shift.breaks[0].end_at",
    );
    const { shift } = await t.client.labor.createShift({
      shift: shiftFor(GRACE, "2023-12-07T14:00:00Z", "2023-12-07T22:00:00Z", {
        breaks: [
          brk("2023-12-07T18:00:00Z", "2023-12-07T18:30:00Z"),
          brk("2023-12-07T16:00:00Z", "2023-12-07T16:10:00Z", coffee),
        ],
      }),
    });
    expect(shift?.breaks?.map((b) => [b.name, b.expected_duration, b.is_paid, b.start_at])).toEqual([
      ["Coffee", "PT10M", true, "2023-12-07T11:00:00-05:00"],
      ["Lunch", "PT30M", false, "2023-12-07T13:00:00-05:00"],
    ]);
    for (const b of shift?.breaks ?? []) expect(b.id).toBeTruthy();
  });

  it("emits labor.shift.created with the shift", async () => {
    const { shift } = await t.client.labor.createShift({
      shift: shiftFor(GRACE, "2023-12-08T14:00:00Z", "2023-12-08T18:00:00Z"),
    });
    const e = events.find((x) => x.dataId === shift?.id);
    expect(e).toMatchObject({ type: "labor.shift.created", dataType: "shift", locationId: MAIN });
    expect((e?.object as { shift?: Shift } | undefined)?.shift?.id).toBe(shift?.id);
  });
});

describe("updating and deleting shifts", () => {
  it("adds breaks only after earlier ones ended, closes only with every break ended, and checks the version", async () => {
    const { coffee, lunch } = await mainBreakTypes();
    const { shift: open } = await t.client.labor.createShift({ shift: shiftFor(GRACE, "2024-01-18T13:00:00Z") });
    const id = open?.id as string;
    const brk = (type: typeof coffee, start: string, end?: string) => ({
      start_at: start,
      ...(end ? { end_at: end } : {}),
      break_type_id: type.id,
      name: type.break_name,
      expected_duration: type.expected_duration,
      is_paid: type.is_paid,
    });

    const onBreak = await t.client.labor.updateShift(id, {
      shift: { ...shiftFor(GRACE, "2024-01-18T13:00:00Z"), version: 1, breaks: [brk(coffee, "2024-01-18T14:00:00Z")] },
    });
    expect(onBreak.shift?.version).toBe(2);
    const coffeeId = onBreak.shift?.breaks?.[0]?.id;
    expect(coffeeId).toBeTruthy();

    await expectBadRequest(
      t.client.labor.updateShift(id, {
        shift: {
          ...shiftFor(GRACE, "2024-01-18T13:00:00Z"),
          breaks: [
            { ...brk(coffee, "2024-01-18T14:00:00Z"), id: coffeeId as string },
            brk(lunch, "2024-01-18T15:00:00Z"),
          ],
        },
      }),
      /every earlier break has an end_at/,
    );
    await expectBadRequest(
      t.client.labor.updateShift(id, {
        shift: {
          ...shiftFor(GRACE, "2024-01-18T13:00:00Z", "2024-01-18T16:00:00Z"),
          breaks: [{ ...brk(coffee, "2024-01-18T14:00:00Z"), id: coffeeId as string }],
        },
      }),
      /closed once every break has an end_at/,
    );

    const stale = await failure(
      t.client.labor.updateShift(id, {
        shift: { ...shiftFor(GRACE, "2024-01-18T13:00:00Z", "2024-01-18T16:00:00Z"), version: 1 },
      }),
    );
    expect(stale.status).toBe(409);
    expect(stale.code).toBe("CONFLICT");

    const closed = await t.client.labor.updateShift(id, {
      shift: {
        ...shiftFor(GRACE, "2024-01-18T13:00:00Z", "2024-01-18T16:00:00Z"),
        version: 2,
        breaks: [
          { ...brk(coffee, "2024-01-18T14:00:00Z", "2024-01-18T14:10:00Z"), id: coffeeId as string },
          brk(lunch, "2024-01-18T15:00:00Z", "2024-01-18T15:30:00Z"),
        ],
      },
    });
    expect(closed.shift).toMatchObject({ status: "CLOSED", version: 3, end_at: "2024-01-18T11:00:00-05:00" });
    expect(closed.shift?.breaks?.[0]?.id).toBe(coffeeId);
    expect(closed.shift?.created_at).toBe(open?.created_at);
    expect(events.filter((e) => e.dataId === id).map((e) => e.type)).toEqual([
      "labor.shift.created",
      "labor.shift.updated",
      "labor.shift.updated",
    ]);
  });

  it("refuses an update that makes the shift overlap another one of the member", async () => {
    await t.client.labor.createShift({ shift: shiftFor(LIAM, "2023-12-10T13:00:00Z", "2023-12-10T17:00:00Z") });
    const { shift } = await t.client.labor.createShift({
      shift: shiftFor(LIAM, "2023-12-10T18:00:00Z", "2023-12-10T22:00:00Z"),
    });
    await expectBadRequest(
      t.client.labor.updateShift(shift?.id as string, {
        shift: shiftFor(LIAM, "2023-12-10T16:00:00Z", "2023-12-10T22:00:00Z"),
      }),
      /overlaps/,
    );
    // Moving within its own old time is no overlap with itself.
    const moved = await t.client.labor.updateShift(shift?.id as string, {
      shift: shiftFor(LIAM, "2023-12-10T18:30:00Z", "2023-12-10T22:30:00Z"),
    });
    expect(moved.shift?.version).toBe(2);
  });

  it("keeps a shift's breaks when their break type is deleted", async () => {
    const { break_type } = await t.client.labor.createBreakType({
      break_type: { location_id: DOCK, break_name: "Stretch", expected_duration: "PT5M", is_paid: true },
    });
    const bt = break_type as { id: string };
    const { shift } = await t.client.labor.createShift({
      shift: shiftFor(GRACE, "2023-12-12T16:00:00Z", "2023-12-12T20:00:00Z", {
        location_id: DOCK,
        breaks: [
          {
            start_at: "2023-12-12T17:00:00Z",
            end_at: "2023-12-12T17:05:00Z",
            break_type_id: bt.id,
            name: "Stretch",
            expected_duration: "PT5M",
            is_paid: true,
          },
        ],
      }),
    });
    await t.client.labor.deleteBreakType(bt.id);
    const got = await t.client.labor.getShift(shift?.id as string);
    expect(got.shift?.breaks?.[0]).toMatchObject({ break_type_id: bt.id, name: "Stretch" });
    // And the shift can still be written back with that break.
    const again = await t.client.labor.updateShift(shift?.id as string, { shift: got.shift as Shift });
    expect(again.shift?.breaks).toHaveLength(1);
  });

  it("deletes a shift and emits labor.shift.deleted", async () => {
    const { shift } = await t.client.labor.createShift({
      shift: shiftFor(GRACE, "2023-12-14T14:00:00Z", "2023-12-14T18:00:00Z"),
    });
    const id = shift?.id as string;
    await t.client.labor.deleteShift(id);
    expect((await failure(t.client.labor.getShift(id))).status).toBe(404);
    expect((await failure(t.client.labor.deleteShift(id))).status).toBe(404);
    expect(events.find((e) => e.dataId === id && e.type === "labor.shift.deleted")).toMatchObject({
      deleted: true,
      dataType: "shift",
    });
  });
});

const filter = (f: Partial<NonNullable<NonNullable<SearchShiftsRequest["query"]>["filter"]>>) => ({
  location_ids: [],
  team_member_ids: [],
  ...f,
});

describe("searching shifts", () => {
  it("filters by member and status and sorts by start, newest first unless told", async () => {
    const desc = await t.client.labor.searchShifts({
      query: { filter: filter({ team_member_ids: [MARCUS], status: "CLOSED" }) },
    });
    const shifts = desc.shifts ?? [];
    expect(shifts.length).toBeGreaterThan(3);
    for (const s of shifts) expect(s).toMatchObject({ team_member_id: MARCUS, status: "CLOSED" });
    const starts = shifts.map((s) => Date.parse(s.start_at));
    expect(starts).toEqual([...starts].sort((a, b) => b - a));

    const asc = await t.client.labor.searchShifts({
      query: { filter: filter({ team_member_ids: [MARCUS] }), sort: { field: "START_AT", order: "ASC" } },
    });
    expect(asc.shifts?.map((s) => s.id)).toEqual([...shifts].reverse().map((s) => s.id));

    // employee_ids is the deprecated name of the same filter.
    const byEmployee = await t.client.labor.searchShifts({
      query: { filter: filter({ employee_ids: [MARCUS], status: "CLOSED" }) },
    });
    expect(byEmployee.shifts?.map((s) => s.id)).toEqual(shifts.map((s) => s.id));
  });

  it("finds the one open shift, and sorts open shifts last by END_AT ascending", async () => {
    const open = await t.client.labor.searchShifts({
      query: { filter: filter({ location_ids: [MAIN], status: "OPEN" }) },
    });
    expect(open.shifts?.map((s) => s.team_member_id)).toContain(DEMO_CLOCKED_IN_MEMBER);
    for (const s of open.shifts ?? []) expect(s.end_at).toBeUndefined();
    const byEnd = await t.client.labor.searchShifts({
      query: { filter: filter({ location_ids: [MAIN] }), sort: { field: "END_AT", order: "ASC" } },
    });
    const list = byEnd.shifts ?? [];
    expect(list.at(-1)?.status).toBe("OPEN");
    const ends = list.filter((s) => s.end_at).map((s) => Date.parse(s.end_at as string));
    expect(ends).toEqual([...ends].sort((a, b) => a - b));
  });

  it("filters by start and end ranges, inclusive", async () => {
    const { shift } = await t.client.labor.createShift({
      shift: shiftFor(GRACE, "2023-12-15T14:00:00Z", "2023-12-15T18:00:00Z"),
    });
    const find = async (f: object) =>
      (
        await t.client.labor.searchShifts({ query: { filter: filter({ team_member_ids: [GRACE], ...f }) } })
      ).shifts?.map((s) => s.id) ?? [];
    expect(await find({ start: { start_at: "2023-12-15T14:00:00Z", end_at: "2023-12-15T14:00:00Z" } })).toEqual([
      shift?.id,
    ]);
    expect(await find({ start: { start_at: "2023-12-15T14:01:00Z" } })).not.toContain(shift?.id);
    expect(await find({ end: { start_at: "2023-12-15T17:00:00Z", end_at: "2023-12-15T18:00:00Z" } })).toEqual([
      shift?.id,
    ]);
    expect(await find({ end: { end_at: "2023-12-15T17:59:00Z" } })).not.toContain(shift?.id);
  });

  it("pages with a cursor to the same list as one big page, and refuses the cursor for a changed query", async () => {
    const query = {
      filter: filter({ location_ids: [MAIN] }),
      sort: { field: "CREATED_AT" as const, order: "ASC" as const },
    };
    const whole = await t.client.labor.searchShifts({ query, limit: 200 });
    const ids: string[] = [];
    let pages = 0;
    for await (const page of t.client.labor.searchShifts({ query, limit: 7 }).pages()) {
      pages++;
      expect(page.shifts?.length ?? 0).toBeLessThanOrEqual(7);
      ids.push(...(page.shifts ?? []).map((s) => s.id as string));
    }
    expect(pages).toBeGreaterThan(5);
    expect(ids).toEqual(whole.shifts?.map((s) => s.id));

    const first = await t.client.labor.searchShifts({ query, limit: 7 });
    const changed = await failure(
      t.client.labor.searchShifts({
        query: { ...query, filter: filter({ location_ids: [DOCK] }) },
        limit: 7,
        cursor: first.cursor as string,
      }),
    );
    expect(changed.code).toBe("INVALID_CURSOR");
    expect((await failure(t.client.labor.searchShifts({ query, cursor: "not-a-cursor" }))).code).toBe("INVALID_CURSOR");
    expect((await failure(t.client.labor.searchShifts({ query, limit: 0 }))).code).toBe("VALUE_TOO_LOW");
    expect((await failure(t.client.labor.searchShifts({ query, limit: 201 }))).code).toBe("VALUE_TOO_HIGH");
  });

  describe("by workday", () => {
    const workday = async (
      start: string,
      end: string,
      match: "START_AT" | "END_AT" | "INTERSECTION",
      location: string = DOCK,
    ) =>
      (
        await t.client.labor.searchShifts({
          query: {
            filter: filter({
              location_ids: [location],
              team_member_ids: [GRACE],
              workday: { date_range: { start_date: start, end_date: end }, match_shifts_by: match },
            }),
          },
        })
      ).shifts?.map((s) => s.id) ?? [];

    it("puts a shift at 23:30 local on that local date, whatever the date in UTC", async () => {
      // 23:30 in Los Angeles on the 20th is 07:30 UTC on the 21st.
      const { shift } = await t.client.labor.createShift({
        shift: shiftFor(GRACE, "2023-12-21T07:30:00Z", "2023-12-21T09:00:00Z", { location_id: DOCK }),
      });
      expect(shift?.start_at).toBe("2023-12-20T23:30:00-08:00");
      expect(await workday("2023-12-20", "2023-12-20", "START_AT")).toEqual([shift?.id]);
      expect(await workday("2023-12-21", "2023-12-21", "START_AT")).not.toContain(shift?.id);
    });

    it("moves the boundary with the workweek's start of day", async () => {
      // 02:00 in Los Angeles on the 22nd: before the demo's 04:00 start of day, so workday the 21st.
      const { shift } = await t.client.labor.createShift({
        shift: shiftFor(GRACE, "2023-12-22T10:00:00Z", "2023-12-22T11:00:00Z", { location_id: DOCK }),
      });
      expect(await workday("2023-12-21", "2023-12-21", "START_AT")).toContain(shift?.id);
      expect(await workday("2023-12-22", "2023-12-22", "START_AT")).not.toContain(shift?.id);

      const [config] = (await t.client.labor.listWorkweekConfigs()).workweek_configs ?? [];
      expect(config).toMatchObject({ start_of_week: "MON", start_of_day_local_time: "04:00" });
      const midnight = await t.client.labor.updateWorkweekConfig(config?.id as string, {
        workweek_config: { start_of_week: "MON", start_of_day_local_time: "00:00", version: config?.version as number },
      });
      try {
        expect(await workday("2023-12-22", "2023-12-22", "START_AT")).toContain(shift?.id);
        expect(await workday("2023-12-21", "2023-12-21", "START_AT")).not.toContain(shift?.id);
      } finally {
        await t.client.labor.updateWorkweekConfig(config?.id as string, {
          workweek_config: {
            start_of_week: "MON",
            start_of_day_local_time: "04:00",
            version: midnight.workweek_config?.version as number,
          },
        });
      }
    });

    it("matches by start, by end, or by any overlap", async () => {
      // 22:00 on the 23rd to 06:00 on the 24th in Los Angeles; the workday turns at 04:00.
      const { shift } = await t.client.labor.createShift({
        shift: shiftFor(GRACE, "2023-12-24T06:00:00Z", "2023-12-24T14:00:00Z", { location_id: DOCK }),
      });
      const id = shift?.id;
      expect(await workday("2023-12-23", "2023-12-23", "START_AT")).toContain(id);
      expect(await workday("2023-12-24", "2023-12-24", "START_AT")).not.toContain(id);
      expect(await workday("2023-12-24", "2023-12-24", "END_AT")).toContain(id);
      expect(await workday("2023-12-23", "2023-12-23", "END_AT")).not.toContain(id);
      expect(await workday("2023-12-24", "2023-12-24", "INTERSECTION")).toContain(id);
      expect(await workday("2023-12-23", "2023-12-23", "INTERSECTION")).toContain(id);
      expect(await workday("2023-12-25", "2023-12-26", "INTERSECTION")).not.toContain(id);
      // The same dates read at the main location (New York) do not reach a Harbour Dock shift.
      expect(await workday("2023-12-23", "2023-12-24", "INTERSECTION", MAIN)).not.toContain(id);
    });

    it("refuses a malformed date", async () => {
      const err = await failure(
        t.client.labor.searchShifts({
          query: { filter: filter({ workday: { date_range: { start_date: "2023-13-01", end_date: "2023-12-02" } } }) },
        }),
      );
      expect(err.status).toBe(400);
      expect(err.errors[0]?.field).toBe("query.filter.workday.date_range.start_date");
    });
  });
});

describe("wages", () => {
  it("lists team member wages, filters by member, pages, and checks the limit", async () => {
    const all = await t.client.labor.listTeamMemberWages();
    expect(all.team_member_wages).toHaveLength(14);
    for (const w of all.team_member_wages ?? []) {
      expect(w.id).toBeTruthy();
      expect(w.hourly_rate?.currency).toBe("USD");
      expect(typeof w.tip_eligible).toBe("boolean");
    }
    const marcus = await t.client.labor.listTeamMemberWages({ team_member_id: MARCUS });
    expect(marcus.team_member_wages?.map((w) => w.title)).toEqual(["Shift Lead", "Sales Associate"]);
    expect(marcus.team_member_wages?.[0]?.hourly_rate).toEqual({ amount: 2250, currency: "USD" });

    const paged: string[] = [];
    for await (const w of t.client.labor.listTeamMemberWages({ limit: 3 })) paged.push(w.id as string);
    expect(paged).toEqual(all.team_member_wages?.map((w) => w.id));
    expect((await failure(t.client.labor.listTeamMemberWages({ limit: 0 }))).code).toBe("VALUE_TOO_LOW");
    expect((await failure(t.client.labor.listTeamMemberWages({ limit: 201 }))).code).toBe("VALUE_TOO_HIGH");

    const one = await t.client.labor.getTeamMemberWage(marcus.team_member_wages?.[1]?.id as string);
    expect(one.team_member_wage).toEqual(marcus.team_member_wages?.[1]);
    expect((await failure(t.client.labor.getTeamMemberWage("NOPE"))).status).toBe(404);
  });

  it("serves the same wages in the deprecated employee shape", async () => {
    const wages = await t.client.labor.listEmployeeWages({ employee_id: MARCUS });
    expect(wages.employee_wages?.map((w) => [w.employee_id, w.title, w.hourly_rate?.amount])).toEqual([
      [MARCUS, "Shift Lead", 2250],
      [MARCUS, "Sales Associate", 1800],
    ]);
    const id = wages.employee_wages?.[0]?.id as string;
    expect((await t.client.labor.getEmployeeWage(id)).employee_wage).toEqual(wages.employee_wages?.[0]);
    const first = await t.client.labor.listEmployeeWages({ limit: 5 });
    expect(first.employee_wages).toHaveLength(5);
    // The client does not let a caller pass a cursor by hand; a changed query is sent raw.
    const changed = await t.raw(
      "GET",
      `/v2/labor/employee-wages?employee_id=${MARCUS}&cursor=${encodeURIComponent(first.cursor as string)}`,
    );
    expect(changed.status).toBe(400);
    expect(changed.json.errors[0].code).toBe("INVALID_CURSOR");
    expect((await failure(t.client.labor.listEmployeeWages({ limit: 201 }))).code).toBe("VALUE_TOO_HIGH");
  });
});

describe("workweek configs", () => {
  it("updates with the current version, truncates seconds, and refuses a stale version or a bad time", async () => {
    const [config] = (await t.client.labor.listWorkweekConfigs({ limit: 1 })).workweek_configs ?? [];
    const id = config?.id as string;
    const version = config?.version as number;
    const stale = await failure(
      t.client.labor.updateWorkweekConfig(id, {
        workweek_config: { start_of_week: "SUN", start_of_day_local_time: "05:00", version: version - 1 },
      }),
    );
    expect(stale.status).toBe(409);
    const bad = await failure(
      t.client.labor.updateWorkweekConfig(id, {
        workweek_config: { start_of_week: "SUN", start_of_day_local_time: "25:00", version },
      }),
    );
    expect(bad.errors[0]?.field).toBe("workweek_config.start_of_day_local_time");
    const badDay = await failure(
      t.client.labor.updateWorkweekConfig(id, {
        workweek_config: { start_of_week: "FUNDAY" as "SUN", start_of_day_local_time: "05:00", version },
      }),
    );
    expect(badDay.status).toBe(400);
    const ok = await t.client.labor.updateWorkweekConfig(id, {
      workweek_config: { start_of_week: "MON", start_of_day_local_time: "04:00:59", version },
    });
    expect(ok.workweek_config).toMatchObject({
      start_of_week: "MON",
      start_of_day_local_time: "04:00",
      version: version + 1,
    });
    expect(
      (await failure(t.client.labor.updateWorkweekConfig("NOPE", { workweek_config: ok.workweek_config as never })))
        .status,
    ).toBe(404);
  });
});
