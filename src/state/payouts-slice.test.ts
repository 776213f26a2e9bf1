import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientWithScopes, pinnedClock, startService, type TestService } from "../../test/helpers/service.js";
import { createFullStore } from "../../test/helpers/store.js";
import { entryFee } from "../domain/payouts.js";
import type { Payout } from "../spec/generated/types.js";
import { statementCurrency } from "./payouts-load.js";
import { detailSummary, visiblePayouts } from "./payouts-machine.js";
import { createStore, type LoadedStore } from "./store.js";

const NOW = Date.parse("2026-06-17T16:00:00.000Z");
let t: TestService;
let store: LoadedStore;
const s = () => store.getState();

beforeAll(async () => {
  t = await startService({ clock: pinnedClock(NOW) });
  store = await createFullStore({ client: t.client, clock: { now: () => new Date(NOW) } });
  await s().init();
}, 30_000);
afterAll(async () => {
  await t?.close();
});

describe("the payouts slice's first range", () => {
  it("ends today where the store is, not on UTC's date", async () => {
    // 22:30 on 16 June at Main Street (New York) is 17 June in UTC.
    const late = createStore({ client: t.client, clock: { now: () => new Date("2026-06-17T02:30:00.000Z") } });
    await late.getState().init();
    const loaded = await late.getState().loadSlice("payouts");
    expect(loaded.payouts.filters).toMatchObject({ to: "2026-06-16" });
  });
});

describe("payouts slice", () => {
  it("reads the last 30 days of the selected location, then every location (the picker's choice), then one again", async () => {
    await s().loadPayoutsIfStale();
    const list = s().payouts.payouts ?? [];
    expect(list.length).toBeGreaterThanOrEqual(29);
    expect(list.every((p) => p.location_id === s().locationId)).toBe(true);
    expect(s().payouts.filters).toMatchObject({ from: "2026-05-19", to: "2026-06-17" });
    const here = s().locationId ?? "";
    s().selectAllLocations();
    // What was read is of one location: not shown for all of them.
    expect(s().payouts.readFor).toBeUndefined();
    await s().loadPayoutsIfStale();
    const all = s().payouts.payouts ?? [];
    expect(new Set(all.map((p) => p.location_id)).size).toBe(2);
    expect(all.map((p) => p.created_at)).toEqual([...all.map((p) => p.created_at)].sort().reverse());
    s().selectLocation(here);
    expect(s().payouts.readFor).toBeUndefined();
    await s().loadPayoutsIfStale();
    expect((s().payouts.payouts ?? []).every((p) => p.location_id === here)).toBe(true);
  });

  it("opens a payout: every entry, grouped, adding up to it", async () => {
    const p = visiblePayouts(s().payouts)[2] as Payout;
    await s().openPayout(p.id);
    const summary = detailSummary(s().payouts);
    expect(s().payouts.detail?.complete).toBe(true);
    expect(summary).toMatchObject({ checked: true, problem: undefined });
    expect(summary?.breakdown.total.net).toBe(p.amount_money?.amount);
  });

  it("adds up the fees per week over the range, from every paid or sent payout's entries", async () => {
    await s().showPayoutFees();
    const fees = s().payouts.fees;
    expect(fees?.weeks?.length).toBeGreaterThanOrEqual(4);
    const counted = (s().payouts.payouts ?? []).filter((p) => p.status !== "FAILED");
    expect(fees).toMatchObject({ done: counted.length, total: counted.length });
    let total = 0;
    for (const p of counted) {
      for (const e of await t.client.payouts.listPayoutEntries(p.id).all()) total += entryFee(e);
    }
    expect(fees?.weeks?.reduce((sum, w) => sum + w.fees, 0)).toBe(total);
    for (const w of fees?.weeks ?? []) if (w.rate !== undefined) expect(w.rate).toBeGreaterThan(0.02);
  });

  it("a new range on the fees reads that range's payouts and their entries", async () => {
    expect(s().payouts.view).toBe("fees");
    expect(await s().applyPayoutsRange("2026-06-01", "2026-06-07")).toBeUndefined();
    const list = s().payouts.payouts ?? [];
    expect(
      list.every((p) => (p.created_at ?? "") >= "2026-06-01T04:00" && (p.created_at ?? "") < "2026-06-08T04:00"),
    ).toBe(true);
    let total = 0;
    for (const p of list.filter((x) => x.status !== "FAILED")) {
      for (const e of await t.client.payouts.listPayoutEntries(p.id).all()) total += entryFee(e);
    }
    expect(s().payouts.fees?.weeks?.reduce((sum, w) => sum + w.fees, 0)).toBe(total);
    expect(await s().applyPayoutsRange("2026-06-07", "2026-06-01")).toMatch(/starts \(2026-06-07\) after it ends/);
    await s().applyPayoutsRange("", "");
    expect(s().payouts.filters).toMatchObject({ from: "2026-05-19", to: "2026-06-17", followToday: true });
  });

  it("reconciles a statement file named in its form", async () => {
    const paid = (s().payouts.payouts ?? []).filter((p) => p.status === "PAID").slice(0, 3);
    const folder = mkdtempSync(join(tmpdir(), "backroom-slice-statement-"));
    const path = join(folder, "june.csv");
    const lines = paid.map((p) => `${p.arrival_date},SQUARE INC,${((p.amount_money?.amount ?? 0) / 100).toFixed(2)}`);
    writeFileSync(path, ["Date,Description,Amount", ...lines, `${paid[0]?.arrival_date},RENT,-900.00`].join("\n"));
    s().payoutsDispatch({ type: "open-form", form: "statement" });
    s().payoutsDispatch({ type: "edit-form", patch: { path } });
    await s().reconcilePayouts();
    const st = s().payouts.statement;
    expect(st?.kind).toBe("reconciled");
    if (st?.kind !== "reconciled") return;
    expect(st.result.matched.map((m) => m.payoutId).sort()).toEqual(paid.map((p) => p.id).sort());
    expect(st.result.unmatched.map((u) => u.line.line)).toEqual([paid.length + 2]);
    s().payoutsDispatch({ type: "open-form", form: "statement" });
    s().payoutsDispatch({ type: "edit-form", patch: { path: join(folder, "nope.csv") } });
    await s().reconcilePayouts();
    expect(s().payouts.statement).toMatchObject({ kind: "unusable", problem: /There is no file/ });
  });

  it("a sign-in without PAYOUTS_READ makes the screen say so, and the status bar stays quiet", async () => {
    const limited = clientWithScopes(t, "slice-token-without-payouts", [
      "MERCHANT_PROFILE_READ",
      "TIMECARDS_SETTINGS_READ",
    ]);
    const other = await createFullStore({ client: limited, clock: { now: () => new Date(NOW) } });
    try {
      await other.getState().init();
      await other.getState().loadPayouts();
      expect(other.getState().payouts.permission).toBe("missing");
      expect(other.getState().status.kind).not.toBe("error");
    } finally {
      await limited.close();
    }
  });
});

describe("statementCurrency", () => {
  it("is the locations' one currency, and refuses locations in several", () => {
    expect(statementCurrency([{ currency: "GBP" }, { currency: "GBP" }])).toEqual({ ok: true, currency: "GBP" });
    expect(statementCurrency([{ currency: "USD" }, { currency: "CAD" }])).toMatchObject({
      ok: false,
      problem: /in USD and CAD; .* one location at a time/,
    });
  });
});
