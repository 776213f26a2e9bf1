import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { KeptWrite } from "../domain/kept-writes.js";
import type { Shift } from "../spec/generated/types.js";
import { type LockHolder, type NewKept, openOutbox, outboxPath } from "./outbox.js";

const AT = "2026-03-02T09:00:00.000Z";
const NOW = new Date("2026-03-02T09:40:00.000Z");
const SERVICE = "http://127.0.0.1:9";

const holder = (pid: number, alive: Set<number>, leaseMs = 60_000): LockHolder => ({
  pid,
  token: `token-${pid}-${Math.random()}`,
  isAlive: (p) => alive.has(p),
  leaseMs,
});

/** Two backrooms (processes 100 and 200) with one outbox file; the first's locks last `leaseMs`. */
async function twoBackrooms(alive: Set<number>, leaseMs = 60_000) {
  const dir = mkdtempSync(join(tmpdir(), "backroom-outbox-"));
  const first = await openOutbox(outboxPath(dir), holder(100, alive, leaseMs));
  const second = await openOutbox(outboxPath(dir), holder(200, alive));
  const close = () => {
    first.close();
    second.close();
  };
  return { first, second, close };
}

const clockIn = (memberId: string): KeptWrite => ({
  kind: "clock-in",
  memberId,
  request: {
    idempotency_key: `key-${memberId}`,
    shift: { location_id: "L1", team_member_id: memberId, start_at: AT },
  },
});

const breakOn = (seq: number, memberId: string): KeptWrite => ({
  kind: "shift-change",
  memberId,
  shift: { kind: "kept", seq },
  change: {
    op: "start-break",
    breakType: { id: "BT", name: "Lunch", expectedDuration: "PT30M", isPaid: false },
    at: "2026-03-02T11:00:00.000Z",
  },
});

const kept = (write: KeptWrite, key: string, state: "kept" | "sent" = "kept"): NewKept => ({
  service: SERVICE,
  idempotencyKey: key,
  write,
  label: `write ${key}`,
  baseVersion: undefined,
  actedAt: AT,
  actor: "manager",
  locationId: "L1",
  state,
});

