import { describe, expect, it } from "vitest";
import type { LoggedRequest, RequestLog } from "../local/request-log.js";
import { SquareApiError, SquareError } from "../square/errors.js";
import { classifyFailure, type FailureVerdict, replay } from "./replay.js";

interface Req extends LoggedRequest {
  parts: string[];
}

/** A log in memory, recording every write in order (the journal's own tests cover the file). */
function memoryLog(requests: Req[]) {
  const writes: string[] = [];
  const log: RequestLog<Req, string> = {
    unsettled: () => requests.filter((r) => r.state === "planned" || r.state === "sent"),
    markSent: (r) => {
      r.state = r.state === "planned" ? "sent" : r.state;
      r.attempts++;
      writes.push(`sent ${r.seq}`);
    },
    markAccepted: (r, answer) => {
      r.state = "accepted";
      writes.push(`accepted ${r.seq} ${answer}`);
    },
  };
  return { log, writes };
}

const req = (seq: number, state: Req["state"] = "planned", parts = [`p${seq}`]): Req => ({
  seq,
  idempotencyKey: `k${seq}`,
  state,
  attempts: 0,
  parts,
});
const now = () => new Date("2026-03-02T15:00:00.000Z");
const noWait = async () => {};
const transient: FailureVerdict = { kind: "transient", details: "ECONNRESET" };

