// The store against the in-process local service: the same rules and answers as the real one.
import { afterEach, describe, expect, it, vi } from "vitest";
import { startProxy } from "../../test/helpers/proxy.js";
import { pinnedClock, startService, type TestService } from "../../test/helpers/service.js";
import { createFullStore } from "../../test/helpers/store.js";
import { OutboxHandle } from "../local/outbox.js";
import { createClient, SquareApiError } from "../square/index.js";
import { isVersionConflict } from "./errors.js";
import { selectWhoIsHere } from "./selectors.js";
import { shownStatus } from "./status.js";
import { type AppStore, appTimers, createStore } from "./store.js";

// Wednesday 2026-05-06, 15:00 in New York.
const NOW = Date.parse("2026-05-06T19:00:00Z");

let svc: TestService | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

async function setup(opts: { readOnly?: boolean } = {}) {
  const clock = pinnedClock(NOW);
  svc = await startService({ clock });
  const store = await createFullStore({
    outbox: new OutboxHandle(":memory:"),
    client: svc.client,
    clock,
    readOnly: opts.readOnly ?? false,
  });
  await store.getState().init();
  await store.getState().loadTimeClock();
  await store.getState().loadBreakTypes();
  return { store, svc, clock };
}

const clockedOut = (store: AppStore) =>
  selectWhoIsHere(store.getState()).find((r) => r.state.kind === "clocked-out" && !r.forgotten);

describe("writes return a typed result", () => {
  it("gives the value of a write that went through, and sends one request for a double press", async () => {
    const { store, svc } = await setup();
    const m = clockedOut(store);
    if (!m) throw new Error("no clocked-out member");
    const before = await svc.client.labor
      .searchShifts({ query: { filter: { team_member_ids: [m.id], location_ids: [] } } })
      .all();
    const key = `test:${m.id}`;
    const write = () =>
      svc.client.labor.createShift({
        idempotency_key: crypto.randomUUID(),
        shift: {
          location_id: store.getState().locationId ?? "",
          team_member_id: m.id,
          start_at: new Date(NOW).toISOString(),
        },
      });
    const [first, second] = await Promise.all([
      store.getState().runWrite(key, "Clocking in", write),
      store.getState().runWrite(key, "Clocking in", write),
    ]);
    expect(first.ok && first.value.shift?.team_member_id).toBe(m.id);
    expect(second).toEqual({ ok: false, error: { kind: "in-flight" } });
    const after = await svc.client.labor
      .searchShifts({ query: { filter: { team_member_ids: [m.id], location_ids: [] } } })
      .all();
    expect(after).toHaveLength(before.length + 1);
  });

  it("detects a version conflict by its code, with the manager's words and the code in details", async () => {
    const { store, svc } = await setup();
    const open = store.getState().timeclock.openShifts[0];
    if (!open?.id) throw new Error("no open shift");
    // Someone else saves the shift first: its version moves on.
    await svc.client.labor.updateShift(open.id, { shift: { ...open, id: undefined } as never });
    const res = await store
      .getState()
      .runWrite("edit", "Saving", () =>
        svc.client.labor.updateShift(open.id ?? "", { shift: { ...open, id: undefined } as never }),
      );
    if (res.ok || res.error.kind !== "failed") throw new Error("expected a refusal");
    expect(res.error.cause).toBeInstanceOf(SquareApiError);
    expect(isVersionConflict(res.error.cause)).toBe(true);
    expect(res.error.problem.headline).toBe("Someone else changed this first.");
    expect(res.error.problem.details).toMatch(/^[A-Z_]+ · HTTP 4\d\d · UpdateShift/);
    expect(store.getState().status).toMatchObject({ kind: "error", text: "Someone else changed this first." });
  });

  it("refuses every write in read-only mode, in one place, without a request", async () => {
    const { store, svc } = await setup({ readOnly: true });
    let sent = false;
    const res = await store.getState().runWrite("x", "Anything", async () => {
      sent = true;
      return svc.client.locations.listLocations();
    });
    expect(res).toEqual({ ok: false, error: { kind: "read-only" } });
    expect(sent).toBe(false);
    const m = clockedOut(store);
    await store.getState().clockIn(m?.id ?? "");
    expect(store.getState().status).toMatchObject({ kind: "rule", text: "Read-only mode: changes are disabled." });
  });
});

