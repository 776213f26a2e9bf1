// The Stocktake screen driven by keys through the whole app, against the in-process local service.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { planCommitBatches } from "../src/domain/stocktake.js";
import { journalPath, openJournal } from "../src/local/stocktake-journal.js";
import { DEMO } from "../src/service/seed/demo-ids.js";
import { type DrivenApp, KEYS, startApp } from "./helpers/app.js";
import { startService, type TestService } from "./helpers/service.js";
import { inStockAt, physicalCountsOf, setBooks, variation } from "./stocktake-helpers.js";

const MAIN = DEMO.mainLocationId;
const CTRL_U = "\u0015";

let apps: DrivenApp[] = [];
let dir: string | undefined;
afterEach(async () => {
  for (const a of apps) await a.close();
  apps = [];
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** The app on a demo store (a fresh one, or `shared`) with its journal in a temp folder, on the Stocktake screen. */
async function open(opts: { shared?: TestService; columns?: number } = {}): Promise<DrivenApp> {
  dir ??= mkdtempSync(join(tmpdir(), "backroom-ui-stocktake-"));
  const a = await startApp({
    rows: 30,
    columns: opts.columns ?? 110,
    store: { dataDir: dir },
    ...(opts.shared ? { shared: opts.shared } : {}),
  });
  apps.push(a);
  await a.waitFor("1 Time clock");
  await a.waitFor("Main Street");
  await a.press("4");
  await a.waitFor("Stocktake at Main Street");
  return a;
}

/** n, then a full count (or `scope` = the digit of the kind), counted by the first member offered. */
async function startCount(a: DrivenApp, choose: () => Promise<void> = async () => a.press(KEYS.enter)) {
  await a.press("n");
  await a.waitFor("Start a count at Main Street");
  await choose();
  await a.waitFor("Who is counting?");
  await a.press(KEYS.enter);
  await a.waitFor("Scan or type a code");
}

/** The count open in the app. */
/** A sale at the till, now: the service records it as IN_STOCK → SOLD at Main Street. */
async function sellAtTill(a: DrivenApp, variationId: string, quantity: string): Promise<void> {
  await a.client.inventory.batchChangeInventory({
    idempotency_key: `sale-${Math.random()}`,
    changes: [
      {
        type: "ADJUSTMENT",
        adjustment: {
          catalog_object_id: variationId,
          location_id: MAIN,
          from_state: "IN_STOCK",
          to_state: "SOLD",
          quantity,
          occurred_at: new Date().toISOString(),
        },
      },
    ],
  });
}

function countOf(a: DrivenApp) {
  const count = a.store.getState().stocktake.count;
  if (!count) throw new Error("no count is open");
  return count;
}

const lineOf = (a: DrivenApp, variationId: string) => {
  const c = countOf(a);
  const at = c.lineAt.get(variationId);
  return at === undefined ? undefined : c.lines[at];
};

describe("counting", () => {
  it("keeps the counting line's words at 60 and 80 columns: the prompt shortens, the hint after esc says how to type again", async () => {
    const a = await open({ columns: 60 });
    await startCount(a);
    await a.waitFor("Scan or type a code, name, +N, =N›");
    await a.press(KEYS.escape);
    await a.waitFor("› enter or i to type again");
    a.stdout.resize(80, 30);
    await a.waitFor("› enter or i to type again");
    a.stdout.resize(110, 30);
    await a.waitFor("+N (adds) or =N (replaces)› enter or i to type again (esc let go of the line)");
  });

  it("takes a scanner's burst — the code and Enter in one write — then the quantity", async () => {
    const a = await open();
    const hammer = await variation(a.client, "Claw Hammer", "16 oz");
    await setBooks(a.client, MAIN, [[hammer, 10]]);
    await startCount(a);
    // The UPC-A as a 13-digit EAN, as many scanners send it, and Enter: one read of the terminal.
    await a.press(`0${hammer.upc}\r`);
    await a.waitFor(`${hammer.label} (expected 10) quantity›`);
    await a.press("12\r");
    await a.waitFor(`✓ ${hammer.label}: 12 (expected 10, +2)`);
    await a.waitFor(/1 line · by /);
    // Journaled before it was shown.
    const journal = await openJournal(journalPath(dir ?? ""));
    expect(journal.load(countOf(a).header.id)?.lines).toMatchObject([{ variationId: hammer.id, quantity: "12" }]);
    journal.close();
  });

  it("finds by name with a pick list, and +N adds to what is counted", async () => {
    const a = await open();
    const hammer = await variation(a.client, "Claw Hammer", "16 oz");
    await startCount(a);
    await a.press("claw hammer\r");
    await a.waitFor("Which item is “claw hammer”?");
    await a.waitFor("Claw Hammer, 20 oz");
    // j and enter choose (the number keys stay the shell's: they show screens).
    await a.press("j", KEYS.enter);
    await a.waitFor(`${hammer.label} (expected`);
    await a.press("5\r");
    await a.waitFor(`✓ ${hammer.label}: 5`);
    // The same item on another shelf: +3 adds to it.
    await a.press("+3\r");
    await a.waitFor(`✓ ${hammer.label}: 8`);
    // Or its code again, then +N.
    await a.press(`${hammer.sku}\r`, "+2\r");
    await a.waitFor(`✓ ${hammer.label}: 10`);
    expect(lineOf(a, hammer.id)?.quantity).toBe("10");
    // A count cannot go below zero; the line keeps what it had.
    await a.press("-11\r");
    await a.waitFor("cannot go below zero (10 so far)");
    expect(lineOf(a, hammer.id)?.quantity).toBe("10");
  });

  it("counts one unit per scan in scan = 1 unit mode", async () => {
    const a = await open();
    const wrench = await variation(a.client, "Adjustable Wrench", "8 in");
    await startCount(a);
    await a.press(KEYS.escape, "s");
    await a.waitFor("SCAN = 1 UNIT");
    await a.press("i");
    for (let i = 0; i < 3; i++) await a.press(`${wrench.upc}\r`);
    await a.waitFor(`✓ ${wrench.label}: 3`);
    expect(lineOf(a, wrench.id)?.quantity).toBe("3");
    // Back to scan-then-quantity.
    await a.press(KEYS.escape, "s", "i", `${wrench.upc}\r`);
    await a.waitFor(`${wrench.label} (expected`);
    await a.waitFor("counted 3) quantity›");
  });

  it("counts a scanner's burst with the counting line let go: never a hotkey, never another screen", async () => {
    const a = await open();
    const wrench = await variation(a.client, "Adjustable Wrench", "8 in");
    const hammer = await variation(a.client, "Claw Hammer", "16 oz");
    await startCount(a);
    await a.press(KEYS.escape, "s");
    await a.waitFor("SCAN = 1 UNIT");
    // Digits (the shell's number keys) and letters (the screen's keys), each code and Enter in one read.
    await a.press(`${wrench.upc}\r`);
    await a.press(`${wrench.sku}\r`);
    await a.waitFor(`✓ ${wrench.label}: 2`);
    expect(a.store.getState().screen.kind).toBe("stocktake");
    expect(a.store.getState().stocktake.typing).toBe(false);
    // Scan, then quantity, the line still let go: the scan asks the quantity and gives the line the keys,
    // so the 7 typed next is the quantity, not the 7th screen.
    await a.press("s");
    await a.waitFor("Scan, then type the quantity");
    await a.press(`${hammer.upc}\r`);
    await a.waitFor(`${hammer.label} (expected`);
    await a.press("7", KEYS.enter);
    await a.waitFor(`✓ ${hammer.label}: 7`);
    // From the review, a scan is counted too, on the count's lines where its answer shows.
    await a.press(KEYS.escape, "v");
    await a.waitFor("Review ST-");
    await a.press(`${wrench.upc}\r`);
    await a.waitFor(/Adjustable Wrench, 8 in \(expected \d+, counted 2\) quantity›/);
    expect(a.store.getState().screen.kind).toBe("stocktake");
  });

  it("esc from the review lands on the count with the line let go: a number key after it is a screen", async () => {
    const a = await open();
    await startCount(a);
    await a.press(KEYS.escape, "v");
    await a.waitFor("Review ST-");
    await a.press(KEYS.escape);
    await a.waitFor("Counting ST-");
    expect(a.store.getState().stocktake.typing).toBe(false);
    await a.press("6");
    await a.waitForStore((st) => st.screen.kind === "drawers");
    expect(a.store.getState().drafts["stocktake.count"] ?? "").toBe("");
    expect(a.store.getState().stocktake.count?.unknown).toEqual([]);
  });

  it("keeps an unknown code in its own list, and resolves it to an item later (a miss is typed over)", async () => {
    const a = await open();
    const wrench = await variation(a.client, "Adjustable Wrench", "10 in");
    await startCount(a);
    await a.press("0999999999994\r");
    await a.waitFor("Unknown code 0999999999994: kept in the unknown codes (u)");
    await a.waitFor("1 unknown code");
    await a.press(KEYS.escape, "u");
    await a.waitFor("Unknown codes: scanned or typed, matched nothing");
    await a.waitFor(/0999999999994\s+1/);
    await a.press(KEYS.enter);
    await a.waitFor("Which item is 0999999999994?");
    // A name the catalog does not have: the form stays on it, selected, and the SKU typed replaces it.
    await a.press("no such wrench", KEYS.enter);
    await a.waitFor("! Nothing in the catalog matches “no such wrench”.");
    await a.press(wrench.sku, KEYS.enter);
    await a.waitFor(`${wrench.label} (expected`);
    await a.press("7\r");
    await a.waitFor(`✓ ${wrench.label}: 7`);
    expect(countOf(a).unknown).toMatchObject([{ code: "0999999999994", resolvedTo: wrench.id }]);
  });
});

describe("review and commit", () => {
  it("orders by absolute variance value, lists uncounted items, commits with progress and exports", async () => {
    const a = await open();
    const hammer = await variation(a.client, "Claw Hammer", "13 oz");
    const drill = await variation(a.client, "Cordless Drill", "12V");
    const nuts = await variation(a.client, "Hex Nuts", "1/4 in");
    await setBooks(a.client, MAIN, [
      [hammer, 10],
      [drill, 5],
      [nuts, 200],
    ]);
    await startCount(a);
    await a.press(`${hammer.sku}\r`, "11\r"); // +1 × 18.99
    await a.waitFor(`✓ ${hammer.label}: 11`);
    await a.press(`${nuts.sku}\r`, "230\r"); // +30 × 0.15 = +4.50
    await a.waitFor(`✓ ${nuts.label}: 230`);
    await a.press(`${drill.sku}\r`, "4\r"); // -1 × 89.99
    await a.waitFor(`✓ ${drill.label}: 4`);

    await a.press(KEYS.escape, "v");
    await a.waitFor("Review ST-");
    const frame = a.frame();
    const at = (label: string) => frame.indexOf(label);
    expect(at(drill.label)).toBeGreaterThan(0);
    expect(at(drill.label)).toBeLessThan(at(hammer.label));
    expect(at(hammer.label)).toBeLessThan(at(nuts.label));
    expect(frame).toMatch(/over 31 \(23\.49 USD\) short 1 \(89\.99 USD\) net -66\.50 USD/);
    expect(frame).toContain("Each line carries the moment it was counted");
    // A full count's uncounted items: left untouched, or set to zero.
    expect(frame).toMatch(/357 items not counted: left untouched \(z changes\)/);
    await a.press(KEYS.escape, "v");
    await a.waitFor("Review ST-");
    await a.press("z");
    await a.waitFor("357 items not counted: set to zero");
    await a.waitFor(/360 lines/);
    // Thousands of units short: grouped as the money beside them is.
    expect(a.frame()).toMatch(/short \d{1,3}(,\d{3})+ \(\d{1,3}(,\d{3})+\.\d\d USD\)/);
    await a.press("z");
    await a.waitFor("357 items not counted: left untouched");

    // Any line is editable from the review.
    await a.press("g", KEYS.enter);
    await a.waitFor(`Count of ${drill.label}`);
    await a.press(CTRL_U, "5", KEYS.enter);
    await a.waitFor(/net 23\.49 USD/);
    expect(lineOf(a, drill.id)?.quantity).toBe("5");

    // Commit, with the progress on screen while requests are on their way.
    await a.service.raw("POST", "/_emulator/faults", {
      body: { operation: "BatchChangeInventory", status: 200, latency_ms: 400 },
    });
    const id = countOf(a).header.id;
    await a.press("c");
    await a.waitFor(`Commit 3 lines of ${id} at Main Street as physical counts?`);
    await a.press("y");
    await a.waitFor(/lines [█░]+ 0\/3/);
    await a.waitFor("1 in flight");
    await a.waitFor("✓ Committed 3 lines as physical counts.");
    await a.waitFor(/lines █+ 3\/3/);
    await a.service.raw("DELETE", "/_emulator/faults");
    const history = await physicalCountsOf(a.client, MAIN, id);
    expect(Object.fromEntries(history)).toEqual({ [hammer.id]: ["11"], [drill.id]: ["5"], [nuts.id]: ["230"] });
    const stock = await inStockAt(a.client, MAIN);
    expect([stock.get(hammer.id), stock.get(drill.id), stock.get(nuts.id)]).toEqual(["11", "5", "230"]);

    // Exports: the items and the summary.
    const items = join(dir ?? "", "items.csv");
    await a.press("e");
    await a.waitFor(`Export the items of ${id} as CSV`);
    await a.press(CTRL_U, items, KEYS.enter);
    await a.waitFor(`Wrote the items of ${id} to ${items}`);
    const csv = readFileSync(items, "utf8").split("\r\n");
    expect(csv[0]).toBe(
      "sku,upc,name,expected,counted,variance,unit price,variance value,counted at,counted by,currency,in scope",
    );
    expect(csv[1]).toMatch(new RegExp(`^${hammer.sku},${hammer.upc},"${hammer.label}",10,11,1,18\\.99,18\\.99,`));
    expect(csv).toHaveLength(3 + 357 + 2); // header, 3 counted, 357 untouched, trailing line break
    const summary = join(dir ?? "", "summary.csv");
    await a.press("E");
    await a.waitFor(`Export the summary of ${id} as CSV`);
    await a.press(CTRL_U, summary, KEYS.enter);
    await a.waitFor(`Wrote the summary of ${id}`);
    const [head, row] = readFileSync(summary, "utf8").split("\r\n");
    expect(head).toMatch(/^location,kind,scope,counted by,started,committed,lines/);
    expect(row).toMatch(
      /^Main Street,full,full count,[^,]+,\d{4}-\d\d-\d\d \d\d:\d\d,\d{4}-\d\d-\d\d \d\d:\d\d,3,357,31,0,23\.49,0\.00,23\.49,USD$/,
    );

    // The item's history: its counts and adjustments, newest first, this count's marked.
    await a.press(KEYS.escape);
    await a.waitFor("Stocktake at Main Street");
    await a.waitFor(id);
  });

  it("a count the review's editor cannot read stays selected: the number typed next replaces it", async () => {
    const a = await open();
    const hammer = await variation(a.client, "Claw Hammer", "13 oz");
    await setBooks(a.client, MAIN, [[hammer, 10]]);
    await startCount(a);
    await a.press(`${hammer.sku}\r`, "3\r");
    await a.waitFor(`✓ ${hammer.label}: 3`);
    await a.press(KEYS.escape, "v");
    await a.waitFor("Review ST-");
    await a.press("g", KEYS.enter);
    await a.waitFor(`Count of ${hammer.label}`);
    await a.press(CTRL_U, "4x", KEYS.enter);
    await a.waitFor("! “4x” is not a quantity");
    await a.press("4", KEYS.enter);
    await a.waitFor((f) => !f.includes(`Count of ${hammer.label}`));
    expect(lineOf(a, hammer.id)?.quantity).toBe("4");
  });

  it("an export to a folder that is not there takes the manager back to the path, selected: typing replaces it", async () => {
    const a = await open();
    await startCount(a);
    await a.press(KEYS.escape, "v");
    await a.waitFor("Review ST-");
    const id = countOf(a).header.id;
    await a.press("e");
    await a.waitFor(`Export the items of ${id} as CSV`);
    await a.press(CTRL_U, join(dir ?? "", "no-such-folder", "items.csv"), KEYS.enter);
    await a.waitFor("! The file was not written: its folder does not exist.");
    const items = join(dir ?? "", "items.csv");
    await a.press(items, KEYS.enter);
    await a.waitFor(`Wrote the items of ${id} to ${items}`);
  });

  it("sets a full count's uncounted items to zero when the manager chooses so", async () => {
    const a = await open();
    const hammer = await variation(a.client, "Claw Hammer", "20 oz");
    await startCount(a);
    await a.press(`${hammer.sku}\r`, "3\r");
    await a.waitFor(`✓ ${hammer.label}: 3`);
    await a.press(KEYS.escape, "v", "z");
    await a.waitFor("359 items not counted: set to zero");
    const id = countOf(a).header.id;
    await a.press("c");
    await a.waitFor(`Commit 360 lines of ${id} at Main Street as physical counts?`);
    const asked = a.store.getState().overlay;
    expect(asked.kind === "confirm" && asked.question.message).toContain("Uncounted items are set to zero.");
    await a.press("y");
    await a.waitFor("✓ Committed 360 lines as physical counts.", 20_000);
    const history = await physicalCountsOf(a.client, MAIN, id);
    expect(history.size).toBe(360);
    expect(history.get(hammer.id)).toEqual(["3"]);
    expect([...history.values()].filter((q) => q[0] === "0")).toHaveLength(359);
  });

  it("shows one item's counts and adjustments, newest first, in a manager's words", async () => {
    const a = await open();
    const hammer = await variation(a.client, "Claw Hammer", "13 oz");
    await startCount(a);
    await a.press(`${hammer.sku}\r`, "9\r");
    await a.waitFor(`✓ ${hammer.label}: 9`);
    // Two sold at the till: the service records IN_STOCK → SOLD.
    await sellAtTill(a, hammer.id, "2");
    await a.press(KEYS.escape, "h");
    await a.waitFor(`History of ${hammer.label}: counts and adjustments here, newest first`);
    await a.waitFor(/counted\s+\d+/);
    const frame = await a.waitFor(/sold\s+-2/);
    expect(frame).not.toContain("IN_STOCK");
    const changes = a.store.getState().stocktake.history?.changes ?? [];
    expect(changes.length).toBeGreaterThan(1);
    const times = changes.map((c) => c.physical_count?.occurred_at ?? c.adjustment?.occurred_at ?? "");
    expect([...times].sort().reverse()).toEqual(times);
    await a.press(KEYS.escape);
    await a.waitFor("Scan or type a code");
  });

  it("refreshes the books incrementally while counting and says when they last changed", async () => {
    const a = await open();
    const hammer = await variation(a.client, "Claw Hammer", "13 oz");
    await startCount(a);
    const before = countOf(a).header.expectedSyncedAt;
    // A sale at the till while the count is open.
    await sellAtTill(a, hammer.id, "1");
    const books = (await inStockAt(a.client, MAIN)).get(hammer.id);
    await a.press(KEYS.escape, "r");
    await a.waitForStore((s) => s.stocktake.count?.expected.get(hammer.id)?.quantity === books);
    const after = countOf(a).header.expectedSyncedAt ?? "";
    expect(after > (before ?? "")).toBe(true);
    const hhmm = new Intl.DateTimeFormat("en-GB", {
      timeZone: "America/New_York",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(new Date(after));
    await a.waitFor(`expected last changed ${hhmm}`);
  });
});

describe("resume", () => {
  it("offers the open count on start, and will not start another until it is resumed, committed or discarded", async () => {
    const service = await startService();
    const first = await open({ shared: service });
    const hammer = await variation(first.client, "Claw Hammer", "16 oz");
    await startCount(first);
    await first.press(`${hammer.sku}\r`, "4\r");
    await first.waitFor(`✓ ${hammer.label}: 4`);
    const id = countOf(first).header.id;
    // The terminal closes; the app starts again on the same store and journal.
    await first.close();
    apps = [];
    const again = await open({ shared: service });
    await again.waitFor(`Open count: ${id} (full count)`);
    await again.waitFor(/started .* by .+, 1 line\./);
    await again.press("n");
    await again.waitFor(`${id} is still open here: enter resumes it, c commits it, D discards it; then start another.`);
    expect(again.store.getState().stocktake.view.kind).toBe("home");
    await again.press("v");
    await again.waitFor("Resume the open count first (enter).");
    await again.press(KEYS.enter);
    await again.waitFor(`Resumed ${id}: 1 line counted so far.`);
    // What the home said of the closed count no longer holds: it goes from the status line.
    expect(again.frame()).not.toContain("Resume the open count first");
    await again.waitFor(/Claw Hammer, 16 oz\s+HT-\S+\s+4/);
    await again.press(`${hammer.sku}\r`, "+1\r");
    await again.waitFor(`✓ ${hammer.label}: 5`);
    await service.close();
  });

  it("finishes a commit that stopped halfway: accepted requests replay, nothing is counted twice", async () => {
    const service = await startService();
    const first = await open({ shared: service });
    const vs = await Promise.all([
      variation(first.client, "Claw Hammer", "13 oz"),
      variation(first.client, "Claw Hammer", "16 oz"),
      variation(first.client, "Claw Hammer", "20 oz"),
    ]);
    await startCount(first);
    for (const [i, v] of vs.entries()) {
      await first.press(`${v.sku}\r`, `${i + 20}\r`);
      await first.waitFor(`✓ ${v.label}: ${i + 20}`);
    }
    const id = countOf(first).header.id;
    await first.close();
    apps = [];
    // The commit was planned in requests of one line, the first sent and accepted, the second
    // sent (the service applied it) and then the terminal died.
    const journal = await openJournal(journalPath(dir ?? ""));
    const record = journal.load(id);
    if (!record) throw new Error("no record");
    let k = 0;
    const plan = planCommitBatches(
      record.lines.map((l) => ({ ...l })),
      { referenceId: id, locationId: MAIN, now: new Date(), newKey: () => `resume-${id}-${k++}`, size: 1 },
    );
    journal.requests.plan(id, plan, new Date().toISOString());
    for (const b of plan.slice(0, 2)) {
      journal.requests.markSent(id, b.seq, new Date().toISOString());
      await service.client.inventory.batchChangeInventory(b.body);
    }
    journal.requests.markAccepted(id, 0, [], new Date().toISOString());
    journal.close();

    const again = await open({ shared: service });
    await again.waitFor(`Unfinished commit: ${id} (full count) stopped at 1 of 3 requests.`);
    await again.press("c");
    await again.waitFor("its commit stopped halfway: c finishes it");
    await again.press("c");
    await again.waitFor(`Finish committing ${id}? Requests the service already accepted are not sent as new`);
    await again.press("y");
    await again.waitFor("✓ Committed 3 lines as physical counts.");
    const history = await physicalCountsOf(again.client, MAIN, id);
    expect(Object.fromEntries(history)).toEqual({
      [vs[0]?.id ?? ""]: ["20"],
      [vs[1]?.id ?? ""]: ["21"],
      [vs[2]?.id ?? ""]: ["22"],
    });
    await service.close();
  });
});

describe("starting a cycle count", () => {
  it("counts one category, a search or a list of SKUs, and discards an open count on request", async () => {
    const a = await open();
    const hammer = await variation(a.client, "Claw Hammer", "13 oz");
    await startCount(a, async () => {
      await a.press("j", KEYS.enter);
      await a.waitFor("Which category?");
      await a.waitFor("Hand Tools");
      const at = a.store.getState().stocktake.categories.findIndex((c) => c.name === "Hand Tools");
      await a.press(..."j".repeat(at), KEYS.enter);
    });
    await a.waitFor("cycle count: Hand Tools");
    const scope = countOf(a).scope;
    // Hand Tools: 19 items of 1–4 variations, each a tracked variation at Main Street.
    expect(scope.length).toBeGreaterThan(19);
    expect(scope.every((id) => countOf(a).items.get(id)?.sku.startsWith("HT-"))).toBe(true);
    await a.press(`${hammer.sku}\r`, "2\r");
    await a.waitFor(`✓ ${hammer.label}: 2`);
    await a.press(KEYS.escape, "v");
    await a.waitFor(`${scope.length - 1} items not counted: left untouched`);
    // Discard it: the location is free for another count.
    const id = countOf(a).header.id;
    await a.press("D");
    await a.waitFor(`Discard the count ${id}? Nothing of it has been committed.`);
    await a.press("y");
    await a.waitFor(`Discarded ${id}; it stays in the journal as discarded.`);
    await a.waitFor(/ST-\S+\s+cycle count: Hand Tools.*discarded/);

    await startCount(a, async () => {
      await a.press("j", "j", "j", KEYS.enter);
      await a.waitFor("Count a list of SKUs");
      await a.press(`${hammer.sku}, NOPE-1`, KEYS.enter);
    });
    await a.waitFor("Not in the catalog: NOPE-1.");
    expect(countOf(a).scope).toEqual([hammer.id]);
    await a.press(KEYS.escape, "D", "y");
    await a.waitFor("Discarded");

    await startCount(a, async () => {
      await a.press("j", "j", KEYS.enter);
      await a.waitFor("Count the items a search finds");
      await a.press("ball peen", KEYS.enter);
    });
    await a.waitFor("cycle count: “ball peen”");
    expect(countOf(a).scope.map((id) => countOf(a).items.get(id)?.name)).toEqual([
      "Ball Peen Hammer, 8 oz",
      "Ball Peen Hammer, 16 oz",
    ]);
  });
});
