// The review's background refresh against the in-process local service: a long range reads only
// what changed, a short one is read whole, and a whole read now and then drops what was deleted.
import { Agent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { pinnedClock, startService, type TestService } from "../../test/helpers/service.js";
import { createFullStore } from "../../test/helpers/store.js";
import { OutboxHandle } from "../local/outbox.js";
import { createClient, type SquareClient } from "../square/index.js";
import { WHOLE_READ_EVERY } from "./review-slice.js";

// Wednesday 2026-05-06, 15:00 in New York.
const NOW = Date.parse("2026-05-06T19:00:00Z");
// A Monday and Tuesday long before the demo's history, so nothing of the seed is in the range.
const RANGE = { from: "2024-01-08", to: "2024-01-09" };

let svc: TestService | undefined;
let client: SquareClient | undefined;
afterEach(async () => {
  await client?.close();
  await svc?.close();
  svc = undefined;
  client = undefined;
});

/**
 * The shift searches the store sent (one per page), with the sort each asked for and whose shifts:
 * the store's, its members' at the other stores (they count toward overtime), or every store's.
 */
interface Search {
  sort: string;
  of: "store" | "members elsewhere" | "every store";
}

/** A store on a local service; `changesDelayMs` holds back the refresh's searches of what changed. */
async function setup(opts: { changesDelayMs?: number } = {}) {
  const clock = pinnedClock(NOW);
  svc = await startService({ clock });
  const searches: Search[] = [];
  const dispatcher = new Agent().compose((dispatch) => (req, handler) => {
    if (req.path.endsWith("/v2/labor/shifts/search")) {
      const body = JSON.parse(String(req.body ?? "{}")) as {
        query?: { sort?: { field?: string }; filter?: { location_ids?: string[]; team_member_ids?: string[] } };
      };
      const sort = body.query?.sort?.field ?? "START_AT";
      const filter = body.query?.filter;
      const of = filter?.team_member_ids?.length
        ? "members elsewhere"
        : filter?.location_ids?.length
          ? "store"
          : "every store";
      searches.push({ sort, of });
      if (sort === "UPDATED_AT" && opts.changesDelayMs) {
        setTimeout(() => dispatch(req, handler), opts.changesDelayMs);
        return true;
      }
    }
    return dispatch(req, handler);
  });
  client = createClient({ baseUrl: svc.url, accessToken: svc.service.accessToken, maxRetries: 0, dispatcher });
  const store = await createFullStore({ outbox: new OutboxHandle(":memory:"), client, clock, readOnly: false });
  await store.getState().init();
  return { store, svc, clock, searches };
}

/**
 * `count` 10-minute shifts, 2 minutes apart, spread over the location's members, on the range's
 * first day; one is saved each `step` seconds of the service's clock (0: all in one instant).
 */
async function addShifts(
  s: TestService,
  clock: { advance(s: number): void },
  locationId: string,
  count: number,
  step = 1,
) {
  const members = await s.client.team
    .searchTeamMembers({ query: { filter: { location_ids: [locationId], status: "ACTIVE" } } })
    .all();
  const per = Math.ceil(count / members.length);
  const from = Date.parse(`${RANGE.from}T14:00:00Z`);
  let made = 0;
  for (const [mi, member] of members.entries()) {
    for (let i = 0; i < per && made < count; i++, made++) {
      const start = from + i * 12 * 60_000;
      clock.advance(step);
      await s.client.labor.createShift({
        idempotency_key: `review-refresh-${mi}-${i}`,
        shift: {
          location_id: locationId,
          team_member_id: member.id ?? "",
          start_at: new Date(start).toISOString(),
          end_at: new Date(start + 10 * 60_000).toISOString(),
        },
      });
    }
  }
}

describe("the review's background refresh", () => {
  it("on a range of more than a page reads only what changed: one request, changes and new shifts shown", async () => {
    const { store, svc, clock, searches } = await setup();
    const locationId = store.getState().locationId ?? "";
    await addShifts(svc, clock, locationId, 300);
    await store.getState().loadReview(RANGE);
    expect(store.getState().review.shifts).toHaveLength(300);
    // Two pages of the store's shifts, then its members' shifts at the other store (Mei works at both).
    expect(searches).toEqual([
      { sort: "START_AT", of: "store" },
      { sort: "START_AT", of: "store" },
      { sort: "START_AT", of: "members elsewhere" },
    ]);

    // Ten minutes later, another terminal ends one shift earlier and adds one.
    clock.advance(600);
    const [first] = store.getState().review.shifts;
    if (!first?.id || !first.end_at) throw new Error("no shift");
    const earlier = new Date(Date.parse(first.end_at) - 5 * 60_000).toISOString();
    await svc.client.labor.updateShift(first.id, { shift: { ...first, id: undefined, end_at: earlier } as never });
    const added = await svc.client.labor.createShift({
      idempotency_key: "review-refresh-added",
      shift: {
        location_id: locationId,
        team_member_id: first.team_member_id ?? "",
        start_at: `${RANGE.to}T20:00:00Z`,
        end_at: `${RANGE.to}T21:00:00Z`,
      },
    });

    searches.length = 0;
    await store.getState().refreshReview();
    expect(searches).toEqual([{ sort: "UPDATED_AT", of: "every store" }]);
    const review = store.getState().review;
    expect(review.shifts).toHaveLength(301);
    expect(Date.parse(review.shifts.find((s) => s.id === first.id)?.end_at ?? "")).toBe(Date.parse(earlier));
    expect(review.shifts.some((s) => s.id === added.shift?.id)).toBe(true);
    expect(review.result?.rows).toHaveLength(301);
    expect(review.result?.totals.shifts).toBe(301);

    // Nothing changed since: one request, and the review is left as it is (not figured again).
    searches.length = 0;
    const result = review.result;
    await store.getState().refreshReview();
    expect(searches).toEqual([{ sort: "UPDATED_AT", of: "every store" }]);
    expect(store.getState().review.result).toBe(result);
  });

  it("does not read again a range whose shifts were all saved in one instant, as an import saves them", async () => {
    const { store, svc, clock, searches } = await setup();
    await addShifts(svc, clock, store.getState().locationId ?? "", 250, 0);
    await store.getState().loadReview(RANGE);
    const result = store.getState().review.result;
    searches.length = 0;
    await store.getState().refreshReview();
    expect(searches).toEqual([{ sort: "UPDATED_AT", of: "every store" }]);
    expect(store.getState().review.result).toBe(result);
  });

  it("drops a shift deleted elsewhere at the whole read every WHOLE_READ_EVERY refreshes; `r` at once", async () => {
    const { store, svc, clock, searches } = await setup();
    const locationId = store.getState().locationId ?? "";
    await addShifts(svc, clock, locationId, 250);
    await store.getState().loadReview(RANGE);
    const gone = store.getState().review.shifts[7]?.id ?? "";
    await svc.client.labor.deleteShift(gone);

    const sorts: string[] = [];
    for (let i = 1; i < WHOLE_READ_EVERY; i++) {
      searches.length = 0;
      await store.getState().refreshReview();
      sorts.push(...searches.map((s) => s.sort));
      expect(store.getState().review.shifts.some((s) => s.id === gone)).toBe(true);
    }
    expect(sorts).toEqual(Array(WHOLE_READ_EVERY - 1).fill("UPDATED_AT"));
    searches.length = 0;
    await store.getState().refreshReview();
    expect(searches.map((x) => x.sort)).toEqual(["START_AT", "START_AT", "START_AT"]);
    expect(store.getState().review.shifts).toHaveLength(249);
    expect(store.getState().review.shifts.some((s) => s.id === gone)).toBe(false);

    // And what `r` does: a whole read, whatever the count of refreshes.
    const another = store.getState().review.shifts[3]?.id ?? "";
    await svc.client.labor.deleteShift(another);
    await store.getState().loadReview();
    expect(store.getState().review.shifts.some((s) => s.id === another)).toBe(false);
  });

  it("reads a range of one page whole each time, so a deletion elsewhere leaves at the next refresh", async () => {
    const { store, svc, clock, searches } = await setup();
    const locationId = store.getState().locationId ?? "";
    await addShifts(svc, clock, locationId, 20);
    await store.getState().loadReview(RANGE);
    const gone = store.getState().review.shifts[0]?.id ?? "";
    await svc.client.labor.deleteShift(gone);
    searches.length = 0;
    await store.getState().refreshReview();
    expect(searches).toEqual([
      { sort: "START_AT", of: "store" },
      { sort: "START_AT", of: "members elsewhere" },
    ]);
    expect(store.getState().review.shifts).toHaveLength(19);
  });

  it("keeps nothing a refresh read for a range the manager has since left", async () => {
    const { store, svc, clock } = await setup({ changesDelayMs: 200 });
    const locationId = store.getState().locationId ?? "";
    await addShifts(svc, clock, locationId, 250);
    await store.getState().loadReview(RANGE);
    clock.advance(60);
    const [first] = store.getState().review.shifts;
    await svc.client.labor.updateShift(first?.id ?? "", {
      shift: { ...first, id: undefined, end_at: new Date(Date.parse(first?.end_at ?? "") - 60_000).toISOString() },
    } as never);
    // The refresh is under way (held back) when the manager moves to the next week, which the
    // whole read of shows before the refresh's answer arrives.
    const refresh = store.getState().refreshReview();
    await store.getState().loadReview({ from: "2024-01-15", to: "2024-01-16" });
    expect(store.getState().review.shifts).toHaveLength(0);
    await refresh;
    expect(store.getState().review.from).toBe("2024-01-15");
    expect(store.getState().review.shifts).toHaveLength(0);
  });
});

describe("the review across stores", () => {
  it("reads its members' shifts at the other store, and all locations when chosen", async () => {
    const { store, svc, searches } = await setup();
    const { locations } = store.getState();
    const main = locations.find((l) => l.name === "Main Street")?.id ?? "";
    const dock = locations.find((l) => l.name === "Harbour Dock")?.id ?? "";
    store.getState().selectLocation(main);
    // Mei: 36 h at Harbour Dock on Monday and Tuesday (18 h each), then 8 h at Main Street on Tuesday night.
    const shift = (location_id: string, start: string, hours: number) =>
      svc.client.labor.createShift({
        shift: {
          location_id,
          team_member_id: "TMDEMO0007",
          start_at: start,
          end_at: new Date(Date.parse(start) + hours * 3_600_000).toISOString(),
          wage: { title: "Key Holder", hourly_rate: { amount: 2000, currency: "USD" } },
        },
      });
    await shift(dock, "2024-01-08T15:00:00Z", 18);
    await shift(dock, "2024-01-09T15:00:00Z", 8);
    await shift(main, "2024-01-10T02:00:00Z", 20);
    searches.length = 0;
    await store.getState().loadReview({ from: "2024-01-08", to: "2024-01-14" });
    expect(searches.map((s) => s.of)).toEqual(["store", "members elsewhere"]);
    const mei = store.getState().review.result?.members.find((m) => m.memberId === "TMDEMO0007");
    // 26 h at Harbour Dock first: of the 20 h at Main Street, 14 are regular and 6 over 40.
    expect(mei).toMatchObject({
      shifts: 1,
      regularHours: 14,
      overtimeHours: 6,
      overtimeFromElsewhereHours: 6,
      elsewhere: [{ locationId: dock, hours: 26 }],
    });

    store.getState().selectAllLocations();
    expect(store.getState().review.stale).toBe(true);
    searches.length = 0;
    await store.getState().loadReview();
    expect(searches.map((s) => s.of)).toEqual(["every store"]);
    const all = store.getState().review.result;
    expect(all?.locationId).toBeUndefined();
    expect(all?.members.find((m) => m.memberId === "TMDEMO0007")).toMatchObject({
      shifts: 3,
      regularHours: 40,
      overtimeHours: 6,
      locationIds: [dock, main].sort(),
    });
    expect(store.getState().exportPath()).toMatch(/\/shifts-all-locations-2024-01-08-to-2024-01-14\.csv$/);
    // Choosing one store again leaves all locations.
    store.getState().selectLocation(dock);
    expect(store.getState().allLocations).toBe(false);
  });
});
