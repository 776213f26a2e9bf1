import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { journalPath, openJournal, type StocktakeJournal } from "../src/local/stocktake-journal.js";
import { DEMO } from "../src/service/seed/demo-ids.js";
import { createClient } from "../src/square/client.js";
import { type CommitProgress, planCommit, runCommit } from "../src/state/stocktake-commit.js";
import { loadScope, readExpected, type StocktakeClient } from "../src/state/stocktake-source.js";
import { startService, type TestService } from "./helpers/service.js";
import { inStockAt, type ProxyAction, physicalCountsOf, seeded, startFaultProxy } from "./stocktake-helpers.js";

const L = DEMO.mainLocationId;

let svc: TestService;
let dir: string;
let journal: StocktakeJournal;
let keys = 0;
const newKey = () => `test-key-${Date.now()}-${keys++}`;
const now = () => new Date();

beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc.close();
});
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "backroom-stocktake-"));
  journal = await openJournal(journalPath(dir));
  svc.service.reset();
  await svc.raw("DELETE", "/_emulator/faults");
});
afterEach(() => {
  journal.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A full count at Main Street with `n` lines counted: quantities that differ from the books, some equal. */
async function countLines(client: StocktakeClient, n: number) {
  const { items } = await loadScope(client, L, { kind: "full" });
  const { counts } = await readExpected(client, L);
  const count = journal.startCount(
    {
      merchantId: DEMO.merchantId,
      locationId: L,
      locationName: "Main Street",
      timeZone: "America/New_York",
      scope: { kind: "full" },
      counterId: "",
      counterName: "",
      startedAt: now().toISOString(),
    },
    items,
    counts,
    now(),
  );
  if (items.length < n) throw new Error(`the demo has ${items.length} tracked variations at Main Street, not ${n}`);
  const counted = new Map<string, string>();
  const at = now().toISOString();
  journal.recordLines(
    count.id,
    items.slice(0, n).map((it, i) => {
      // Every seventh line agrees with the books (where they are not below zero): it must still be
      // recorded as a count.
      const books = counts.get(it.variationId)?.quantity ?? "0";
      const quantity = i % 7 === 0 && !books.startsWith("-") ? books : String((i * 13) % 97);
      counted.set(it.variationId, quantity);
      return { variationId: it.variationId, quantity, countedAt: at, countedBy: "" };
    }),
  );
  return { id: count.id, counted };
}

async function expectCommitted(countId: string, counted: Map<string, string>) {
  const stock = await inStockAt(svc.client, L);
  for (const [id, q] of counted) expect(stock.get(id), id).toBe(q);
  const history = await physicalCountsOf(svc.client, L, countId);
  expect(history.size).toBe(counted.size);
  for (const [id, q] of counted) expect(history.get(id), id).toEqual([q]);
}

describe("committing a count", () => {
  it("sends every line as one physical count, in requests of at most 100, and finishes the count", async () => {
    const { id, counted } = await countLines(svc.client, 250);
    expect(planCommit(journal, id, now(), newKey)).toEqual({ lines: 250, batches: 3 });
    const seen: number[] = [];
    const outcome = await runCommit({
      journal,
      countId: id,
      client: svc.client,
      now,
      newKey,
      onProgress: (p) => seen.push(p.linesDone),
    });
    expect(outcome).toMatchObject({ kind: "committed", lines: 250, refused: [] });
    expect(seen.at(-1)).toBe(250);
    expect(journal.get(id)?.status).toBe("committed");
    expect(
      journal.requests.list(id).every((b) => b.state === "accepted" && b.changeIds.length === b.variationIds.length),
    ).toBe(true);
    await expectCommitted(id, counted);
  });

  it("resumes a half-committed count: a request the service applied but the journal never heard back from replays as the same result", async () => {
    const { id, counted } = await countLines(svc.client, 230);
    planCommit(journal, id, now(), newKey);
    const [b0, b1] = journal.requests.list(id);
    if (!b0 || !b1) throw new Error("expected three requests");
    // Request 0 went through and was journaled; request 1 reached the service, then the terminal died.
    journal.requests.markSent(id, b0.seq, now().toISOString());
    const first = await svc.client.inventory.batchChangeInventory(b0.body);
    journal.requests.markAccepted(
      id,
      b0.seq,
      (first.changes ?? []).map((c) => c.physical_count?.id ?? ""),
      now().toISOString(),
    );
    journal.requests.markSent(id, b1.seq, now().toISOString());
    const lost = await svc.client.inventory.batchChangeInventory(b1.body);

    // The app starts again on the same journal.
    journal.close();
    journal = await openJournal(journalPath(dir));
    expect(journal.get(id)?.status).toBe("committing");
    expect(journal.requests.list(id).map((b) => b.state)).toEqual(["accepted", "sent", "planned"]);
    const outcome = await runCommit({ journal, countId: id, client: svc.client, now, newKey });
    expect(outcome).toMatchObject({ kind: "committed", lines: 230 });

    const after = journal.requests.list(id);
    // The replayed request answered with the very changes the service recorded the first time.
    expect(after[1]?.changeIds).toEqual((lost.changes ?? []).map((c) => c.physical_count?.id));
    expect(after[0]?.attempts).toBe(1);
    await expectCommitted(id, counted);
  });

  it("sets aside a line the service refuses and commits the rest", async () => {
    const { id, counted } = await countLines(svc.client, 120);
    // A variation that is no longer in the catalog (deleted since the count started).
    const ghost = "GHOSTVARIATION000000000000";
    journal.recordLine(id, { variationId: ghost, quantity: "3", countedAt: now().toISOString(), countedBy: "" });
    journal.addItems(id, [
      {
        variationId: ghost,
        itemId: "GHOST",
        sku: "GONE-1",
        upc: "",
        name: "Gone",
        categoryId: "",
        priceAmount: 100,
        currency: "USD",
        precision: 0,
        tracked: true,
      },
    ]);
    planCommit(journal, id, now(), newKey);
    const outcome = await runCommit({ journal, countId: id, client: svc.client, now, newKey });
    expect(outcome.kind).toBe("committed");
    if (outcome.kind !== "committed") return;
    expect(outcome.lines).toBe(120);
    expect(outcome.refused).toEqual([{ variationId: ghost, problem: expect.stringMatching(/No catalog object/) }]);
    expect(journal.requests.list(id).filter((b) => b.state === "superseded")).toHaveLength(1);
    await expectCommitted(id, counted);
  });

  it("stops with everything journaled when the service keeps failing, and a resume finishes", async () => {
    const { id, counted } = await countLines(svc.client, 300);
    planCommit(journal, id, now(), newKey);
    // Every write fails until the faults are cleared.
    await svc.raw("POST", "/_emulator/faults", {
      body: { operation: "BatchChangeInventory", status: 503, code: "SERVICE_UNAVAILABLE", probability: 1 },
    });
    const client = createClient({
      baseUrl: svc.url,
      accessToken: svc.service.accessToken,
      baseDelayMs: 1,
      maxRetries: 1,
    });
    const trying: NonNullable<CommitProgress["trying"]>[] = [];
    const stopped = await runCommit({
      journal,
      countId: id,
      client,
      now,
      newKey,
      concurrency: 2,
      rounds: 2,
      retryDelayMs: () => 1,
      onProgress: (p) => {
        if (p.trying) trying.push(p.trying);
      },
    });
    // During the client's own retries the progress says it tries again (the service said "later"),
    // and which try of how many at most: 5 a round (4 retries), 2 rounds.
    expect(trying.length).toBeGreaterThan(0);
    expect(trying.every((t) => !t.unreachable && t.attempts === 10 && t.attempt >= 2 && t.attempt <= 10)).toBe(true);
    expect(Math.max(...trying.map((t) => t.attempt))).toBe(10);
    expect(stopped.kind).toBe("stopped");
    if (stopped.kind === "stopped") {
      expect(stopped.problem).toMatch(
        /^The service said to try later\. Committed so far: 0 of 300 lines; 3 requests wait in the journal/,
      );
      expect(stopped.details).toMatch(/503 SERVICE_UNAVAILABLE/);
    }
    expect(journal.get(id)?.status).toBe("committing");

    await svc.raw("DELETE", "/_emulator/faults");
    const resumed = await runCommit({ journal, countId: id, client, now, newKey });
    expect(resumed).toMatchObject({ kind: "committed", lines: 300 });
    await client.close();
    await expectCommitted(id, counted);
  });
});

describe("committing through faults", () => {
  it("503s, 429s with Retry-After and connections dropped before and after the service: exact counts, no duplicates", async () => {
    // The service's own faults: a few 503s and 429s on the write.
    await svc.raw("POST", "/_emulator/faults", {
      body: { operation: "BatchChangeInventory", status: 503, code: "SERVICE_UNAVAILABLE", count: 3 },
    });
    await svc.raw("POST", "/_emulator/faults", { body: { operation: "BatchChangeInventory", status: 429, count: 2 } });
    // And a proxy that drops connections and answers 429 with Retry-After.
    const random = seeded(11);
    const plan: ProxyAction[] = ["drop-after", "429", "drop-before", "503", "drop-after"];
    const proxy = await startFaultProxy(svc.url, () => plan.shift() ?? (random() < 0.25 ? "drop-after" : "pass"));
    const client = createClient({
      baseUrl: proxy.url,
      accessToken: svc.service.accessToken,
      baseDelayMs: 5,
      maxDelayMs: 1500,
    });
    try {
      const { id, counted } = await countLines(client, 350);
      planCommit(journal, id, now(), newKey);
      const started = Date.now();
      const outcome = await runCommit({ journal, countId: id, client, now, newKey, retryDelayMs: () => 5 });
      expect(outcome).toMatchObject({ kind: "committed", lines: 350 });
      // The 429 asked for a second's wait, and the client waited.
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect(proxy.log.filter((a) => a === "drop-after").length).toBeGreaterThanOrEqual(2);
      expect(proxy.log).toContain("drop-before");
      const faults = await svc.raw("GET", "/_emulator/faults");
      expect(faults.json.faults.map((f: { remaining: number }) => f.remaining)).toEqual([0, 0]);
      await expectCommitted(id, counted);
    } finally {
      await client.close();
      await proxy.close();
    }
  });
});
