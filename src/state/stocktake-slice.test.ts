// The Stocktake slice without a terminal: its I/O against the in-process local service and a
// journal in a temp folder.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Sqlite from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startService, type TestService } from "../../test/helpers/service.js";
import { createFullStore } from "../../test/helpers/store.js";
import { type Variation, variation } from "../../test/stocktake-helpers.js";
import type { CountScope } from "../domain/stocktake.js";
import { JournalHandle, journalPath } from "../local/stocktake-journal.js";
import type { LoadedStore } from "./store.js";

let t: TestService;
let dir: string;
let hammer: Variation;
let wrench: Variation;
const stores: { store: LoadedStore; journal: JournalHandle }[] = [];

beforeAll(async () => {
  t = await startService();
  dir = mkdtempSync(join(tmpdir(), "backroom-stocktake-slice-"));
  hammer = await variation(t.client, "Claw Hammer", "16 oz");
  wrench = await variation(t.client, "Adjustable Wrench", "8 in");
});
afterEach(async () => {
  for (const { store, journal } of stores.splice(0)) {
    if (store.getState().stocktake.count) await store.getState().stocktakeDiscard();
    (await journal.open()).close();
  }
  await t.raw("DELETE", "/_emulator/faults");
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const until = (test: () => boolean) =>
  vi.waitFor(
    () => {
      if (!test()) throw new Error("not yet");
    },
    { timeout: 8000, interval: 5 },
  );

/** A store on the service with its own journal, a count started at Main Street. */
async function counting(scope: CountScope = { kind: "full" }) {
  const journal = new JournalHandle(journalPath(mkdtempSync(join(dir, "data-"))));
  const store = await createFullStore({ client: t.client, stocktakeJournal: journal });
  stores.push({ store, journal });
  const s = () => store.getState();
  await s().init();
  await s().stocktakeChooseScope(scope);
  const counter = s().stocktake.members[0]?.id ?? "";
  expect(await s().stocktakeStart(counter)).toBeUndefined();
  return { s, store, journal };
}

const lineOf = (s: () => ReturnType<LoadedStore["getState"]>, variationId: string) => {
  const count = s().stocktake.count;
  const at = count?.lineAt.get(variationId);
  return at === undefined ? undefined : count?.lines[at]?.quantity;
};

describe("stocktake slice", () => {
  it("a counted line is in the journal file before the store shows it", async () => {
    const { s, store, journal } = await counting();
    const seen: (string | undefined)[] = [];
    // Read the file with a connection of its own the moment the line first shows.
    const unsubscribe = store.subscribe((state) => {
      if (seen.length > 0 || !state.stocktake.count?.lineAt.has(hammer.id)) return;
      const db = new Sqlite(journal.path, { readonly: true });
      const row = db.prepare("SELECT quantity FROM lines WHERE variation_id = ?").get(hammer.id) as
        | { quantity: string }
        | undefined;
      db.close();
      seen.push(row?.quantity);
    });
    await s().stocktakeSubmit(hammer.sku);
    expect(s().stocktake.prompt).toEqual({ kind: "quantity", variationId: hammer.id });
    await s().stocktakeSubmit("12");
    unsubscribe();
    expect(seen).toEqual(["12"]);
    expect(s().stocktake.feedback).toMatchObject({ kind: "counted", variationId: hammer.id, quantity: "12" });
  });

  it("handles entries in the order they came, a slow look-up at the service included", async () => {
    // A count of the hammer only: the wrench must be looked up at the service, slowly.
    const { s } = await counting({ kind: "skus", skus: [hammer.sku] });
    await t.raw("POST", "/_emulator/faults", {
      body: { operation: "SearchCatalogObjects", status: 200, latency_ms: 300, count: 2 },
    });
    // Typed before the look-up answers: the 5 is the wrench's quantity, not a code of its own.
    const code = s().stocktakeSubmit(wrench.sku);
    const quantity = s().stocktakeSubmit("5");
    expect(s().stocktake.entries.map((e) => e.text)).toEqual([wrench.sku, "5"]);
    // What holds them up is said while it lasts.
    await until(() => s().stocktake.lookingUp === wrench.sku);
    await quantity;
    expect(s().stocktake.lookingUp).toBeUndefined();
    await code;
    expect(lineOf(s, wrench.id)).toBe("5");
    expect(s().stocktake.count?.unknown).toEqual([]);
    expect(s().stocktake.entries).toEqual([]);
  });

  it("a scan is a code even while a quantity is asked, and counts one unit in scan = 1 unit mode", async () => {
    const { s } = await counting();
    await s().stocktakeSubmit(hammer.sku);
    // The hammer's quantity was left out: the scan asks the wrench's.
    await s().stocktakeScan(`0${wrench.upc}`);
    expect(s().stocktake.prompt).toEqual({ kind: "quantity", variationId: wrench.id, skipped: [hammer.label] });
    await s().stocktakeToggleScanOne();
    await s().stocktakeScan(wrench.upc);
    await s().stocktakeScan(wrench.upc);
    expect(lineOf(s, wrench.id)).toBe("2");
    expect(lineOf(s, hammer.id)).toBeUndefined();
    // A scan of digits that could be a quantity is still a code: unknown here, kept as such.
    await s().stocktakeScan("0999999999994");
    expect(s().stocktake.count?.unknown.map((u) => u.code)).toEqual(["0999999999994"]);
  });

  it("says so when a scan leaves the item asked about uncounted, or the same item is scanned again", async () => {
    const { s } = await counting();
    await s().stocktakeScan(hammer.upc);
    expect(s().stocktake.prompt).toEqual({ kind: "quantity", variationId: hammer.id });
    // Scanned again before its quantity: nothing counted, and the line says how to count it.
    await s().stocktakeScan(hammer.upc);
    expect(s().stocktake.feedback).toEqual({
      kind: "info",
      text: `${hammer.label} scanned again: type how many (esc s: scan = 1 unit).`,
    });
    // Another item before the hammer's quantity: the hammer is not counted, and that is said.
    await s().stocktakeScan(wrench.upc);
    expect(s().stocktake.prompt).toEqual({ kind: "quantity", variationId: wrench.id, skipped: [hammer.label] });
    expect(lineOf(s, hammer.id)).toBeUndefined();
    expect(s().stocktake.feedback).toEqual({
      kind: "info",
      text: `${hammer.label} not counted: no quantity was typed.`,
    });
  });

  it("names every item a burst of scans left uncounted, not only the last", async () => {
    const { s } = await counting();
    const other = await variation(t.client, "Claw Hammer", "20 oz");
    // Three codes in one scanner burst, no quantity between them: the first two are left out.
    await Promise.all([s().stocktakeScan(hammer.upc), s().stocktakeScan(wrench.upc), s().stocktakeScan(other.upc)]);
    expect(s().stocktake.prompt).toMatchObject({ kind: "quantity", variationId: other.id });
    expect(s().stocktake.feedback).toEqual({
      kind: "info",
      text: `2 items not counted (no quantity was typed): ${hammer.label} and ${wrench.label}.`,
    });
    // A quantity counts the last; the next item left out is named alone.
    await s().stocktakeSubmit("4");
    expect(lineOf(s, other.id)).toBe("4");
    await s().stocktakeScan(hammer.upc);
    await s().stocktakeScan(wrench.upc);
    expect(s().stocktake.feedback).toEqual({
      kind: "info",
      text: `${hammer.label} not counted: no quantity was typed.`,
    });
  });

  it("a code the service cannot be asked about is kept to resolve later, and says so", async () => {
    const { s } = await counting({ kind: "skus", skus: [hammer.sku] });
    await t.raw("POST", "/_emulator/faults", { body: { operation: "SearchCatalogObjects", status: 503 } });
    await s().stocktakeScan(wrench.upc);
    expect(s().stocktake.count?.unknown.map((u) => u.code)).toEqual([wrench.upc]);
    expect(s().stocktake.feedback).toEqual({ kind: "unknown", code: wrench.upc, unanswered: true });
    await s().stocktakeSubmit("hammer");
    expect(s().stocktake.feedback).toMatchObject({ kind: "problem", text: expect.stringMatching(/not looked up/) });
    await t.raw("DELETE", "/_emulator/faults");
    // Once it answers, the same code is found as the item it is.
    await s().stocktakeScan(wrench.upc);
    expect(s().stocktake.prompt).toEqual({ kind: "quantity", variationId: wrench.id });
  });

  it("a scan with no count open is said, and nothing is counted", async () => {
    const journal = new JournalHandle(journalPath(mkdtempSync(join(dir, "data-"))));
    const store = await createFullStore({ client: t.client, stocktakeJournal: journal });
    stores.push({ store, journal });
    await store.getState().init();
    await store.getState().stocktakeScan(hammer.upc);
    expect(store.getState().status).toMatchObject({
      kind: "rule",
      text: "Nothing was counted: no count is open.",
    });
    expect((await journal.open()).list()).toEqual([]);
  });

  it("acknowledges nothing the journal could not record, and says so", async () => {
    const { s, journal } = await counting();
    await s().stocktakeSubmit(hammer.sku);
    (await journal.open()).close();
    await s().stocktakeSubmit("7");
    expect(lineOf(s, hammer.id)).toBeUndefined();
    expect(s().stocktake.feedback).toEqual({
      kind: "problem",
      text: `Counting ${hammer.label}: the journal could not be written, so nothing was recorded.`,
    });
    expect(s().status).toMatchObject({ kind: "error" });
    // The open count stays in the file for the discard in afterEach.
    stores.pop();
  });

  it("resumes a count from the journal in a new store, as it was left", async () => {
    const { s, journal } = await counting();
    await s().stocktakeToggleScanOne();
    await s().stocktakeScan(hammer.upc);
    await s().stocktakeScan(hammer.upc);
    const other = await createFullStore({ client: t.client, stocktakeJournal: journal });
    await other.getState().init();
    await other.getState().loadStocktakeHome();
    expect(other.getState().stocktake.openHere).toMatchObject({ lines: 1 });
    await other.getState().stocktakeResume();
    const count = other.getState().stocktake.count;
    expect(count?.header.scanOne).toBe(true);
    expect(count?.lines.map((l) => [l.variationId, l.quantity])).toEqual([[hammer.id, "2"]]);
    await until(() => other.getState().stocktake.count?.expectedChangedAt !== undefined);
  });
});
