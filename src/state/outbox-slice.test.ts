// The outbox in the store, against the in-process local service behind a switchable proxy: a write
// made while the service is away is kept at once (fsync'd) and shown as it will be; the next write
// of the same member waits behind it; the first read that gets an answer sends them, in order.
import { afterEach, describe, expect, it, vi } from "vitest";
import { type NetProxy, startProxy } from "../../test/helpers/proxy.js";
import { startService, type TestService } from "../../test/helpers/service.js";
import { OutboxHandle } from "../local/outbox.js";
import { createClient, type SquareClient } from "../square/index.js";
import { notKeptOffline } from "./outbox-slice.js";
import { selectOpenShifts } from "./selectors.js";
import { type AppStore, createStore } from "./store.js";

let svc: TestService | undefined;
let proxy: NetProxy | undefined;
let client: SquareClient | undefined;
afterEach(async () => {
  await client?.close();
  await proxy?.down().catch(() => {});
  await svc?.close();
  svc = undefined;
  proxy = undefined;
  client = undefined;
});

async function setup(opts: { readOnly?: boolean } = {}): Promise<{ store: AppStore; memberId: string }> {
  svc = await startService();
  proxy = await startProxy(svc.url);
  client = createClient({ baseUrl: proxy.url, accessToken: svc.service.accessToken, maxRetries: 0 });
  const store = createStore({
    client,
    outbox: new OutboxHandle(":memory:"),
    service: "test",
    readOnly: opts.readOnly ?? false,
  });
  await store.getState().init();
  await store.getState().loadTimeClock();
  await store.getState().loadBreakTypes();
  const s = store.getState();
  const busy = new Set(s.timeclock.openShifts.map((x) => x.team_member_id));
  const memberId = s.timeclock.members.find((m) => m.id && !busy.has(m.id))?.id ?? "";
  return { store, memberId };
}

describe("the outbox slice", () => {
  it("keeps writes while the service is away, chains a member's writes, and sends them in order when it answers", async () => {
    const { store, memberId } = await setup();
    const s = () => store.getState();
    await proxy?.down();
    await s().clockIn(memberId);
    // The first try met no service: kept (it may have been sent), and the app knows it is offline.
    expect(s().connection.state).toBe("offline");
    expect(s().outbox.entries.map((e) => [e.write.kind, e.state])).toEqual([["clock-in", "sent"]]);
    const shown = selectOpenShifts(s()).find((x) => x.team_member_id === memberId);
    expect(shown?.id).toBe(`kept:${s().outbox.entries[0]?.seq}`);
    // A break on the shift kept offline: kept at once, waiting for the clock-in.
    const breakType = s().breakTypes.items[0]?.id ?? "";
    expect(await s().startBreak(memberId, breakType)).toBeUndefined();
    const [clockIn, brk] = s().outbox.entries;
    expect(brk).toMatchObject({ state: "kept", dependsOn: clockIn?.seq });
    expect(selectOpenShifts(s()).find((x) => x.team_member_id === memberId)?.breaks).toHaveLength(1);
    // Not kept offline: a break type's change says why.
    expect(notKeptOffline(s(), "break types change only while it answers.")).toBe(
      "The service is not answering, and break types change only while it answers.",
    );

    await proxy?.up();
    await s().loadTimeClock();
    await vi.waitFor(
      () => {
        if (s().outbox.entries.length > 0 || s().outbox.sending) throw new Error("the outbox is still sending");
      },
      { timeout: 8000, interval: 10 },
    );
    const open = await svc?.client.labor
      .searchShifts({ query: { filter: { team_member_ids: [memberId], status: "OPEN" } } })
      .all();
    expect(open).toHaveLength(1);
    expect(open?.[0]?.breaks).toHaveLength(1);
    // The screen shows the service's shift now, under its own id.
    expect(selectOpenShifts(s()).find((x) => x.team_member_id === memberId)?.id).toBe(open?.[0]?.id);
    expect(s().status).toMatchObject({ text: "Sent 2 changes kept on this machine." });
  });

  it("keeps nothing and sends nothing in read-only mode", async () => {
    const { store, memberId } = await setup({ readOnly: true });
    await proxy?.down();
    const res = await store.getState().outboxWrite({
      kind: "clock-in",
      memberId,
      request: {
        idempotency_key: "k",
        shift: { location_id: "L", team_member_id: memberId, start_at: new Date().toISOString() },
      },
    });
    expect(res).toEqual({ kind: "failed", error: { kind: "read-only" } });
    expect(store.getState().outbox.entries).toEqual([]);
  });
});

describe("To resolve's ways out", () => {
  it("asks before discarding a kept write, counting what was made on it, and then sends none of them", async () => {
    const { store, memberId } = await setup();
    const s = () => store.getState();
    await proxy?.down();
    await s().clockIn(memberId);
    expect(await s().startBreak(memberId, s().breakTypes.items[0]?.id ?? "")).toBeUndefined();
    const [clockIn, brk] = s().outbox.entries;
    if (!clockIn || !brk) throw new Error("both writes are kept");

    // A clock-in has no newer version to send over; it can be sent at another time.
    await s().outboxApplyAgain(clockIn.seq);
    expect(s().status).toMatchObject({ kind: "rule", text: expect.stringContaining("cannot be sent again") });
    s().outboxAskTime(clockIn.seq);
    expect(s().outbox.form).toMatchObject({ kind: "change-time", seq: clockIn.seq, date: expect.any(String) });

    s().outboxDiscard(clockIn.seq);
    await vi.waitFor(() => {
      if (s().overlay.kind !== "confirm") throw new Error("no question yet");
    });
    const overlay = s().overlay;
    expect(overlay.kind === "confirm" && overlay.question.message).toBe(
      `Discard "${clockIn.label}" and the 1 change made on it? They are never sent.`,
    );
    s().answer(true);
    await vi.waitFor(() => {
      if (s().outbox.entries.length > 0) throw new Error("still kept");
    });
    await vi.waitFor(() =>
      expect(s().status).toMatchObject({
        kind: "info",
        text: expect.stringMatching(/^Discarded 2 kept changes; nothing of them was sent\.$/),
      }),
    );
    expect(selectOpenShifts(s()).find((x) => x.team_member_id === memberId)).toBeUndefined();

    await proxy?.up();
    await s().loadTimeClock();
    const open = await svc?.client.labor
      .searchShifts({ query: { filter: { team_member_ids: [memberId], status: "OPEN" } } })
      .all();
    expect(open).toEqual([]);
  });
});
