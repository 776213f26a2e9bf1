import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { savePayoutEntries, savePayouts } from "../src/service/payouts/repo.js";
import { DEMO } from "../src/service/seed/demo-ids.js";
import { storeToken } from "../src/service/tokens.js";
import type { Payout, PayoutEntry } from "../src/spec/generated/types.js";
import type { ListPayoutsQuery } from "../src/square/payouts.js";
import { failure, startService, type TestService } from "./helpers/service.js";

let t: TestService;
let now: number;
let mainPayouts: Payout[];

/** A payout the test adds one hour in the service's future, to see that end_time defaults to now. */
const FUTURE_PAYOUT = "po_future-test";
/** A payout with 250 entries, for paging entries. */
const BIG_PAYOUT = "po_big-test";
const BIG_ENTRIES = 250;

beforeAll(async () => {
  t = await startService();
  now = t.service.clock.now().getTime();
  const db = t.service.db;
  const usd = (amount: number) => ({ amount, currency: "USD" as const });
  savePayouts(db, DEMO.merchantId, [
    {
      id: FUTURE_PAYOUT,
      status: "SENT",
      location_id: DEMO.mainLocationId,
      created_at: new Date(now + 3_600_000).toISOString(),
      amount_money: usd(100),
    },
    {
      id: BIG_PAYOUT,
      status: "PAID",
      location_id: "LBIGPAYOUTTEST",
      created_at: "2020-01-02T00:00:00.000Z",
      amount_money: usd(BIG_ENTRIES * 100),
    },
  ]);
  savePayoutEntries(
    db,
    Array.from({ length: BIG_ENTRIES }, (_, k) => ({
      id: `poe_big_${String(k).padStart(4, "0")}`,
      payout_id: BIG_PAYOUT,
      effective_at: new Date(Date.parse("2020-01-01T00:00:00.000Z") + k * 60_000).toISOString(),
      type: "CHARGE" as const,
      gross_amount_money: usd(100),
      fee_amount_money: usd(0),
      net_amount_money: usd(100),
    })),
  );
  mainPayouts = await t.client.payouts.listPayouts({}).all();
});
afterAll(async () => {
  await t?.close();
});

const list = (q: ListPayoutsQuery) => t.client.payouts.listPayouts(q);
const iso = (ms: number) => new Date(ms).toISOString();
const YEAR_AGO = () => {
  const d = new Date(now);
  d.setUTCFullYear(d.getUTCFullYear() - 1);
  return d.getTime();
};