describe("quitting while a change is on its way", () => {
  it("asks again once nothing is being sent, instead of leaving 'still being sent' up", async () => {
    const { store, svc } = await setup();
    const m = clockedOut(store);
    if (!m) throw new Error("no clocked-out member");
    await svc.raw("POST", "/_emulator/faults", { body: { operation: "CreateShift", latency_ms: 300 } });
    const clockIn = store.getState().clockIn(m.id);
    await vi.waitFor(() => expect(store.getState().inFlight).toHaveLength(1));
    store.getState().requestQuit();
    const asked = () => store.getState().overlay;
    expect(asked()).toMatchObject({ question: { message: "1 change is still being sent. Quit anyway?" } });
    await clockIn;
    expect(store.getState().status).toMatchObject({ text: expect.stringMatching(/clocked in/) });
    expect(asked()).toMatchObject({
      kind: "confirm",
      question: { message: "Nothing is being sent any more; the line below says how it went. Quit?", risky: false },
    });
    store.getState().answer(true);
    expect(store.getState().exited).toBe(true);
  });
});

describe("slices tell each other through events", () => {
  it("a shift saved on the review reaches the time clock's open shifts and marks nothing stale twice", async () => {
    const { store } = await setup();
    const open = store
      .getState()
      .timeclock.openShifts.find((s) => !s.end_at && (s.breaks ?? []).every((b) => b.end_at));
    if (!open?.id || !open.team_member_id) throw new Error("no open shift");
    const tz = store.getState().locations.find((l) => l.id === store.getState().locationId)?.timezone ?? "UTC";
    const day = new Intl.DateTimeFormat("en-CA", { timeZone: tz }).format(new Date(open.start_at));
    await store.getState().loadReview({ from: day, to: day });
    const start = new Intl.DateTimeFormat("en-GB", { timeZone: tz, hour: "2-digit", minute: "2-digit" }).format(
      new Date(Date.parse(open.start_at) + 60_000 * 5),
    );
    expect(
      await store.getState().editShiftTimes(open.id, { startDate: day, startTime: start, endDate: "", endTime: "" }),
    ).toBeUndefined();
    const copy = store.getState().timeclock.openShifts.find((s) => s.id === open.id);
    expect(copy?.version).toBeGreaterThan(open.version ?? 0);
    expect(store.getState().review.stale).toBe(false);
  });

  it("a clock-in on the time clock marks the review stale", async () => {
    const { store } = await setup();
    await store.getState().loadReview();
    expect(store.getState().review.stale).toBe(false);
    await store.getState().clockIn(clockedOut(store)?.id ?? "");
    expect(store.getState().review.stale).toBe(true);
  });
});

/** A store on the local service behind a proxy that can be switched off, without client retries. */
async function behindProxy(run: (store: AppStore, proxy: Awaited<ReturnType<typeof startProxy>>) => Promise<void>) {
  svc = await startService({});
  const proxy = await startProxy(svc.url);
  const client = createClient({ baseUrl: proxy.url, accessToken: svc.service.accessToken, maxRetries: 0 });
  try {
    const store = await createFullStore({ outbox: new OutboxHandle(":memory:"), client });
    await store.getState().init();
    await run(store, proxy);
  } finally {
    await client.close();
    await proxy.down();
  }
}

