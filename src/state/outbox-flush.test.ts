// The outbox sent against the in-process local service: writes in the order made with their own
// keys, a break on the real id of a shift clocked in offline, a change whose answer was lost not
// made twice, a refusal set aside in words with the writes that wait for it, and a service that
// does not answer leaving everything kept.
import { afterEach, describe, expect, it } from "vitest";
import { pinnedClock, startService, type TestService } from "../../test/helpers/service.js";
import type { KeptWrite } from "../domain/kept-writes.js";
import { type Outbox, openOutbox } from "../local/outbox.js";
import type { Shift } from "../spec/generated/types.js";
import { createClient } from "../square/index.js";
import { flushOutbox } from "./outbox-flush.js";

const NOW = Date.parse("2026-05-06T19:00:00Z");
const SERVICE = "test-service";
const at = (minutesAgo: number) => new Date(NOW - minutesAgo * 60_000).toISOString();

let svc: TestService | undefined;
let box: Outbox | undefined;
afterEach(async () => {
  box?.close();
  await svc?.close();
  svc = undefined;
  box = undefined;
});

/** A service, an outbox, two members of the first location who are not on shift, and a break type. */
async function setup() {
  svc = await startService({ clock: pinnedClock(NOW) });
  box = await openOutbox(":memory:");
  const c = svc.client;
  const locationId = (await c.locations.listLocations()).locations?.[0]?.id ?? "";
  const members = await c.team.searchTeamMembers({ query: { filter: { location_ids: [locationId] } } }).all();
  const open = await c.labor.searchShifts({ query: { filter: { status: "OPEN" } }, limit: 200 }).all();
  const busy = new Set(open.map((s) => s.team_member_id));
  const free = members.filter((m) => m.id && !busy.has(m.id)).map((m) => m.id ?? "");
  const breakType = (await c.labor.listBreakTypes({ location_id: locationId }).all())[0];
  if (free.length < 2 || !breakType?.id) throw new Error("the demo store lacks free members or break types");
  return { client: c, locationId, free, breakType: { ...breakType, id: breakType.id } };
}

function keep(write: KeptWrite, key: string, state: "kept" | "sent" = "kept") {
  if (!box) throw new Error("no outbox");
  return box.add(
    {
      service: SERVICE,
      idempotencyKey: key,
      write,
      label: `write ${key}`,
      baseVersion: undefined,
      actedAt: at(40),
      actor: "manager",
      locationId: undefined,
      state,
    },
    new Date(NOW).toISOString(),
  );
}

const clockIn = (memberId: string, locationId: string, startAt: string, key: string): KeptWrite => ({
  kind: "clock-in",
  memberId,
  request: { idempotency_key: key, shift: { location_id: locationId, team_member_id: memberId, start_at: startAt } },
});

