import { describe, expect, it, vi } from "vitest";
import { createFakeClient, fakeDemoData } from "./fake-client.js";
import { selectWhoIsHere } from "./selectors.js";
import { createStore } from "./store.js";

// 15:00 in New York: a workday that started at 05:00.
const NOW = new Date("2026-05-06T19:00:00Z");

async function setup(opts: { readOnly?: boolean } = {}) {
  const data = fakeDemoData(NOW);
  const client = createFakeClient(data, () => NOW);
  const files = new Map<string, string>();
  const store = createStore({
    client,
    clock: { now: () => NOW },
    readOnly: opts.readOnly ?? false,
    writeFile: async (p, t) => {
      files.set(p, t);
    },
  });
  await store.getState().init();
  return { store, client, data, files };
}

describe("the store", () => {
  it("loads who is here, on shift first, with the forgotten shift flagged", async () => {
    const { store } = await setup();
    const rows = selectWhoIsHere(store.getState());
    expect(rows.map((r) => [r.name, r.state.kind, Boolean(r.forgotten)])).toEqual([
      ["Bo Li", "on-shift", false],
      ["Cy Okafor", "on-shift", true],
      ["Ana Diaz", "clocked-out", false],
      ["Dev Rao", "clocked-out", false],
    ]);
    expect(selectWhoIsHere(store.getState())).toBe(rows);
  });

  it("sends one clock-in for a double press, with the member's wage and a key", async () => {
    const { store, client } = await setup();
    await Promise.all([store.getState().clockIn("TM-ANA"), store.getState().clockIn("TM-ANA")]);
    const creates = client.calls.filter((c) => c.op === "createShift");
    expect(creates).toHaveLength(1);
    expect(creates[0]?.body).toMatchObject({
      idempotency_key: expect.any(String),
      shift: { team_member_id: "TM-ANA", location_id: "L-MAIN", wage: { hourly_rate: { amount: 2000 } } },
    });
    expect(store.getState().status).toEqual({ kind: "info", text: "Ana Diaz clocked in at 15:00." });
  });

  it("explains a rule in words instead of sending", async () => {
    const { store, client } = await setup();
    expect(await store.getState().clockIn("TM-BO")).toMatch(/Already clocked in since 13:00/);
    expect(client.calls).toHaveLength(0);
  });

  it("runs a break and clocks out", async () => {
    const { store, data } = await setup();
    await store.getState().startBreak("TM-BO", "BT-MEAL");
    expect(selectWhoIsHere(store.getState())[0]?.state).toMatchObject({ kind: "on-break", breakName: "Meal" });
    expect(await store.getState().startBreak("TM-BO", "BT-REST")).toMatch(/still running/);
    await store.getState().endBreak("TM-BO");
    await store.getState().clockOut("TM-BO");
    expect(data.shifts.find((s) => s.id === "SH-BO")).toMatchObject({ status: "CLOSED", end_at: NOW.toISOString() });
  });

  it("fixes a forgotten clock-out at a local time", async () => {
    const { store, data } = await setup();
    expect(await store.getState().fixForgotten("SH-CY", "2026-05-05", "18:00")).toBeUndefined();
    expect(data.shifts.find((s) => s.id === "SH-CY")?.end_at).toBe("2026-05-05T22:00:00.000Z");
  });

  it("refuses a fourth break type before asking the service", async () => {
    const { store, client } = await setup();
    expect(await store.getState().addBreakType({ name: "Nap", minutes: "20", paid: "n" })).toMatch(/already has 3/);
    expect(client.calls).toHaveLength(0);
  });

  it("tells about a version conflict and shows the newer shift", async () => {
    const { store, data } = await setup();
    await store.getState().loadReview({ from: "2026-05-05", to: "2026-05-05" });
    const dev = data.shifts.find((s) => s.id === "SH-DEV");
    if (dev) dev.version = 7;
    const problem = await store.getState().editShiftTimes("SH-DEV", {
      startDate: "2026-05-05",
      startTime: "09:00",
      endDate: "2026-05-05",
      endTime: "17:00",
    });
    expect(problem).toMatch(/Someone else changed this shift; it now runs 11:00–21:00 \(version 7\)/);
    expect(store.getState().review.conflict?.version).toBe(7);
  });

  it("refuses every write in read-only mode", async () => {
    const { store, client } = await setup({ readOnly: true });
    await store.getState().clockIn("TM-ANA");
    expect(client.calls).toHaveLength(0);
    expect(store.getState().status).toEqual({ kind: "rule", text: "Read-only mode: changes are disabled." });
  });

  it("exports the review as CSV", async () => {
    const { store, files } = await setup();
    await store.getState().loadReview({ from: "2026-05-05", to: "2026-05-05" });
    expect(await store.getState().exportReview("out.csv")).toBeUndefined();
    expect(files.get("out.csv")).toContain("Dev Rao,2026-05-05,11:00,21:00,,10.00,17.00,170.00,USD");
  });
});

describe("the store after changes elsewhere", () => {
  it("reads the time clock again when a clock-out loses to someone else's change", async () => {
    const { store, data } = await setup();
    const bo = data.shifts.find((s) => s.id === "SH-BO");
    if (bo) bo.version = 5;
    await store.getState().clockOut("TM-BO");
    expect(store.getState().status).toMatchObject({ kind: "error", code: "CONFLICT" });
    await vi.waitFor(() =>
      expect(store.getState().timeclock.openShifts.find((s) => s.id === "SH-BO")?.version).toBe(5),
    );
    await store.getState().clockOut("TM-BO");
    expect(data.shifts.find((s) => s.id === "SH-BO")?.status).toBe("CLOSED");
  });
});
