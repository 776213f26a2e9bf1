import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Sqlite from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NEW_COUNT, stockItem } from "../../test/stocktake-helpers.js";
import { planCommitBatches } from "../domain/stocktake.js";
import { LocalDbTooNew } from "./db.js";
import {
  CountStateError,
  journalPath,
  OpenCountExists,
  openJournal,
  type StocktakeJournal,
} from "./stocktake-journal.js";

const NOW = new Date("2026-03-02T15:00:00.000Z");

const item = (n: number) => stockItem(n);
const header = { ...NEW_COUNT, startedAt: NOW.toISOString() };

describe("the stocktake journal", () => {
  let dir: string;
  let journal: StocktakeJournal;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "backroom-journal-"));
    journal = await openJournal(journalPath(join(dir, "data")));
  });
  afterEach(() => {
    journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps a count's header, scope, books and lines across reopening the file", async () => {
    const expected = new Map([
      ["V1", { quantity: "5", calculatedAt: "2026-03-02T14:00:00.000Z" }],
      ["V2", { quantity: "7", calculatedAt: "2026-03-02T14:30:00.000Z" }],
    ]);
    const count = journal.startCount(header, [item(1), item(2), item(3)], expected, NOW);
    expect(count.id).toMatch(/^ST-20260302-[A-Z2-9]{6}$/);
    expect(count).toMatchObject({ status: "open", uncounted: "leave", scanOne: false });
    expect(count.expectedSyncedAt).toBe("2026-03-02T14:30:00.000Z");

    journal.recordLine(count.id, { variationId: "V2", quantity: "3", countedAt: NOW.toISOString(), countedBy: "TM1" });
    journal.recordLine(count.id, {
      variationId: "V1",
      quantity: "4",
      countedAt: NOW.toISOString(),
      countedBy: "TM1",
      expected: "5",
    });
    // A recount of V2 keeps its place in the order and takes the new total.
    journal.recordLine(count.id, {
      variationId: "V2",
      quantity: "6",
      countedAt: "2026-03-02T15:05:00.000Z",
      countedBy: "TM2",
    });
    journal.recordUnknown(count.id, "999", NOW.toISOString());
    journal.recordUnknown(count.id, "999", "2026-03-02T15:01:00.000Z");
    journal.updateSettings(count.id, { uncounted: "zero", scanOne: true });
    journal.close();

    journal = await openJournal(journalPath(join(dir, "data")));
    const record = journal.load(count.id);
    expect(record?.header).toMatchObject({ id: count.id, status: "open", uncounted: "zero", scanOne: true });
    expect(record?.scope).toEqual(["V1", "V2", "V3"]);
    expect(record?.items.get("V3")?.name).toBe("Item 3");
    expect([...(record?.items.values() ?? [])]).toEqual([item(1), item(2), item(3)]);
    expect(record?.expected).toEqual(expected);
    expect(record?.lines).toEqual([
      { variationId: "V2", quantity: "6", countedAt: "2026-03-02T15:05:00.000Z", countedBy: "TM2" },
      { variationId: "V1", quantity: "4", countedAt: NOW.toISOString(), countedBy: "TM1", expected: "5" },
    ]);
    expect(record?.unknown).toEqual([
      {
        code: "999",
        firstSeenAt: NOW.toISOString(),
        lastSeenAt: "2026-03-02T15:01:00.000Z",
        times: 2,
        resolvedTo: undefined,
      },
    ]);
  });

  it("allows one open count per location, and says which one is open", () => {
    const first = journal.startCount(header, [item(1)], new Map(), NOW);
    expect(() => journal.startCount(header, [item(1)], new Map(), NOW)).toThrow(OpenCountExists);
    try {
      journal.startCount(header, [], new Map(), NOW);
    } catch (err) {
      expect((err as OpenCountExists).existing.id).toBe(first.id);
    }
    // Another location, or another seller's location of the same id, is free.
    expect(journal.startCount({ ...header, locationId: "L2" }, [], new Map(), NOW).status).toBe("open");
    expect(journal.startCount({ ...header, merchantId: "M2" }, [], new Map(), NOW).status).toBe("open");
    journal.discard(first.id);
    expect(journal.openCountAt("M1", "L1")).toBeUndefined();
    expect(journal.startCount(header, [], new Map(), NOW).status).toBe("open");
    expect(journal.list().map((c) => c.status)).toEqual(["open", "open", "open", "discarded"]);
  });

  it("fixes the plan of a commit and tracks each request to the end", () => {
    const count = journal.startCount(header, [item(1), item(2), item(3)], new Map(), NOW);
    journal.recordLines(
      count.id,
      [1, 2, 3].map((n) => ({
        variationId: `V${n}`,
        quantity: String(n),
        countedAt: NOW.toISOString(),
        countedBy: "TM1",
      })),
    );
    let k = 0;
    const plan = planCommitBatches(
      [1, 2, 3].map((n) => ({
        variationId: `V${n}`,
        quantity: String(n),
        countedAt: NOW.toISOString(),
        countedBy: "TM1",
      })),
      { referenceId: count.id, locationId: "L1", now: NOW, newKey: () => `key-${k++}`, size: 2 },
    );
    journal.requests.plan(count.id, plan, NOW.toISOString());
    expect(journal.get(count.id)?.status).toBe("committing");
    expect(() =>
      journal.recordLine(count.id, { variationId: "V1", quantity: "9", countedAt: "", countedBy: "" }),
    ).toThrow(CountStateError);
    // Another count at the location waits until this one is done.
    expect(() => journal.startCount(header, [], new Map(), NOW)).toThrow(OpenCountExists);

    const stored = journal.requests.list(count.id);
    expect(stored.map((b) => [b.seq, b.idempotencyKey, b.state, b.variationIds])).toEqual([
      [0, "key-0", "planned", ["V1", "V2"]],
      [1, "key-1", "planned", ["V3"]],
    ]);
    expect(stored[0]?.body).toEqual(plan[0]?.body);

    journal.requests.markSent(count.id, 0, NOW.toISOString());
    journal.requests.markAccepted(count.id, 0, ["C1", "C2"], NOW.toISOString());
    journal.requests.markSent(count.id, 1, NOW.toISOString());
    expect(() => journal.requests.finish(count.id, NOW.toISOString())).toThrow(
      /1 request of this count is not settled yet/,
    );
    journal.requests.markSent(count.id, 1, NOW.toISOString());
    expect(journal.requests.list(count.id)[1]).toMatchObject({ state: "sent", attempts: 2 });
    journal.requests.markAccepted(count.id, 1, ["C3"], NOW.toISOString());
    journal.requests.finish(count.id, "2026-03-02T15:10:00.000Z");
    expect(journal.get(count.id)).toMatchObject({ status: "committed", committedAt: "2026-03-02T15:10:00.000Z" });
    expect(journal.list()[0]).toMatchObject({ lines: 3, batches: 2, batchesAccepted: 2 });
  });

  it("sets a refused line aside and replaces its request in one step", () => {
    const count = journal.startCount(header, [item(1), item(2)], new Map(), NOW);
    const lines = [1, 2].map((n) => ({
      variationId: `V${n}`,
      quantity: String(n),
      countedAt: NOW.toISOString(),
      countedBy: "TM1",
    }));
    journal.recordLines(count.id, lines);
    const [plan] = planCommitBatches(lines, { referenceId: count.id, locationId: "L1", now: NOW, newKey: () => "old" });
    if (!plan) throw new Error("no plan");
    journal.requests.plan(count.id, [plan], NOW.toISOString());
    const replacement = {
      ...plan,
      seq: journal.requests.nextSeq(count.id),
      idempotencyKey: "new",
      variationIds: ["V2"],
    };
    journal.requests.supersede(
      count.id,
      0,
      { variationId: "V1", problem: "No catalog object with id V1." },
      replacement,
      NOW.toISOString(),
    );
    expect(journal.requests.list(count.id).map((b) => [b.seq, b.idempotencyKey, b.state])).toEqual([
      [0, "old", "superseded"],
      [1, "new", "planned"],
    ]);
    expect(journal.load(count.id)?.refused).toEqual([{ variationId: "V1", problem: "No catalog object with id V1." }]);
  });
});