describe("flushOutbox", () => {
  it("sends kept writes in order with their keys; a break goes on the real id of the shift clocked in offline", async () => {
    const { client, locationId, free, breakType } = await setup();
    const [a, b] = free as [string, string];
    const inA = keep(clockIn(a, locationId, at(40), "key-a"), "key-a");
    keep(clockIn(b, locationId, at(39), "key-b"), "key-b");
    const type = {
      id: breakType.id,
      name: breakType.break_name,
      expectedDuration: breakType.expected_duration,
      isPaid: breakType.is_paid,
    };
    keep(
      {
        kind: "shift-change",
        memberId: a,
        shift: { kind: "kept", seq: inA.seq },
        change: { op: "start-break", breakType: type, at: at(10) },
      },
      "brk-a",
    );
    const order: string[] = [];
    const result = await flushOutbox({
      outbox: box as Outbox,
      service: SERVICE,
      client,
      now: () => new Date(NOW),
      onEvent: (e) => order.push(`${e.kind} ${e.entry.idempotencyKey}`),
    });
    expect(result).toMatchObject({ sent: 3, refused: 0, stop: undefined });
    expect(order).toEqual([
      "sending key-a",
      "accepted key-a",
      "sending key-b",
      "accepted key-b",
      "sending brk-a",
      "accepted brk-a",
    ]);
    expect(box?.open(SERVICE)).toEqual([]);

    const shifts = await client.labor
      .searchShifts({ query: { filter: { team_member_ids: [a, b], status: "OPEN" } } })
      .all();
    const mine = shifts.find((s) => s.team_member_id === a) as Shift;
    expect(shifts).toHaveLength(2);
    expect(Date.parse(mine.start_at)).toBe(Date.parse(at(40)));
    expect(mine.breaks?.map((x) => [Date.parse(x.start_at), x.break_type_id])).toEqual([
      [Date.parse(at(10)), breakType.id],
    ]);
  });

  it("does not make twice a change whose answer was lost: the shift already has it", async () => {
    const { client, locationId, free, breakType } = await setup();
    const a = free[0] as string;
    const made = (
      await client.labor.createShift({
        idempotency_key: "made",
        shift: { location_id: locationId, team_member_id: a, start_at: at(60) },
      })
    ).shift as Shift;
    const type = {
      id: breakType.id,
      name: breakType.break_name,
      expectedDuration: breakType.expected_duration,
      isPaid: breakType.is_paid,
    };
    const write: KeptWrite = {
      kind: "shift-change",
      memberId: a,
      shift: { kind: "known", id: made.id ?? "", base: made },
      change: { op: "start-break", breakType: type, at: at(5) },
    };
    // The first try reached the service; its answer did not come back.
    const { id: _id, ...body } = {
      ...made,
      breaks: [
        {
          start_at: at(5),
          break_type_id: type.id,
          name: type.name,
          expected_duration: type.expectedDuration,
          is_paid: type.isPaid,
        },
      ],
    };
    await client.labor.updateShift(made.id ?? "", { shift: body });
    keep(write, "lost", "sent");
    const result = await flushOutbox({ outbox: box as Outbox, service: SERVICE, client, now: () => new Date(NOW) });
    expect(result).toMatchObject({ sent: 1, refused: 0 });
    const now = (await client.labor.getShift(made.id ?? "")).shift;
    expect(now?.breaks).toHaveLength(1);
    expect(now?.version).toBe((made.version ?? 0) + 1);
  });

  it("sets a refused write aside in words, keeps what waits for it, and sends the rest", async () => {
    const { client, locationId, free } = await setup();
    const [a, b] = free as [string, string];
    // A shift of A's made elsewhere meanwhile, over the time of the kept clock-in.
    await client.labor.createShift({
      idempotency_key: "elsewhere",
      shift: { location_id: locationId, team_member_id: a, start_at: at(50), end_at: at(20) },
    });
    const inA = keep(clockIn(a, locationId, at(40), "key-a"), "key-a");
    const out = keep(
      {
        kind: "shift-change",
        memberId: a,
        shift: { kind: "kept", seq: inA.seq },
        change: { op: "clock-out", at: at(1) },
      },
      "out-a",
    );
    keep(clockIn(b, locationId, at(39), "key-b"), "key-b");
    const result = await flushOutbox({ outbox: box as Outbox, service: SERVICE, client, now: () => new Date(NOW) });
    expect(result).toMatchObject({ sent: 1, refused: 1 });
    const refused = box?.get(inA.seq);
    expect(refused?.state).toBe("refused");
    expect(refused?.problem).toBe("write key-a: it overlaps a shift recorded elsewhere meanwhile.");
    expect(refused?.details).toMatch(/BAD_REQUEST · HTTP 400 · CreateShift/);
    expect(box?.get(out.seq)?.state).toBe("kept");
  });

  it("keeps everything when the service does not answer", async () => {
    const { locationId, free } = await setup();
    keep(clockIn(free[0] as string, locationId, at(40), "key-a"), "key-a");
    const nowhere = createClient({ baseUrl: "http://127.0.0.1:9", accessToken: "x", maxRetries: 0 });
    const result = await flushOutbox({
      outbox: box as Outbox,
      service: SERVICE,
      client: nowhere,
      now: () => new Date(NOW),
    });
    await nowhere.close();
    expect(result.stop?.kind).toBe("transient");
    expect(box?.open(SERVICE).map((e) => [e.state, e.attempts])).toEqual([["sent", 1]]);
  });
});
