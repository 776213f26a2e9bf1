// Stocktake numbers against the demo store: an item scanned from outside a cycle count's scope is
// counted against the service's own quantity (read before its variance is shown), a count far
// from the books is asked about, and a bare quantity for an item already counted asks whether
// it adds or replaces.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startService, type TestService } from "../../test/helpers/service.js";
import { createFullStore } from "../../test/helpers/store.js";
import { buildReview, type CountScope } from "../domain/stocktake.js";
import { JournalHandle, journalPath } from "../local/stocktake-journal.js";
import type { CatalogObject } from "../spec/generated/types.js";
import { expectedOf } from "./stocktake-slice.js";
import type { LoadedStore } from "./store.js";

/** Main Street, the demo's first location (the store opens on it). */
const MAIN = "LMAIN0000000001";

let t: TestService;
let dir: string;
let handTools: { id: string; name: string };
let cord: { id: string; upc: string; name: string };
const stores: { store: LoadedStore; journal: JournalHandle }[] = [];

/** What the service's books say of a variation at Main Street now. */
async function onHand(variationId: string): Promise<string> {
  const counts = await t.client.inventory
    .batchRetrieveInventoryCounts({
      catalog_object_ids: [variationId],
      location_ids: [MAIN],
      states: ["IN_STOCK"],
    })
    .all();
  return counts[0]?.quantity ?? "0";
}

