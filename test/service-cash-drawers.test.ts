import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cashDrawerTotals, expectedCash, overShort } from "../src/domain/cash.js";
import { checkExpectedCash } from "../src/domain/cash-drawers.js";
import { saveShift, saveShiftEvents } from "../src/service/cash-drawers/repo.js";
import { DEMO } from "../src/service/seed/demo-ids.js";
import type { CashDrawerShift, CashDrawerShiftSummary } from "../src/spec/generated/types.js";
import { failure, startService, type TestService } from "./helpers/service.js";

let t: TestService;
/** A location of synthetic shifts laid out by the test, for limits and boundaries. */
const BULK = "LBULKTEST00001";
const BULK_SHIFTS = 1_050;
const BULK_START = Date.parse("2024-03-01T00:00:00.000Z");
const BULK_EVENTS_SHIFT = "BULKSHIFTWITHEVENTS0000001";

beforeAll(async () => {
  t = await startService();
  // 1,050 shifts an hour apart (more than the largest page), one of them with 1,050 events.
  const db = t.service.db;
  db.transaction(() => {
    for (let i = 0; i < BULK_SHIFTS; i++) {
      const at = new Date(BULK_START + i * 3_600_000).toISOString();
      const id = i === 0 ? BULK_EVENTS_SHIFT : `BULK${String(i).padStart(22, "0")}`;
      saveShift(db, {
        merchantId: DEMO.merchantId,
        shift: {
          id,
          state: "CLOSED",
          opened_at: at,
          location_id: BULK,
          opened_cash_money: { amount: 0, currency: "USD" },
        },
      });
    }
    const events = Array.from({ length: BULK_SHIFTS }, (_, k) => ({
      id: `BULKEVENT${String(k).padStart(17, "0")}`,
      event_type: "NO_SALE" as const,
      event_money: { amount: 0, currency: "USD" as const },
      created_at: new Date(BULK_START + k * 1_000).toISOString(),
    }));
    saveShiftEvents(db, BULK_EVENTS_SHIFT, events);
  })();
});
afterAll(async () => {
  await t?.close();
});

const list = (query: Parameters<TestService["client"]["cashDrawers"]["listCashDrawerShifts"]>[0]) =>
  t.client.cashDrawers.listCashDrawerShifts(query);