describe("seeded payouts", () => {
  it("cover the last year of the main location by default, newest first", () => {
    expect(mainPayouts.length).toBeGreaterThanOrEqual(360);
    expect(mainPayouts.length).toBeLessThanOrEqual(367);
    for (const p of mainPayouts) {
      expect(p.location_id).toBe(DEMO.mainLocationId);
      const at = Date.parse(p.created_at ?? "");
      expect(at).toBeGreaterThanOrEqual(YEAR_AGO());
      expect(at).toBeLessThan(now);
    }
    const created = mainPayouts.map((p) => p.created_at ?? "");
    expect(created).toEqual([...created].sort().reverse());
  });

  it("are bank deposits of the batch kind, mostly paid, some sent or failed", () => {
    const statuses = mainPayouts.map((p) => p.status);
    expect(statuses.filter((s) => s === "PAID").length).toBeGreaterThan(mainPayouts.length * 0.9);
    expect(statuses).toContain("SENT");
    const all = [...mainPayouts];
    expect(all.some((p) => p.status === "FAILED")).toBe(true);
    for (const p of all) {
      expect(p.destination?.type).toBe("BANK_ACCOUNT");
      expect(p.type).toBe("BATCH");
      expect(p.amount_money?.amount).toBeGreaterThan(0);
      expect(p.arrival_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(p.version).toBeGreaterThanOrEqual(1);
      expect(Date.parse(p.updated_at ?? "")).toBeGreaterThanOrEqual(Date.parse(p.created_at ?? ""));
    }
  });

  it("each add up: the payout's amount is the sum of its entries' net, and net = gross − fee", async () => {
    const second = await list({ location_id: DEMO.secondLocationId }).all();
    expect(second.length).toBeGreaterThan(250);
    const types = new Set<string>();
    // Every payout of the main location and every third of the other keep the test quick.
    const payouts = [...mainPayouts, ...second.filter((_, i) => i % 3 === 0)];
    const entriesOf = new Map<string, PayoutEntry[]>();
    // A few requests in flight at a time: the service answers each in well under a millisecond.
    for (let i = 0; i < payouts.length; i += 8) {
      await Promise.all(
        payouts.slice(i, i + 8).map(async (p) => {
          entriesOf.set(p.id, await t.client.payouts.listPayoutEntries(p.id).all());
        }),
      );
    }
    for (const p of payouts) {
      const entries = entriesOf.get(p.id) ?? [];
      expect(entries.length).toBeGreaterThan(0);
      let net = 0;
      for (const e of entries) {
        expect(e.payout_id).toBe(p.id);
        types.add(e.type ?? "");
        const gross = e.gross_amount_money?.amount ?? Number.NaN;
        const fee = e.fee_amount_money?.amount ?? Number.NaN;
        expect(e.net_amount_money?.amount).toBe(gross - fee);
        if (e.type === "CHARGE") expect(e.type_charge_details?.payment_id).toBeTruthy();
        if (e.type === "REFUND") expect(e.type_refund_details?.refund_id).toBeTruthy();
        net += e.net_amount_money?.amount ?? 0;
      }
      expect(p.amount_money?.amount).toBe(net);
    }
    expect([...types].sort()).toEqual(expect.arrayContaining(["CHARGE", "REFUND", "ADJUSTMENT", "FEE"]));
  });
});

describe("listPayouts", () => {
  it("lists the named location's payouts, and the main location's without one", async () => {
    const second = await list({ location_id: DEMO.secondLocationId, limit: 20 });
    expect(second.payouts?.length).toBe(20);
    for (const p of second.payouts ?? []) expect(p.location_id).toBe(DEMO.secondLocationId);
    const byName = await list({ location_id: DEMO.mainLocationId }).all();
    expect(byName.map((p) => p.id)).toEqual(mainPayouts.map((p) => p.id));
  });

  it("filters by status, and refuses a status that does not exist", async () => {
    const failed = await list({ status: "FAILED" }).all();
    expect(failed.length).toBe(mainPayouts.filter((p) => p.status === "FAILED").length);
    for (const p of failed) expect(p.status).toBe("FAILED");
    const r = await t.raw("GET", "/v2/payouts?status=LOST");
    expect(r.status).toBe(400);
    expect(r.json.errors[0]).toMatchObject({ code: "INVALID_ENUM_VALUE", field: "status" });
  });

  it("takes begin_time inclusive and end_time exclusive, on created_at", async () => {
    const target = mainPayouts[10] as Payout;
    const at = target.created_at ?? "";
    const from = await list({ begin_time: at, sort_order: "ASC", limit: 1 });
    expect(from.payouts?.[0]?.id).toBe(target.id);
    const until = await list({ end_time: at, limit: 1 });
    expect(until.payouts?.[0]?.id).toBe(mainPayouts[11]?.id);
    const empty = await list({ begin_time: at, end_time: at });
    expect(empty.payouts ?? []).toEqual([]);
    const justIt = await list({ begin_time: at, end_time: iso(Date.parse(at) + 1) });
    expect(justIt.payouts?.map((p) => p.id)).toEqual([target.id]);
  });

  it("starts a year back by default; older payouts need an explicit begin_time", async () => {
    const older = await list({ begin_time: iso(now - 400 * 86_400_000), end_time: iso(YEAR_AGO()) }).all();
    expect(older.length).toBeGreaterThan(0);
    for (const p of older) expect(Date.parse(p.created_at ?? "")).toBeLessThan(YEAR_AGO());
    expect(mainPayouts.some((p) => older.some((o) => o.id === p.id))).toBe(false);
  });

  it("ends now by default: a payout created after the service's clock needs an explicit end_time", async () => {
    expect(mainPayouts.some((p) => p.id === FUTURE_PAYOUT)).toBe(false);
    const later = await list({ end_time: iso(now + 2 * 3_600_000), limit: 1 });
    expect(later.payouts?.[0]?.id).toBe(FUTURE_PAYOUT);
  });

  it("sorts newest first by default, oldest first on request", async () => {
    const asc = await list({ sort_order: "ASC" }).all();
    expect(asc.map((p) => p.id)).toEqual(mainPayouts.map((p) => p.id).reverse());
    const e = await failure(list({ sort_order: "SIDEWAYS" as "ASC" }));
    expect(e.code).toBe("INVALID_SORT_ORDER");
  });

  it("pages 100 by default and at most; a larger limit is treated as 100", async () => {
    const first = await list({});
    expect(first.payouts).toHaveLength(100);
    expect(first.cursor).toBeTruthy();
    expect((await list({ limit: 500 })).payouts).toHaveLength(100);
    expect((await list({ limit: 7 })).payouts).toHaveLength(7);
  });

  it("pages with an opaque cursor through each payout once", async () => {
    const pages = [];
    for await (const p of list({ limit: 40 }).pages()) pages.push(p);
    const ids = pages.flatMap((p) => p.payouts ?? []).map((p) => p.id);
    expect(ids).toEqual(mainPayouts.map((p) => p.id));
    expect(pages.at(-1)?.cursor).toBeUndefined();
  });

  it("refuses a cursor from another query", async () => {
    const first = await list({ limit: 5 });
    const same = await t.raw("GET", `/v2/payouts?limit=5&cursor=${first.cursor}`);
    expect(same.status).toBe(200);
    expect(same.json.payouts[0].id).toBe(mainPayouts[5]?.id);
    const changed = await t.raw("GET", `/v2/payouts?status=PAID&cursor=${first.cursor}`);
    expect(changed.status).toBe(400);
    expect(changed.json.errors[0].code).toBe("INVALID_CURSOR");
    const elsewhere = await t.raw("GET", `/v2/payouts?location_id=${DEMO.secondLocationId}&cursor=${first.cursor}`);
    expect(elsewhere.json.errors[0].code).toBe("INVALID_CURSOR");
  });

  it("refuses malformed times and a window that ends before it begins", async () => {
    expect((await failure(list({ begin_time: "last year" }))).code).toBe("INVALID_TIME");
    const e = await failure(list({ begin_time: iso(now), end_time: iso(now - 1000) }));
    expect(e.code).toBe("INVALID_TIME_RANGE");
  });

  it("needs the PAYOUTS_READ scope", async () => {
    storeToken(t.service.db, {
      token: "token-without-payouts",
      kind: "personal",
      merchantId: DEMO.merchantId,
      clientId: null,
      scopes: ["MERCHANT_PROFILE_READ"],
      now: new Date(now),
      expiresAt: null,
    });
    const r = await t.raw("GET", "/v2/payouts", { headers: { authorization: "Bearer token-without-payouts" } });
    expect(r.status).toBe(403);
    expect(r.json.errors[0].code).toBe("INSUFFICIENT_SCOPES");
  });
});

describe("getPayout", () => {
  it("returns one payout, and NOT_FOUND for an unknown id", async () => {
    const target = mainPayouts[3] as Payout;
    expect((await t.client.payouts.getPayout(target.id)).payout).toEqual(target);
    const e = await failure(t.client.payouts.getPayout("po_nope"));
    expect(e.status).toBe(404);
    expect(e.code).toBe("NOT_FOUND");
  });
});

describe("listPayoutEntries", () => {
  const entries = (q: { sort_order?: "ASC" | "DESC"; limit?: number } = {}) =>
    t.client.payouts.listPayoutEntries(BIG_PAYOUT, q);

  it("pages 100 by default and at most; a larger limit is treated as 100", async () => {
    const first = await entries();
    expect(first.payout_entries).toHaveLength(100);
    expect((await entries({ limit: 1000 })).payout_entries).toHaveLength(100);
    expect((await entries({ limit: 3 })).payout_entries).toHaveLength(3);
  });

  it("sorts newest first by default, oldest first on request", async () => {
    const desc = await entries().all();
    expect(desc[0]?.id).toBe(`poe_big_${String(BIG_ENTRIES - 1).padStart(4, "0")}`);
    const asc = await entries({ sort_order: "ASC" }).all();
    expect(asc.map((e) => e.id)).toEqual(desc.map((e) => e.id).reverse());
    expect(asc.map((e) => e.effective_at)).toEqual(asc.map((e) => e.effective_at).sort());
  });

  it("pages with a cursor through every entry once, and refuses a cursor of another query", async () => {
    const all = await entries({ limit: 60 }).all();
    expect(all).toHaveLength(BIG_ENTRIES);
    expect(new Set(all.map((e) => e.id)).size).toBe(BIG_ENTRIES);
    const first = await entries({ limit: 60 });
    const changed = await t.raw(
      "GET",
      `/v2/payouts/${BIG_PAYOUT}/payout-entries?sort_order=ASC&cursor=${first.cursor}`,
    );
    expect(changed.status).toBe(400);
    expect(changed.json.errors[0].code).toBe("INVALID_CURSOR");
    const other = await t.raw("GET", `/v2/payouts/${mainPayouts[0]?.id}/payout-entries?cursor=${first.cursor}`);
    expect(other.json.errors[0].code).toBe("INVALID_CURSOR");
  });

  it("is NOT_FOUND for an unknown payout", async () => {
    const e = await failure(t.client.payouts.listPayoutEntries("po_nope"));
    expect(e.status).toBe(404);
  });
});