// A journal file as backroom wrote it before the schema had numbered migrations: the SQL of one
// written by that code (test/fixtures/stocktake-journal-v1.sql), made into a file again.
const V1_SQL = readFileSync(join(process.cwd(), "test", "fixtures", "stocktake-journal-v1.sql"), "utf8");

function fileFrom(sql: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "backroom-journal-v1-")), "stocktake.db");
  const db = new Sqlite(path);
  db.exec(sql);
  db.close();
  return path;
}

const tables = (path: string) => {
  const db = new Sqlite(path, { readonly: true });
  const names = (db.prepare("SELECT name FROM sqlite_master ORDER BY name").all() as { name: string }[]).map(
    (r) => r.name,
  );
  db.close();
  return names;
};

describe("journals written before numbered migrations", () => {
  it("a journal of the last unnumbered build opens unchanged and keeps its counts, commit state and all", async () => {
    const path = fileFrom(V1_SQL);
    const before = tables(path);
    const journal = await openJournal(path);
    try {
      const counts = journal.list();
      expect(counts.map((c) => [c.locationId, c.status, c.lines, c.batches, c.batchesAccepted])).toEqual([
        ["L1", "open", 3, 0, 0],
        ["L2", "committing", 2, 2, 1],
      ]);
      const open = journal.load(counts[0]?.id ?? "");
      expect(open?.header).toMatchObject({ counterName: "Ana Ruiz", scanOne: true, uncounted: "leave" });
      expect(open?.lines.map((l) => [l.variationId, l.quantity, l.expected])).toEqual([
        ["V1", "7", "5"],
        ["V3", "2.5", "0"],
        ["V2", "0", "0"],
      ]);
      expect(open?.items.get("V3")?.precision).toBe(2);
      expect(open?.unknown).toMatchObject([{ code: "0712345678901", times: 2 }]);
      expect(open?.people.get("TM1")).toBe("Ana Ruiz");
      // The commit that stopped halfway: request 0 accepted, request 1 sent with no answer heard.
      const half = counts[1]?.id ?? "";
      expect(journal.requests.list(half).map((b) => [b.seq, b.idempotencyKey, b.state, b.attempts])).toEqual([
        [0, "key-1", "accepted", 1],
        [1, "key-2", "sent", 1],
      ]);
      expect(
        journal.requests
          .log(half)
          .unsettled()
          .map((b) => b.idempotencyKey),
      ).toEqual(["key-2"]);
      // It goes on being written as before.
      journal.recordLine(open?.header.id ?? "", { variationId: "V2", quantity: "4", countedAt: "x", countedBy: "TM1" });
      expect(journal.load(open?.header.id ?? "")?.lines.at(-1)).toMatchObject({ variationId: "V2", quantity: "4" });
    } finally {
      journal.close();
    }
    expect(tables(path)).toEqual(before);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("a journal of the first builds (version 1 without people or order indexes) gets them", async () => {
    const first = V1_SQL.replace(/CREATE TABLE people \([^;]*\);/, "")
      .replace(/CREATE INDEX [^;]*;/g, "")
      .replace(/INSERT INTO people [^;]*;/g, "");
    const path = fileFrom(first);
    expect(tables(path)).not.toContain("people");
    const journal = await openJournal(path);
    try {
      const id = journal.list()[0]?.id ?? "";
      expect(journal.load(id)?.lines).toHaveLength(3);
      journal.setCounter(id, "TM2", "Bo Chen");
      expect(journal.people(id)).toEqual(new Map([["TM2", "Bo Chen"]]));
    } finally {
      journal.close();
    }
    expect(tables(path)).toEqual(expect.arrayContaining(["people", "lines_in_order", "items_in_scope_order"]));
  });

  it("refuses a journal written by a newer backroom, and leaves it as it was", async () => {
    const path = fileFrom(`${V1_SQL}\nPRAGMA user_version = 99;`);
    await expect(openJournal(path)).rejects.toThrow(LocalDbTooNew);
    await expect(openJournal(path)).rejects.toThrow(/The stocktake journal was written by a newer backroom/);
    const db = new Sqlite(path, { readonly: true });
    expect(db.pragma("user_version", { simple: true })).toBe(99);
    db.close();
  });
});