describe("seeded cash drawer shifts", () => {
  const shifts = new Map<string, CashDrawerShift[]>();

  beforeAll(async () => {
    for (const loc of [DEMO.mainLocationId, DEMO.secondLocationId]) {
      const summaries = await list({ location_id: loc }).all();
      const full: CashDrawerShift[] = [];
      for (const s of summaries) {
        const r = await t.client.cashDrawers.retrieveCashDrawerShift(s.id ?? "", { location_id: loc });
        if (r.cash_drawer_shift) full.push(r.cash_drawer_shift);
      }
      shifts.set(loc, full);
    }
  });

  it("covers 30 days at each location, several shifts a day, in every state", () => {
    const now = t.service.clock.now().getTime();
    for (const loc of [DEMO.mainLocationId, DEMO.secondLocationId]) {
      const all = shifts.get(loc) ?? [];
      const days = new Set(all.map((s) => s.opened_at?.slice(0, 10)));
      expect(days.size).toBeGreaterThanOrEqual(29);
      expect(all.length).toBeGreaterThanOrEqual(2 * 29);
      const oldest = Math.min(...all.map((s) => Date.parse(s.opened_at ?? "")));
      expect(now - oldest).toBeGreaterThan(28 * 86_400_000);
      expect(now - oldest).toBeLessThan(31 * 86_400_000);
      const states = new Set(all.map((s) => s.state));
      expect(states.has("OPEN")).toBe(true);
      expect(states.has("CLOSED")).toBe(true);
      for (const s of all) expect(Date.parse(s.opened_at ?? "")).toBeLessThanOrEqual(now);
    }
    const everything = [...shifts.values()].flat();
    expect(everything.some((s) => s.state === "ENDED")).toBe(true);
  });

  it("has money fields that add up: expected = opened + payments − refunds + paid in − paid out", () => {
    for (const s of [...shifts.values()].flat()) {
      expect(s.expected_cash_money).toEqual(expectedCash(s));
      for (const m of [s.cash_payment_money, s.cash_refunds_money, s.cash_paid_in_money, s.cash_paid_out_money]) {
        expect(m?.amount).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it("has fields that are the sums of each shift's events, but for the two that show a mismatch", async () => {
    const mismatched: CashDrawerShift[] = [];
    for (const s of [...shifts.values()].flat()) {
      const events = await t.client.cashDrawers
        .listCashDrawerShiftEvents(s.id ?? "", { location_id: s.location_id ?? "" })
        .all();
      for (const e of events) {
        expect(Date.parse(e.created_at ?? "")).toBeGreaterThanOrEqual(Date.parse(s.opened_at ?? ""));
        if (s.ended_at) expect(Date.parse(e.created_at ?? "")).toBeLessThanOrEqual(Date.parse(s.ended_at));
      }
      if (checkExpectedCash(s, events)) {
        mismatched.push(s);
        continue;
      }
      const totals = cashDrawerTotals(s.opened_cash_money, events);
      expect(s.cash_payment_money).toEqual(totals.cash_payment_money);
      expect(s.cash_refunds_money).toEqual(totals.cash_refunds_money);
      expect(s.cash_paid_in_money).toEqual(totals.cash_paid_in_money);
      expect(s.cash_paid_out_money).toEqual(totals.cash_paid_out_money);
      expect(s.expected_cash_money).toEqual(totals.expected_cash_money);
    }
    // Today's garden centre morning (a paid out missed the totals) and a paint desk shift twelve days ago.
    expect(mismatched.map((s) => s.description).sort()).toEqual(["Garden centre, morning", "Paint desk, afternoon"]);
    for (const s of mismatched) expect(s.state).toBe("CLOSED");
  });

  it("has every kind of event in the store", async () => {
    const kinds = new Set<string>();
    for (const s of (shifts.get(DEMO.mainLocationId) ?? []).slice(0, 40)) {
      for await (const e of t.client.cashDrawers.listCashDrawerShiftEvents(s.id ?? "", {
        location_id: DEMO.mainLocationId,
      }))
        kinds.add(e.event_type ?? "");
    }
    for (const k of [
      "NO_SALE",
      "CASH_TENDER_PAYMENT",
      "OTHER_TENDER_PAYMENT",
      "CASH_TENDER_CANCELLED_PAYMENT",
      "OTHER_TENDER_CANCELLED_PAYMENT",
      "CASH_TENDER_REFUND",
      "OTHER_TENDER_REFUND",
      "PAID_IN",
      "PAID_OUT",
    ]) {
      expect(kinds.has(k)).toBe(true);
    }
  });

  it("counts closed shifts, some exactly and some over or short; open and ended ones are not counted", () => {
    const all = [...shifts.values()].flat();
    const diffs = all.filter((s) => s.state === "CLOSED").map((s) => overShort(s)?.amount);
    expect(diffs.every((d) => typeof d === "number")).toBe(true);
    expect(diffs.filter((d) => d === 0).length).toBeGreaterThan(diffs.length / 2);
    expect(diffs.some((d) => (d ?? 0) > 0)).toBe(true);
    expect(diffs.some((d) => (d ?? 0) < 0)).toBe(true);
    for (const s of all.filter((x) => x.state !== "CLOSED")) {
      expect(s.closed_cash_money).toBeUndefined();
      expect(s.closed_at).toBeUndefined();
    }
    for (const s of all.filter((x) => x.state === "OPEN")) expect(s.ended_at).toBeUndefined();
    for (const s of all.filter((x) => x.state === "ENDED")) expect(s.ended_at).toBeDefined();
  });

  it("names the opening, ending and closing team members from the directory", () => {
    const known = new Set(
      (t.service.db.prepare("SELECT id FROM team_members").all() as { id: string }[]).map((r) => r.id),
    );
    expect(known.size).toBeGreaterThan(0);
    for (const s of [...shifts.values()].flat()) {
      expect(known.has(s.opening_team_member_id ?? "")).toBe(true);
      if (s.state !== "OPEN") expect(known.has(s.ending_team_member_id ?? "")).toBe(true);
      if (s.state === "CLOSED") expect(known.has(s.closing_team_member_id ?? "")).toBe(true);
      for (const id of s.team_member_ids ?? []) expect(known.has(id)).toBe(true);
    }
  });
});

describe("listCashDrawerShifts", () => {
  it("needs location_id", async () => {
    const r = await t.raw("GET", "/v2/cash-drawers/shifts");
    expect(r.status).toBe(400);
    expect(r.json.errors[0]).toMatchObject({ code: "MISSING_REQUIRED_PARAMETER", field: "location_id" });
  });

  it("returns summaries only, of the location asked for", async () => {
    const page = await list({ location_id: DEMO.secondLocationId, limit: 5 });
    const first = page.cash_drawer_shifts?.[0] as CashDrawerShiftSummary & Record<string, unknown>;
    expect(first.location_id).toBe(DEMO.secondLocationId);
    expect(first.opened_cash_money).toBeDefined();
    expect(first.expected_cash_money).toBeDefined();
    expect(first.cash_payment_money).toBeUndefined();
    expect(first.device).toBeUndefined();
    for (const s of page.cash_drawer_shifts ?? []) expect(s.location_id).toBe(DEMO.secondLocationId);
  });

  it("sorts by opened_at ascending by default, and descending on request", async () => {
    const asc = await list({ location_id: DEMO.mainLocationId }).all();
    const opened = asc.map((s) => s.opened_at ?? "");
    expect(opened).toEqual([...opened].sort());
    const desc = await list({ location_id: DEMO.mainLocationId, sort_order: "DESC" }).all();
    expect(desc.map((s) => s.id)).toEqual(asc.map((s) => s.id).reverse());
  });

  it("takes begin_time inclusive and end_time exclusive, on opened_at", async () => {
    const at = new Date(BULK_START + 10 * 3_600_000).toISOString();
    const from = await list({ location_id: BULK, begin_time: at, limit: 1 });
    expect(from.cash_drawer_shifts?.[0]?.opened_at).toBe(at);
    const before = await list({ location_id: BULK, end_time: at, sort_order: "DESC", limit: 1 });
    expect(before.cash_drawer_shifts?.[0]?.opened_at).toBe(new Date(BULK_START + 9 * 3_600_000).toISOString());
    const exactly = await list({ location_id: BULK, begin_time: at, end_time: at });
    expect(exactly.cash_drawer_shifts ?? []).toHaveLength(0);
    const oneMs = new Date(BULK_START + 10 * 3_600_000 + 1).toISOString();
    const window = await list({ location_id: BULK, begin_time: at, end_time: oneMs });
    expect(window.cash_drawer_shifts?.map((s) => s.opened_at)).toEqual([at]);
  });

  it("compares instants, whatever the offset the times are written in", async () => {
    const page = await list({ location_id: BULK, begin_time: "2024-02-29T20:00:00-05:00", limit: 1 });
    expect(page.cash_drawer_shifts?.[0]?.opened_at).toBe("2024-03-01T01:00:00.000Z");
  });

  it("refuses a window that ends before it begins, and malformed times", async () => {
    let e = await failure(
      list({ location_id: BULK, begin_time: "2024-03-02T00:00:00Z", end_time: "2024-03-01T00:00:00Z" }),
    );
    expect(e.code).toBe("INVALID_TIME_RANGE");
    e = await failure(list({ location_id: BULK, begin_time: "yesterday" }));
    expect(e.code).toBe("INVALID_TIME");
    expect(e.errors[0]?.field).toBe("begin_time");
  });

  it("pages 200 by default and at most 1000", async () => {
    const first = await list({ location_id: BULK });
    expect(first.cash_drawer_shifts).toHaveLength(200);
    expect(first.cursor).toBeTruthy();
    const max = await list({ location_id: BULK, limit: 1000 });
    expect(max.cash_drawer_shifts).toHaveLength(1000);
    expect((await failure(list({ location_id: BULK, limit: 1001 }))).code).toBe("VALUE_TOO_HIGH");
    expect((await failure(list({ location_id: BULK, limit: 0 }))).code).toBe("VALUE_TOO_LOW");
  });

  it("pages with an opaque cursor through every shift once, and ends without a cursor", async () => {
    const pages = [];
    for await (const p of list({ location_id: BULK, limit: 300, sort_order: "DESC" }).pages()) pages.push(p);
    expect(pages).toHaveLength(4);
    expect(pages[3]?.cursor).toBeUndefined();
    const ids = pages.flatMap((p) => p.cash_drawer_shifts ?? []).map((s) => s.id);
    expect(ids).toHaveLength(BULK_SHIFTS);
    expect(new Set(ids).size).toBe(BULK_SHIFTS);
    expect(ids[0]).toBe(`BULK${String(BULK_SHIFTS - 1).padStart(22, "0")}`);
  });

  it("refuses a cursor from another query, and one that is not a cursor", async () => {
    const first = await list({ location_id: BULK, limit: 10 });
    const cursor = first.cursor ?? "";
    const ok = await t.raw("GET", `/v2/cash-drawers/shifts?location_id=${BULK}&limit=10&cursor=${cursor}`);
    expect(ok.status).toBe(200);
    const changed = await t.raw("GET", `/v2/cash-drawers/shifts?location_id=${BULK}&sort_order=DESC&cursor=${cursor}`);
    expect(changed.status).toBe(400);
    expect(changed.json.errors[0].code).toBe("INVALID_CURSOR");
    const other = await t.raw("GET", `/v2/cash-drawers/shifts?location_id=${DEMO.mainLocationId}&cursor=${cursor}`);
    expect(other.json.errors[0].code).toBe("INVALID_CURSOR");
    const junk = await t.raw("GET", `/v2/cash-drawers/shifts?location_id=${BULK}&cursor=not-a-cursor`);
    expect(junk.json.errors[0].code).toBe("INVALID_CURSOR");
  });

  it("may change the page size between pages of one query", async () => {
    const first = await list({ location_id: BULK, limit: 2 });
    const next = await t.raw("GET", `/v2/cash-drawers/shifts?location_id=${BULK}&limit=3&cursor=${first.cursor}`);
    expect(next.status).toBe(200);
    expect(next.json.cash_drawer_shifts.map((s: { opened_at: string }) => s.opened_at)).toEqual([
      new Date(BULK_START + 2 * 3_600_000).toISOString(),
      new Date(BULK_START + 3 * 3_600_000).toISOString(),
      new Date(BULK_START + 4 * 3_600_000).toISOString(),
    ]);
  });

  it("gives an empty list for a location without shifts", async () => {
    const page = await list({ location_id: "LNOSHIFTS00001" });
    expect(page.cash_drawer_shifts ?? []).toEqual([]);
    expect(page.cursor).toBeUndefined();
  });
});

describe("retrieveCashDrawerShift", () => {
  it("returns the full shift at its location", async () => {
    const [summary] = (await list({ location_id: DEMO.mainLocationId, limit: 1 })).cash_drawer_shifts ?? [];
    const r = await t.client.cashDrawers.retrieveCashDrawerShift(summary?.id ?? "", {
      location_id: DEMO.mainLocationId,
    });
    expect(r.cash_drawer_shift?.id).toBe(summary?.id);
    expect(r.cash_drawer_shift?.cash_payment_money).toBeDefined();
    expect(r.cash_drawer_shift?.device?.name).toBeTruthy();
  });

  it("does not find a shift of another location, or an unknown one", async () => {
    const [summary] = (await list({ location_id: DEMO.mainLocationId, limit: 1 })).cash_drawer_shifts ?? [];
    const e = await failure(
      t.client.cashDrawers.retrieveCashDrawerShift(summary?.id ?? "", { location_id: DEMO.secondLocationId }),
    );
    expect(e.status).toBe(404);
    expect(e.code).toBe("NOT_FOUND");
    const unknown = await failure(
      t.client.cashDrawers.retrieveCashDrawerShift("NOSUCHSHIFT", { location_id: DEMO.mainLocationId }),
    );
    expect(unknown.status).toBe(404);
  });

  it("needs location_id", async () => {
    const r = await t.raw("GET", `/v2/cash-drawers/shifts/${BULK_EVENTS_SHIFT}`);
    expect(r.status).toBe(400);
    expect(r.json.errors[0]).toMatchObject({ code: "MISSING_REQUIRED_PARAMETER", field: "location_id" });
  });
});

describe("listCashDrawerShiftEvents", () => {
  const events = (shiftId: string, query: { location_id: string; limit?: number }) =>
    t.client.cashDrawers.listCashDrawerShiftEvents(shiftId, query);

  it("needs the shift's own location", async () => {
    const missing = await t.raw("GET", `/v2/cash-drawers/shifts/${BULK_EVENTS_SHIFT}/events`);
    expect(missing.json.errors[0]).toMatchObject({ code: "MISSING_REQUIRED_PARAMETER", field: "location_id" });
    const e = await failure(events(BULK_EVENTS_SHIFT, { location_id: DEMO.mainLocationId }));
    expect(e.status).toBe(404);
  });

  it("pages 200 by default and at most 1000, in the order they happened", async () => {
    const first = await events(BULK_EVENTS_SHIFT, { location_id: BULK });
    expect(first.cash_drawer_shift_events).toHaveLength(200);
    expect(first.cash_drawer_shift_events?.[0]?.id).toBe(`BULKEVENT${"0".padStart(17, "0")}`);
    const max = await events(BULK_EVENTS_SHIFT, { location_id: BULK, limit: 1000 });
    expect(max.cash_drawer_shift_events).toHaveLength(1000);
    expect((await failure(events(BULK_EVENTS_SHIFT, { location_id: BULK, limit: 1001 }))).code).toBe("VALUE_TOO_HIGH");
    expect((await failure(events(BULK_EVENTS_SHIFT, { location_id: BULK, limit: 0 }))).code).toBe("VALUE_TOO_LOW");
  });

  it("pages with a cursor through every event once", async () => {
    const all = await events(BULK_EVENTS_SHIFT, { location_id: BULK, limit: 400 }).all();
    expect(all.map((e) => e.created_at)).toEqual(
      Array.from({ length: BULK_SHIFTS }, (_, k) => new Date(BULK_START + k * 1_000).toISOString()),
    );
  });

  it("refuses another shift's cursor", async () => {
    const first = await events(BULK_EVENTS_SHIFT, { location_id: BULK, limit: 5 });
    const [shift] = (await list({ location_id: DEMO.mainLocationId, limit: 1 })).cash_drawer_shifts ?? [];
    const r = await t.raw(
      "GET",
      `/v2/cash-drawers/shifts/${shift?.id}/events?location_id=${DEMO.mainLocationId}&cursor=${first.cursor}`,
    );
    expect(r.status).toBe(400);
    expect(r.json.errors[0].code).toBe("INVALID_CURSOR");
  });
});
