import { hash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { operations } from "../spec/generated/operations.js";
import { jsonAnswer, type RequestContext } from "./context.js";
import { openDb } from "./db.js";
import { runIdempotent } from "./idempotency.js";
import { refusalCode } from "./refusal.js";
import { sortedJson } from "./sorted-json.js";

const op = operations.BatchChangeInventory;

/** A keyed write as the pipeline hands it over: its checked body and its text as sent. */
function request(body: Record<string, unknown>): RequestContext<Record<string, unknown>> {
  return {
    op,
    body,
    auth: { merchantId: "M1", clientId: null, scopes: new Set(), tokenHash: "t" },
    now: new Date("2026-11-27T12:00:00Z"),
  } as unknown as RequestContext<Record<string, unknown>>;
}

/** Runs a write through idempotency; the rule answers how many times it has run. */
function harness() {
  const db = openDb(":memory:");
  let runs = 0;
  const run = (sent: string, body = JSON.parse(sent) as Record<string, unknown>) =>
    runIdempotent(db, request(body), sent, () => ({ body: { run: ++runs } }));
  return { db, run, runs: () => runs };
}

describe("runIdempotent", () => {
  it("answers the first response to the same text, and to the same JSON with other key order and spacing", () => {
    const h = harness();
    expect(h.run('{"idempotency_key":"k","changes":[{"type":"PHYSICAL_COUNT"}]}').body).toEqual({ run: 1 });
    expect(h.run('{"idempotency_key":"k","changes":[{"type":"PHYSICAL_COUNT"}]}').body).toEqual({ run: 1 });
    expect(h.run('{ "changes": [ {"type": "PHYSICAL_COUNT"} ],\n  "idempotency_key": "k" }').body).toEqual({ run: 1 });
    expect(h.runs()).toBe(1);
  });

  it("refuses a different body under the same key, and runs it under another key", () => {
    const h = harness();
    h.run('{"idempotency_key":"k","changes":[]}');
    expect(refusalCode(() => h.run('{"idempotency_key":"k","changes":[{}]}'))).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(h.run('{"idempotency_key":"k2","changes":[{}]}').body).toEqual({ run: 2 });
  });

  it("keeps the body as sent, and compares the checked body when there is no text (a call from inside)", () => {
    const h = harness();
    h.run("", { changes: [], idempotency_key: "k" });
    const kept = h.db.prepare("SELECT request FROM idempotency WHERE key = 'k'").pluck().get();
    expect(kept).toBe('{"changes":[],"idempotency_key":"k"}');
    expect(h.run('{"idempotency_key": "k", "changes": []}').body).toEqual({ run: 1 });
  });

  it("matches a record made before bodies were kept by its hash of the canonical body", () => {
    const h = harness();
    const body = { idempotency_key: "old", changes: [{ type: "ADJUSTMENT" }] };
    h.db
      .prepare(
        "INSERT INTO idempotency (merchant_id, operation, key, body_hash, status, response, created_at) VALUES ('M1', ?, 'old', ?, 200, '{\"run\":0}', '2026-11-01T00:00:00Z')",
      )
      .run(op.name, hash("sha256", sortedJson(body), "hex"));
    expect(h.run('{"idempotency_key": "old", "changes": [{"type": "ADJUSTMENT"}]}').body).toEqual({ run: 0 });
    expect(refusalCode(() => h.run('{"changes":[],"idempotency_key":"old"}'))).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(h.runs()).toBe(0);
  });

  it("keeps a rule's note instead of its answer when the rule can write the answer again from it", () => {
    const h = harness();
    let runs = 0;
    const rule = Object.assign(() => jsonAnswer(`{"run":${++runs},"long":"${"x".repeat(100)}"}`, `${runs}`), {
      replay: (_ctx: unknown, kept: string) => `{"run":${kept},"long":"${"x".repeat(100)}"}`,
    });
    const sent = '{"idempotency_key":"k"}';
    const first = runIdempotent(h.db, request(JSON.parse(sent)), sent, rule);
    const again = runIdempotent(h.db, request(JSON.parse(sent)), sent, rule);
    expect([first.json, again.body]).toEqual([first.json, JSON.parse(first.json ?? "")]);
    expect(runs).toBe(1);
    expect(h.db.prepare("SELECT response, kept FROM idempotency").get()).toEqual({ response: "", kept: "1" });
    // A note from a rule with no replay is not kept: the answer is.
    const plain = () => jsonAnswer('{"run":0}', "note");
    runIdempotent(h.db, request({ idempotency_key: "p" }), '{"idempotency_key":"p"}', plain);
    expect(h.db.prepare("SELECT response, kept FROM idempotency WHERE key = 'p'").get()).toEqual({
      response: '{"run":0}',
      kept: null,
    });
  });
});
