// The Stocktake screen's numbers, driven by keys through the whole app: an item from outside the
// count's scope gets the service's expected quantity and is marked; add or replace; a count far
// from the books asked once; a blind count; the commit's confirmation names what it leaves out.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEMO } from "../src/service/seed/demo-ids.js";
import { type DrivenApp, KEYS, startApp } from "./helpers/app.js";
import { physicalCountsOf, setBooks, variation } from "./stocktake-helpers.js";

const MAIN = DEMO.mainLocationId;

let apps: DrivenApp[] = [];
let dir: string | undefined;
afterEach(async () => {
  for (const a of apps) await a.close();
  apps = [];
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

async function open(): Promise<DrivenApp> {
  dir ??= mkdtempSync(join(tmpdir(), "backroom-ui-stocktake-numbers-"));
  const a = await startApp({ rows: 30, columns: 120, store: { dataDir: dir } });
  apps.push(a);
  await a.waitFor("Main Street");
  await a.press("4");
  await a.waitFor("Stocktake at Main Street");
  return a;
}

/** A cycle count of a list of SKUs, counted by the first member offered (`b` first for a blind one). */
async function startSkuCount(a: DrivenApp, skus: string[], opts: { blind?: boolean } = {}) {
  await a.press("n");
  await a.waitFor("Start a count at Main Street");
  await a.press("j", "j", "j", KEYS.enter);
  await a.waitFor("Count a list of SKUs");
  await a.press(skus.join(", "), KEYS.enter);
  await a.waitFor("Who is counting?");
  if (opts.blind) {
    await a.press("b");
    await a.waitFor("b blind count (expected hidden while counting): on");
  }
  await a.press(KEYS.enter);
  await a.waitFor("Scan or type a code");
}

const questionOf = (a: DrivenApp) => {
  const o = a.store.getState().overlay;
  return o.kind === "confirm" ? o.question.message : undefined;
};

describe("the numbers of a count", () => {
  it("counts an item from outside the scope against the service's books, asks add or replace, and a far count once", async () => {
    const a = await open();
    const hammer = await variation(a.client, "Claw Hammer", "16 oz");
    const cord = await variation(a.client, "Extension Cord", "25 ft");
    await setBooks(a.client, MAIN, [
      [hammer, 10],
      [cord, 12],
    ]);
    await startSkuCount(a, [hammer.sku]);

    // The cord is not of the count: its expected quantity is read from the service, never 0.
    await a.press(`${cord.upc}\r`);
    await a.waitFor(`${cord.label} (expected 12, not in scope) quantity›`);
    await a.press("5\r");
    await a.waitFor(`✓ ${cord.label}: 5 (expected 12, -7) · not in scope`);
    await a.waitFor(`${cord.label} · not in scope`);

    // A bare quantity for an item already counted asks; =N replaces without asking.
    await a.press(`${hammer.sku}\r`, "3\r");
    await a.waitFor(`✓ ${hammer.label}: 3`);
    await a.press(`${hammer.sku}\r`, "3\r");
    await a.waitFor(`${hammer.label}: 3 counted so far. Add 3 (→ 6) or replace (→ 3)?`);
    await a.waitFor("Replace (→ 3)");
    await a.press("y");
    await a.waitFor(`✓ ${hammer.label}: 6`);
    await a.press(`${hammer.sku}\r`, "3\r");
    await a.waitFor("Add 3 (→ 9) or replace (→ 3)?");
    await a.press("n");
    await a.waitFor(`✓ ${hammer.label}: 3 (expected 10`);
    // esc is neither add nor replace: the count stays as it was, and the line says so.
    await a.press(`${hammer.sku}\r`, "4\r");
    await a.waitFor("Add 4 (→ 7) or replace (→ 4)?");
    await a.waitFor("esc: neither");
    await a.press(KEYS.escape);
    await a.waitFor(`${hammer.label}: 4 not counted; the count stays 3.`);
    expect(a.store.getState().stocktake.count?.lines.find((l) => l.variationId === hammer.id)?.quantity).toBe("3");
    await a.press(`${hammer.sku}\r`, "=8\r");
    await a.waitFor(`✓ ${hammer.label}: 8`);
    expect(questionOf(a)).toBeUndefined();

    // Far from the books: asked once; no leaves the line as it was.
    await a.press(`${hammer.sku}\r`, "=500", "\r");
    await a.waitFor(`${hammer.label}: 500 counted, 10 expected — keep?`);
    await a.press("n");
    await a.waitFor("500 not counted; type the count again.");
    await a.press(`${hammer.sku}\r`, "=500", "\r");
    await a.waitFor("500 counted, 10 expected — keep?");
    await a.press("y");
    await a.waitFor(`✓ ${hammer.label}: 500`);

    // A code that matches nothing, for the commit's confirmation.
    await a.press("0999999999994\r");
    await a.waitFor("Unknown code 0999999999994");

    await a.press(KEYS.escape, "v");
    await a.waitFor("Review ST-");
    await a.waitFor("1 not in the count's scope");
    await a.waitFor(`${cord.label} · not in scope`);
    await a.waitFor("! 500");
    const id = a.store.getState().stocktake.count?.header.id ?? "";
    await a.press("c");
    await a.waitFor(`Commit 2 lines of ${id}`);
    expect(questionOf(a)).toContain("Left out: 1 unknown code not resolved.");
    await a.press("y");
    await a.waitFor("✓ Committed 2 lines as physical counts.");
    const history = await physicalCountsOf(a.client, MAIN, id);
    expect(Object.fromEntries(history)).toEqual({ [hammer.id]: ["500"], [cord.id]: ["5"] });
  });

  it("hides the expected quantities of a blind count while counting, and shows them in the review", async () => {
    const a = await open();
    const hammer = await variation(a.client, "Claw Hammer", "20 oz");
    await setBooks(a.client, MAIN, [[hammer, 10]]);
    await startSkuCount(a, [hammer.sku], { blind: true });
    await a.waitFor("BLIND: expected shown in the review");
    await a.press(`${hammer.sku}\r`);
    await a.waitFor(`${hammer.label} quantity›`);
    await a.press("7\r");
    await a.waitFor(`✓ ${hammer.label}: 7`);
    expect(a.frame()).not.toContain("expected 10");
    expect(a.frame()).not.toMatch(/Expected\s+Var/);
    await a.press(KEYS.escape, "v");
    await a.waitFor(/Expected\s+Counted/);
    await a.waitFor(/10\s+7\s+-3/);
    // b turns it off: the counting view shows the books again (back from the review, the line is let go).
    await a.press(KEYS.escape);
    await a.waitFor("Scan or type a code");
    await a.press("b");
    await a.waitFor(/Counted\s+Expected\s+Var/);
  });
});