describe("replay", () => {
  it("sends only what the log lets this sender claim, and lets go of each after its try", async () => {
    const requests = [req(1), req(2), req(3)];
    const { log, writes } = memoryLog(requests);
    const held = new Set<number>();
    const shared: RequestLog<Req, string> = {
      ...log,
      // Another sender holds request 2.
      claim: (r) => {
        if (r.seq === 2) return false;
        held.add(r.seq);
        return true;
      },
      release: (r) => {
        writes.push(`released ${r.seq}`);
        held.delete(r.seq);
      },
    };
    const stop = await replay({ log: shared, send: async (r) => r.idempotencyKey, classify: () => transient, now });
    expect(stop).toBeUndefined();
    expect(writes.filter((w) => w.includes(" 2"))).toEqual([]);
    expect(writes).toContain("released 1");
    expect(writes).toContain("released 3");
    expect(held.size).toBe(0);
    expect(requests.map((r) => r.state)).toEqual(["accepted", "planned", "accepted"]);
  });

  it("sends only the unsettled requests, each marked sent before it goes and accepted after", async () => {
    const requests = [req(0, "accepted"), req(1, "sent"), req(2)];
    const { log, writes } = memoryLog(requests);
    const stop = await replay({
      log,
      send: async (r) => `answer-${r.idempotencyKey}`,
      classify: () => transient,
      now,
      concurrency: 1,
    });
    expect(stop).toBeUndefined();
    expect(writes).toEqual(["sent 1", "accepted 1 answer-k1", "sent 2", "accepted 2 answer-k2"]);
  });

  it("tells each failed try's error, and that the request waits (how long) before the next try", async () => {
    const requests = [req(1)];
    const { log } = memoryLog(requests);
    const down = new SquareError("connect ECONNREFUSED");
    let tries = 0;
    const events: string[] = [];
    const stop = await replay({
      log,
      send: async (r) => {
        tries++;
        if (tries === 1) throw down;
        return r.idempotencyKey;
      },
      classify: (err) => ({ kind: "transient", details: String(err), cause: err }),
      now,
      sleep: noWait,
      retryDelayMs: (round) => 1000 * (round + 1),
      onEvent: (e) => {
        if (e.kind === "tried") events.push(`tried ${e.error === down ? "down" : e.error === undefined ? "ok" : "?"}`);
        else if (e.kind === "waiting") events.push(`waiting ${e.ms} ${e.verdict.cause === down ? "down" : "?"}`);
        else events.push(e.kind);
      },
    });
    expect(stop).toBeUndefined();
    expect(events).toEqual(["sending", "tried down", "waiting 1000 down", "sending", "accepted", "tried ok"]);
  });

  it("tries a request again on a transient failure, with the same key, and stops after its rounds", async () => {
    const requests = [req(0), req(1)];
    const { log } = memoryLog(requests);
    const keys: string[] = [];
    const waits: number[] = [];
    let failures = 2;
    const first = await replay({
      log,
      send: async (r) => {
        keys.push(r.idempotencyKey);
        if (r.seq === 0 && failures-- > 0) throw new Error("dropped");
        return "ok";
      },
      classify: () => transient,
      now,
      concurrency: 1,
      retryDelayMs: (round) => 100 * (round + 1),
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(first).toBeUndefined();
    expect(keys).toEqual(["k0", "k0", "k0", "k1"]);
    expect(waits).toEqual([100, 200]);
    expect(requests.map((r) => [r.state, r.attempts])).toEqual([
      ["accepted", 3],
      ["accepted", 1],
    ]);

    const again = [req(0)];
    const stopped = await replay({
      log: memoryLog(again).log,
      send: async () => {
        throw new Error("down");
      },
      classify: () => transient,
      now,
      rounds: 3,
      sleep: noWait,
    });
    expect(stopped).toEqual(transient);
    expect(again[0]).toMatchObject({ state: "sent", attempts: 3 });
  });

  it("sets a refused part aside and sends what is left next; a fatal failure stops the rest", async () => {
    const requests = [req(0, "planned", ["a", "b"]), req(1), req(2)];
    const { log } = memoryLog(requests);
    const sent: string[] = [];
    const stop = await replay({
      log,
      send: async (r) => {
        sent.push(r.parts.join("+"));
        if (r.parts.includes("b")) throw new Error("b is refused");
        if (r.seq === 1) throw new Error("signed out");
        return "ok";
      },
      classify: (err) =>
        String(err).includes("refused")
          ? { kind: "part", index: 1, problem: "no such item", details: "" }
          : { kind: "fatal", problem: "Signed out.", details: "401" },
      refusePart: (r, v) => {
        r.state = "superseded";
        const rest = { ...req(9), parts: r.parts.filter((_, i) => i !== v.index) };
        requests.push(rest);
        return rest;
      },
      now,
      concurrency: 1,
    });
    expect(sent).toEqual(["a+b", "a", "p1"]);
    expect(stop).toEqual({ kind: "fatal", problem: "Signed out.", details: "401" });
    expect(requests.map((r) => `${r.seq}:${r.state}`)).toEqual(["0:superseded", "1:sent", "2:planned", "9:accepted"]);
  });

  it("keeps a few requests in flight at once, and an abort lets those finish but sends no more", async () => {
    const requests = Array.from({ length: 10 }, (_, i) => req(i));
    const { log } = memoryLog(requests);
    const abort = new AbortController();
    let inFlight = 0;
    let most = 0;
    const stop = await replay({
      log,
      send: async (r) => {
        most = Math.max(most, ++inFlight);
        await new Promise((ok) => setImmediate(ok));
        inFlight--;
        if (r.seq === 4) abort.abort();
        return "ok";
      },
      classify: () => transient,
      now,
      concurrency: 3,
      signal: abort.signal,
    });
    expect(most).toBe(3);
    expect(stop).toEqual({ kind: "aborted" });
    const accepted = requests.filter((r) => r.state === "accepted").length;
    expect(accepted).toBeGreaterThanOrEqual(5);
    expect(accepted).toBeLessThan(10);
    expect(requests.every((r) => r.state === "accepted" || r.state === "planned")).toBe(true);
  });
});

describe("classifyFailure", () => {
  const words = { changes: "inventory changes", whole: "the commit", partOf: (f?: string) => (f ? 3 : undefined) };
  const apiError = (status: number, field?: string) =>
    new SquareApiError(
      "BatchChangeInventory",
      status,
      [{ category: "INVALID_REQUEST_ERROR", code: "BAD", detail: "Too many.", ...(field ? { field } : {}) }],
      {},
    );

  it("says which failures are worth another try, which part was refused, and when to stop", () => {
    expect(classifyFailure(apiError(503), words).kind).toBe("transient");
    expect(classifyFailure(apiError(429), words).kind).toBe("transient");
    expect(classifyFailure(new SquareError("socket hang up"), words).kind).toBe("transient");
    expect(classifyFailure(apiError(400, "changes[3].quantity"), words)).toMatchObject({
      kind: "part",
      index: 3,
      problem: "Too many.",
    });
    expect(classifyFailure(apiError(400), words)).toMatchObject({
      kind: "fatal",
      problem: "The service refused the commit.",
    });
    expect(classifyFailure(apiError(401), words)).toMatchObject({
      kind: "fatal",
      problem: "The service no longer accepts this sign-in for inventory changes; sign in again, then resume.",
    });
    expect(classifyFailure(new TypeError("x is undefined"), words)).toMatchObject({
      kind: "fatal",
      problem: "The commit stopped on an unexpected error.",
    });
  });
});