beforeAll(async () => {
  t = await startService();
  dir = mkdtempSync(join(tmpdir(), "backroom-stocktake-numbers-"));
  const categories = await t.client.catalog.searchCatalogObjects({ object_types: ["CATEGORY"] }).all();
  const ht = categories.find((c) => c.category_data?.name === "Hand Tools") as CatalogObject;
  handTools = { id: ht.id, name: "Hand Tools" };
  const items = await t.client.catalog.searchCatalogItems({ text_filter: "Extension Cord" }).all();
  const variation = items[0]?.item_data?.variations?.find((v) => v.item_variation_data?.name === "25 ft");
  cord = { id: variation?.id ?? "", upc: variation?.item_variation_data?.upc ?? "", name: "Extension Cord, 25 ft" };
});
afterEach(async () => {
  for (const { store, journal } of stores.splice(0)) {
    if (store.getState().stocktake.count?.header.status === "open") await store.getState().stocktakeDiscard();
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

/** A store with its own journal, a count started at Main Street. */
async function counting(scope: CountScope) {
  const journal = new JournalHandle(journalPath(mkdtempSync(join(dir, "data-"))));
  const store = await createFullStore({ client: t.client, stocktakeJournal: journal });
  stores.push({ store, journal });
  const s = () => store.getState();
  await s().init();
  await s().stocktakeChooseScope(scope);
  expect(await s().stocktakeStart(s().stocktake.members[0]?.id ?? "")).toBeUndefined();
  return s;
}

const countedOf = (s: () => ReturnType<LoadedStore["getState"]>, id: string) => {
  const c = s().stocktake.count;
  const at = c?.lineAt.get(id);
  return at === undefined ? undefined : c?.lines[at]?.quantity;
};

describe("an item from outside a cycle count's scope", () => {
  it("is counted against the service's quantity, read before its variance is shown, and commits the right change", async () => {
    const before = await onHand(cord.id);
    expect(Number(before)).toBeGreaterThan(5);
    const s = await counting({ kind: "category", categoryIds: [handTools.id], label: handTools.name });
    const count = () => s().stocktake.count;
    expect(count()?.inScope.has(cord.id)).toBe(false);
    // The books' reply is held back: the scan is counted at once, its expected quantity shown as unknown, never 0.
    await t.raw("POST", "/_emulator/faults", {
      body: { operation: "BatchRetrieveInventoryCounts", latency_ms: 300, count: 1 },
    });
    await s().stocktakeScan(cord.upc);
    expect(s().stocktake.prompt).toEqual({ kind: "quantity", variationId: cord.id });
    await s().stocktakeSubmit("5");
    expect(countedOf(s, cord.id)).toBe("5");
    expect(expectedOf(count() as never, cord.id)).toBeUndefined();
    const pending = buildReview({ ...reviewInput(s), uncounted: "leave" });
    expect(pending.find((r) => r.item.variationId === cord.id)).toMatchObject({
      expected: undefined,
      outOfScope: true,
    });
    // Then the service's own quantity arrives: the variance is against it.
    await until(() => count()?.expected.has(cord.id) === true);
    expect(expectedOf(count() as never, cord.id)).toBe(before);
    const row = buildReview({ ...reviewInput(s), uncounted: "leave" }).find((r) => r.item.variationId === cord.id);
    expect(row).toMatchObject({ expected: before, variance: (5 - Number(before)) * 100_000, outOfScope: true });
    expect(row?.value).toBe(Math.round((5 - Number(before)) * (row?.item.priceAmount ?? 0)));

    await s().stocktakeCommit();
    await until(() => s().stocktake.commit?.outcome?.kind === "committed");
    expect(await onHand(cord.id)).toBe("5");
  });
});

/** What the review of the open count is built from. */
function reviewInput(s: () => ReturnType<LoadedStore["getState"]>) {
  const c = s().stocktake.count;
  if (!c) throw new Error("no count");
  return { items: c.items, lines: c.lines, expected: c.expected, scope: c.scope };
}

describe("the counting line's questions", () => {
  it("asks once before keeping a count far from the books", async () => {
    const s = await counting({ kind: "category", categoryIds: [handTools.id], label: handTools.name });
    const hammer = [...(s().stocktake.count?.items.values() ?? [])].find(
      (i) => (s().stocktake.count?.expected.get(i.variationId)?.quantity ?? "0") !== "0",
    );
    if (!hammer) throw new Error("no item with stock");
    const expected = s().stocktake.count?.expected.get(hammer.variationId)?.quantity ?? "";
    const far = String(Number(expected) * 100);
    await s().stocktakeSubmit(hammer.sku);
    await s().stocktakeSubmit(far);
    // Not recorded yet: the question is open.
    expect(countedOf(s, hammer.variationId)).toBeUndefined();
    expect(s().stocktake.question).toMatchObject({
      kind: "far",
      text: `${hammer.name}: ${far} counted, ${expected} expected — keep?`,
    });
    // No: nothing recorded, and the line says so.
    await s().stocktakeAnswer(false);
    expect(countedOf(s, hammer.variationId)).toBeUndefined();
    expect(s().stocktake.feedback).toMatchObject({
      kind: "info",
      text: `${hammer.name}: ${far} not counted; type the count again.`,
    });
    // Again, and yes: kept; a further entry for it is not asked about again.
    await s().stocktakeSubmit(hammer.sku);
    await s().stocktakeSubmit(far);
    await s().stocktakeAnswer(true);
    expect(countedOf(s, hammer.variationId)).toBe(far);
    await s().stocktakeSubmit("+1");
    expect(s().stocktake.question).toBeUndefined();
    expect(countedOf(s, hammer.variationId)).toBe(String(Number(far) + 1));
  });

  it("asks whether a bare quantity adds to a counted item or replaces it; +N and =N say it outright", async () => {
    const s = await counting({ kind: "category", categoryIds: [handTools.id], label: handTools.name });
    const item = [...(s().stocktake.count?.items.values() ?? [])][0];
    if (!item) throw new Error("no item");
    await s().stocktakeSubmit(item.sku);
    await s().stocktakeSubmit("3");
    expect(countedOf(s, item.variationId)).toBe("3");
    // Counted again on another shelf: a bare 3 asks.
    await s().stocktakeSubmit(item.sku);
    await s().stocktakeSubmit("3");
    expect(s().stocktake.question).toMatchObject({
      kind: "add-or-replace",
      text: `${item.name}: 3 counted so far. Add 3 (→ 6) or replace (→ 3)?`,
    });
    await s().stocktakeAnswer(true);
    expect(countedOf(s, item.variationId)).toBe("6");
    await s().stocktakeSubmit(item.sku);
    await s().stocktakeSubmit("2");
    await s().stocktakeAnswer(false);
    expect(countedOf(s, item.variationId)).toBe("2");
    // Said outright: no question.
    await s().stocktakeSubmit(item.sku);
    await s().stocktakeSubmit("+4");
    expect(countedOf(s, item.variationId)).toBe("6");
    await s().stocktakeSubmit(item.sku);
    await s().stocktakeSubmit("=1");
    expect(countedOf(s, item.variationId)).toBe("1");
    expect(s().stocktake.question).toBeUndefined();
    // Right after a count, =N puts the same item's count right.
    await s().stocktakeSubmit("=5");
    expect(countedOf(s, item.variationId)).toBe("5");
  });

  it("keeps a blind count's setting in the journal, and a resumed count reads the books it was waiting for", async () => {
    const journal = new JournalHandle(journalPath(mkdtempSync(join(dir, "data-"))));
    const store = await createFullStore({ client: t.client, stocktakeJournal: journal });
    stores.push({ store, journal });
    const s = () => store.getState();
    await s().init();
    await s().stocktakeChooseScope({ kind: "category", categoryIds: [handTools.id], label: handTools.name });
    expect(await s().stocktakeStart(s().stocktake.members[0]?.id ?? "", { blind: true })).toBeUndefined();
    expect(s().stocktake.count?.header.blind).toBe(true);
    // The books' read fails: the item stays unknown, and is read again when the count is resumed.
    await t.raw("POST", "/_emulator/faults", {
      body: { operation: "BatchRetrieveInventoryCounts", status: 503, code: "SERVICE_UNAVAILABLE", count: 1 },
    });
    await s().stocktakeScan(cord.upc);
    await s().stocktakeSubmit("2");
    await until(() => !s().stocktake.books.reading && s().stocktake.books.wanted.includes(cord.id));
    const id = s().stocktake.count?.header.id ?? "";
    s().stocktakeClose();
    await until(() => s().stocktake.openHere?.id === id);
    await s().stocktakeResume();
    expect(s().stocktake.count?.header.blind).toBe(true);
    await until(() => s().stocktake.count?.expected.has(cord.id) === true);
    await s().stocktakeToggleBlind();
    expect(s().stocktake.count?.header.blind).toBe(false);
  });
});