describe("the outbox", () => {
  it("is an owner-only file, fsync'd on every commit, that keeps writes in the order made", async () => {
    const dir = mkdtempSync(join(tmpdir(), "backroom-outbox-"));
    const path = outboxPath(dir);
    const box = await openOutbox(path);
    const a = box.add(kept(clockIn("A"), "k1"), NOW.toISOString());
    const b = box.add(kept(clockIn("B"), "k2", "sent"), NOW.toISOString());
    box.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);

    const again = await openOutbox(path);
    expect(again.open(SERVICE).map((e) => [e.seq, e.idempotencyKey, e.state, e.attempts])).toEqual([
      [a.seq, "k1", "kept", 0],
      [b.seq, "k2", "sent", 1],
    ]);
    expect(again.open("another service")).toEqual([]);
    expect(again.counts(SERVICE)).toEqual({ pending: 2, refused: 0 });
    expect(again.get(a.seq)?.write).toEqual(clockIn("A"));
    again.close();
  });

  it("makes a write wait for the unsettled one before it in its chain, and for what made its shift", async () => {
    const box = await openOutbox(":memory:", holder(1, new Set([1])));
    const a = box.add(kept(clockIn("A"), "k1"), AT);
    const other = box.add(kept(clockIn("B"), "k2"), AT);
    const brk = box.add(kept(breakOn(a.seq, "A"), "k3"), AT);
    expect(a.dependsOn).toBeUndefined();
    expect(other.dependsOn).toBeUndefined();
    expect(brk.dependsOn).toBe(a.seq);

    expect(box.claim(brk.seq, NOW)).toBe(false);
    expect(box.claim(a.seq, NOW)).toBe(true);
    box.markSent(a.seq, AT);
    box.markAccepted(a.seq, { shift: { id: "S1" } as Shift }, AT);
    box.release(a.seq);
    expect(box.claim(brk.seq, NOW)).toBe(true);
    expect(box.get(a.seq)?.answer).toEqual({ shift: { id: "S1" } });
  });

  it("hands a write to one backroom at a time, and takes over the lock of one that died", async () => {
    const alive = new Set([100, 200]);
    const { first, second, close } = await twoBackrooms(alive);
    const a = first.add(kept(clockIn("A"), "k1"), AT);
    expect(first.claim(a.seq, NOW)).toBe(true);
    expect(second.claim(a.seq, NOW)).toBe(false);
    // The first backroom is killed holding it: the lock of a dead process is free.
    alive.delete(100);
    expect(second.claim(a.seq, NOW)).toBe(true);
    second.markAccepted(a.seq, {}, AT);
    second.release(a.seq);
    // Settled: nobody claims it again.
    expect(second.claim(a.seq, NOW)).toBe(false);
    close();
  });

  it("frees a lock whose lease ran out, even of a live process", async () => {
    const alive = new Set([100, 200]);
    const { first, second, close } = await twoBackrooms(alive, 1000);
    const a = first.add(kept(clockIn("A"), "k1"), AT);
    expect(first.claim(a.seq, NOW)).toBe(true);
    expect(second.claim(a.seq, new Date(NOW.getTime() + 500))).toBe(false);
    expect(second.claim(a.seq, new Date(NOW.getTime() + 1500))).toBe(true);
    close();
  });

  it("keeps a refusal for To resolve, sends a revised write again at its place, and discards with what it made", async () => {
    const box = await openOutbox(":memory:", holder(1, new Set([1])));
    const a = box.add(kept(clockIn("A"), "k1"), AT);
    const brk = box.add(kept(breakOn(a.seq, "A"), "k2"), AT);
    box.markRefused(a.seq, "It overlaps a shift recorded elsewhere meanwhile.", "BAD_REQUEST", AT);
    expect(box.counts(SERVICE)).toEqual({ pending: 1, refused: 1 });
    expect(box.claim(brk.seq, NOW)).toBe(false);

    const moved = clockIn("A");
    if (moved.kind === "clock-in") moved.request.shift.start_at = "2026-03-02T10:00:00.000Z";
    box.revise(a.seq, { write: moved, label: "moved", baseVersion: undefined, idempotencyKey: "k1-again" });
    expect(box.get(a.seq)).toMatchObject({ state: "kept", idempotencyKey: "k1-again", problem: undefined });
    expect(box.open(SERVICE).map((e) => e.seq)).toEqual([a.seq, brk.seq]);

    expect(box.dependents(a.seq)).toEqual([a.seq, brk.seq]);
    expect(box.discard(a.seq, AT)).toEqual([a.seq, brk.seq]);
    expect(box.open(SERVICE)).toEqual([]);
    expect(box.counts(SERVICE)).toEqual({ pending: 0, refused: 0 });
  });

  it("will not discard a write another live backroom is sending", async () => {
    const alive = new Set([100, 200]);
    const { first, second, close } = await twoBackrooms(alive);
    const a = first.add(kept(clockIn("A"), "k1"), AT);
    expect(first.claim(a.seq, NOW)).toBe(true);
    expect(second.discard(a.seq, NOW.toISOString())).toEqual([]);
    expect(second.get(a.seq)?.state).toBe("kept");
    close();
  });

  it("is a request log: pending writes in order, each claimed before it is sent", async () => {
    const box = await openOutbox(":memory:", holder(1, new Set([1])));
    const a = box.add(kept(clockIn("A"), "k1"), AT);
    const brk = box.add(kept(breakOn(a.seq, "A"), "k2"), AT);
    const log = box.log(SERVICE, () => NOW);
    const [first, second] = log.unsettled();
    expect([first?.seq, first?.state, second?.seq]).toEqual([a.seq, "planned", brk.seq]);
    if (!first || !second) throw new Error("two requests expected");
    expect(log.claim?.(second)).toBe(false);
    expect(log.claim?.(first)).toBe(true);
    log.markSent(first, AT);
    log.markAccepted(first, { shift: { id: "S1" } as Shift }, AT);
    log.release?.(first);
    expect(log.claim?.(second)).toBe(true);
    expect(box.services()).toEqual([{ service: SERVICE, open: 1 }]);
  });
});