describe("connection state", () => {
  it("goes offline when the service cannot be reached, and back online (clearing the message) when it answers", async () => {
    await behindProxy(async (store, proxy) => {
      expect(store.getState().connection).toEqual({ state: "online" });
      await proxy.down();
      await store.getState().loadTimeClock();
      expect(store.getState().connection).toMatchObject({ state: "offline", retrying: false });
      expect(store.getState().status).toMatchObject({ kind: "error", cause: "unreachable" });
      await proxy.up();
      await store.getState().loadTimeClock();
      expect(store.getState().connection).toEqual({ state: "online" });
      expect(store.getState().status).toEqual({ kind: "idle" });
    });
  });

  it("says when what is shown was read only on a screen that shows something read", async () => {
    await behindProxy(async (store, proxy) => {
      await store.getState().loadTimeClock();
      await proxy.down();
      await store.getState().loadTimeClock();
      expect(store.getState().status).toMatchObject({ text: expect.stringContaining("What is shown was read at") });
      // The drawers were never read: nothing is shown there to date.
      store.getState().showScreen("drawers");
      await (await store.getState().loadSlice("drawers")).loadDrawers();
      const drawers = shownStatus(store.getState());
      expect(drawers).toMatchObject({ kind: "error", cause: "unreachable" });
      expect(drawers).not.toMatchObject({ text: expect.stringContaining("What is shown was read at") });
    });
  });

  it("a background read that fails while already offline leaves the manager's last message alone", async () => {
    await behindProxy(async (store, proxy) => {
      await proxy.down();
      await store.getState().loadTimeClock();
      expect(store.getState().connection).toMatchObject({ state: "offline" });
      // What the manager just did, e.g. a clock-in kept on this machine.
      const kept = { kind: "info", text: "◷ Kept on this machine, not yet sent: Clock in Mei Chen at 19:45." } as const;
      store.getState().setStatus(kept);
      // The quiet refresh and the outbox's "does it answer?" probe fail again: the header already says offline.
      await store.getState().loadTimeClock({ quiet: true });
      expect(store.getState().status).toMatchObject(kept);
      expect(store.getState().connection).toMatchObject({ state: "offline" });
      // A read the manager asked for (r) still says why nothing new came.
      await store.getState().loadTimeClock();
      expect(store.getState().status).toMatchObject({ kind: "error", cause: "unreachable" });
    });
  });
});

describe("a status message belongs to the screen that said it", () => {
  it("a clock-in answered after the manager moved to the review is said on the time clock, not the review", async () => {
    const { store } = await setup();
    const m = clockedOut(store);
    if (!m) throw new Error("no clocked-out member");
    const clockIn = store.getState().clockIn(m.id);
    store.getState().showScreen("review");
    await clockIn;
    expect(store.getState().status).toMatchObject({ kind: "info", text: expect.stringContaining("clocked in at") });
    expect(shownStatus(store.getState())).toEqual({ kind: "idle" });
    store.getState().showScreen("timeclock");
    expect(shownStatus(store.getState())).toMatchObject({ text: expect.stringContaining("clocked in at") });
  });

  it("a read that failed on payouts is not shown on gift cards; the header keeps the connection", async () => {
    await behindProxy(async (store, proxy) => {
      store.getState().showScreen("payouts");
      await proxy.down();
      await (await store.getState().loadSlice("payouts")).loadPayouts();
      expect(shownStatus(store.getState())).toMatchObject({ kind: "error", cause: "unreachable" });
      store.getState().showScreen("gift-cards");
      expect(shownStatus(store.getState())).toEqual({ kind: "idle" });
      expect(store.getState().connection).toMatchObject({ state: "offline" });
    });
  });

  it("a rule said on a screen stays while the screen is in front, and goes with it", () => {
    const s = { status: { kind: "rule", text: "No location is selected.", screen: "drawers" } } as const;
    expect(shownStatus({ ...s, screen: { kind: "drawers" } })).toBe(s.status);
    expect(shownStatus({ ...s, screen: { kind: "v1" } })).toEqual({ kind: "idle" });
    // Said without a screen: the whole app's.
    const appWide = { kind: "info", text: "Sent 2 kept changes." } as const;
    expect(shownStatus({ status: appWide, screen: { kind: "v1" } })).toBe(appWide);
  });
});

describe("slices loaded on first use", () => {
  it("are absent until loaded, and the state's type says so until hasSlice or loadSlice narrows it", async () => {
    svc = await startService({});
    const store = createStore({ client: svc.client, outbox: new OutboxHandle(":memory:") });
    const before = store.getState();
    expect(before.hasSlice("review")).toBe(false);
    // @ts-expect-error: the review's slice is not in the store before loadSlice("review").
    expect(() => before.review.view).toThrow(TypeError);
    const loaded = await store.getState().loadSlice("review");
    expect(loaded.review.view).toBe("members");
    const after = store.getState();
    if (!after.hasSlice("review")) throw new Error("the review's slice is not in");
    expect(after.review.view).toBe("members");
  });
});

describe("the app's timers", () => {
  it("never keep the process alive by themselves: a quit while offline does not wait for the next try", () => {
    const timeouts = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const before = timeouts();
    let ran = false;
    appTimers.after(60_000, () => {
      ran = true;
    });
    expect(timeouts()).toBe(before);
    expect(ran).toBe(false);
  });
});
