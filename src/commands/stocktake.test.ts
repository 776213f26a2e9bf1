import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { journalPath, openJournal } from "../local/stocktake-journal.js";
import { createService, type LocalService } from "../service/index.js";
import { DEMO } from "../service/seed/demo-ids.js";
import { createClient, type SquareClient } from "../square/index.js";
import {
  EXIT_REFUSED,
  runStocktakeExport,
  runStocktakeList,
  runStocktakeResume,
  type StocktakeDeps,
} from "./stocktake.js";
import { runStocktakeImport } from "./stocktake-import.js";
import type { Target } from "./target.js";

let home: string;
let svc: LocalService;
let client: SquareClient;
let deps: StocktakeDeps;
let env: Record<string, string>;

beforeAll(async () => {
  svc = createService({});
  const url = await svc.listen(0, "127.0.0.1");
  client = createClient({ baseUrl: url, accessToken: svc.accessToken, maxRetries: 0 });
});
afterAll(async () => {
  await client.close();
  await svc.close();
});
beforeEach(() => {
  svc.reset();
  home = mkdtempSync(join(tmpdir(), "backroom-stocktake-cmd-"));
  env = { HOME: home, XDG_CONFIG_HOME: join(home, "config"), XDG_DATA_HOME: join(home, "data") };
  deps = {
    // The commands run on the test's service, as they would on the demo store.
    open: async (target: Target) => ({ client, target, close: async () => {} }),
  };
  return () => rmSync(home, { recursive: true, force: true });
});

function io() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const text = (s: PassThrough) => () => String(s.read() ?? "");
  return { io: { stdout, stderr, stdin: new PassThrough(), env }, out: text(stdout), err: text(stderr) };
}

/** Three variations of the demo catalog at Main Street: SKU, UPC, price. */
async function someVariations() {
  const objects = await client.catalog.searchCatalogObjects({ object_types: ["ITEM_VARIATION"], limit: 5 });
  return (objects.objects ?? []).map((o) => ({
    id: o.id,
    sku: o.item_variation_data?.sku ?? "",
    upc: o.item_variation_data?.upc ?? "",
  }));
}

function file(name: string, text: string): string {
  const path = join(home, name);
  writeFileSync(path, text);
  return path;
}

describe("backroom stocktake import", () => {
  it("lists bad rows by line number, imports the rest, and says so in its exit code", async () => {
    const [a, b, c] = await someVariations();
    const path = file(
      "count.csv",
      `sku,quantity,note\n${a?.sku},12,top shelf\n${b?.sku},2.5,\nNOPE-1,4,\n${a?.sku},+3,back room\n${c?.sku},,\n${c?.sku},-1,\n${a?.sku},=2,recount\n`,
    );
    const t = io();
    const code = await runStocktakeImport([path, "--location", "main street"], t.io, deps);
    const err = t.err();
    expect(code).toBe(EXIT_REFUSED);
    expect(err).toContain("count.csv line 3: ");
    expect(err).toMatch(/line 3: .*whole units/);
    expect(err).toContain('count.csv line 4: unknown SKU "NOPE-1"');
    expect(err).toContain(`count.csv line 6: no quantity for ${c?.sku}`);
    expect(err).toMatch(/line 7: .*below zero/);
    // Rows always add up: a replace in a file is refused, and the item keeps its sum.
    expect(err).toContain(
      `count.csv line 8: ${a?.sku}: =2 replaces, and a file's rows add up: write the quantity without =`,
    );
    expect(err).toMatch(/Not committed\. `backroom stocktake resume --location "main street" --commit`/);
    const out = t.out();
    expect(out).toMatch(/^Count ST-\d{8}-[A-Z2-9]{6} at Main Street \(cycle count: count\.csv\)/);
    expect(out).toContain("1 line · ");

    const journal = await openJournal(journalPath(join(home, "data", "backroom")));
    const open = journal.openCountAt(DEMO.merchantId, DEMO.mainLocationId);
    const record = open && journal.load(open.id);
    expect(record?.lines.map((l) => [l.variationId, l.quantity])).toEqual([[a?.id, "15"]]);
    expect(record?.unknown.map((u) => u.code)).toEqual(["NOPE-1"]);
    journal.close();

    // A second file for the same location waits for the open count.
    const again = io();
    expect(await runStocktakeImport([path, "--location", "Main Street"], again.io, deps)).toBe(1);
    expect(again.err()).toMatch(/a count is already open at Main Street \(ST-/);
  });

  it("prints exactly the lines as JSON with --json, reads UPCs (also as EAN-13), and commits with --commit", async () => {
    const [a, b] = await someVariations();
    const path = file("upc.csv", `UPC,Quantity\n${a?.upc},7\n0${b?.upc},3\n`);
    const t = io();
    const code = await runStocktakeImport([path, "-l", DEMO.mainLocationId, "--commit", "--json"], t.io, deps);
    expect(code).toBe(0);
    const lines = JSON.parse(t.out());
    expect(lines.map((l: any) => [l.variation_id, l.counted]).sort()).toEqual(
      [
        [a?.id, "7"],
        [b?.id, "3"],
      ].sort(),
    );
    expect(Object.keys(lines[0]).sort()).toEqual(
      [
        "counted",
        "counted_at",
        "counted_by",
        "currency",
        "expected",
        "name",
        "sku",
        "unit_price",
        "upc",
        "variance",
        "variance_value",
        "variation_id",
      ].sort(),
    );
    expect(t.err()).toMatch(/Committed 2 lines of ST-/);
    const counts = await client.inventory
      .batchRetrieveInventoryCounts({
        catalog_object_ids: [a?.id ?? "", b?.id ?? ""],
        location_ids: [DEMO.mainLocationId],
        states: ["IN_STOCK"],
      })
      .all();
    expect(new Map(counts.map((c) => [c.catalog_object_id, c.quantity]))).toEqual(
      new Map([
        [a?.id, "7"],
        [b?.id, "3"],
      ]),
    );
  });

  it("refuses what it cannot use before touching anything", async () => {
    const t = io();
    expect(await runStocktakeImport([join(home, "missing.csv"), "--location", "Main Street"], t.io, deps)).toBe(2);
    expect(t.err()).toMatch(/cannot read .*missing\.csv: there is no such file/);
    const folder = io();
    expect(await runStocktakeImport([home, "--location", "Main Street"], folder.io, deps)).toBe(2);
    expect(folder.err()).toContain(`cannot read ${home}: it is a folder, not a file`);
    const u = io();
    expect(await runStocktakeImport([file("x.csv", "a,b\n1,2\n")], u.io, deps)).toBe(2);
    expect(u.err()).toMatch(/--location is required/);
    const v = io();
    expect(await runStocktakeImport([file("y.csv", "code,qty\nA,1\n"), "--location", "Main Street"], v.io, deps)).toBe(
      2,
    );
    expect(v.err()).toMatch(/sku \(or upc\) and quantity/);
    const w = io();
    expect(await runStocktakeImport([file("z.csv", "sku,quantity\nX,1\n"), "--location", "Moon"], w.io, deps)).toBe(2);
    expect(w.err()).toMatch(/no location "Moon"; there are: Main Street, Harbour Dock/);
  });

  it("refuses a file larger than any count by its size, before reading it, and journals nothing", async () => {
    // A sparse 45 MB file of NULs: before, it was read whole and called "not a text file".
    const huge = file("export.csv", "");
    truncateSync(huge, 45 * 1024 * 1024);
    const t = io();
    expect(await runStocktakeImport([huge, "--location", "Main Street"], t.io, deps)).toBe(2);
    expect(t.err()).toBe(
      `backroom stocktake import: ${huge} is 45 MB; a count file may be up to 30 MB (300,000 rows). Check that this is the count file; nothing was imported.\n`,
    );
    const journal = await openJournal(journalPath(join(home, "data", "backroom")));
    expect(journal.list()).toEqual([]);
    journal.close();
  });
});

describe("backroom stocktake resume, list and export", () => {
  it("shows the open count, commits it, lists it and exports it", async () => {
    const [a, b] = await someVariations();
    const path = file("count.csv", `sku,quantity\n${a?.sku},1\n${b?.sku},40\n`);
    await runStocktakeImport([path, "--location", "Main Street"], io().io, deps);

    const shown = io();
    expect(await runStocktakeResume(["--location", "Main Street"], shown.io, deps)).toBe(0);
    expect(shown.out()).toMatch(/Count (ST-\S+) at Main Street .*: open\./);
    expect(shown.err()).toMatch(/Not committed/);

    const listed = io();
    expect(await runStocktakeList(["--json"], listed.io, deps)).toBe(0);
    const [row] = JSON.parse(listed.out());
    expect(row).toMatchObject({ location: "Main Street", status: "open", kind: "cycle", lines: 2, requests: 0 });

    const done = io();
    expect(await runStocktakeResume(["--location", "Main Street", "--commit"], done.io, deps)).toBe(0);
    expect(done.err()).toMatch(/Committed 2 lines/);
    const none = io();
    expect(await runStocktakeResume(["--location", "Main Street"], none.io, deps)).toBe(1);
    expect(none.err()).toMatch(/there is no open count at Main Street/);

    const text = io();
    await runStocktakeList([], text.io, deps);
    expect(text.out()).toMatch(new RegExp(`${row.id}  Main Street  cycle count: count\\.csv .* 2 lines  committed `));

    const items = io();
    expect(await runStocktakeExport([row.id], items.io, deps)).toBe(0);
    const csv = items.out().split("\r\n");
    expect(csv[0]).toBe(
      "sku,upc,name,expected,counted,variance,unit price,variance value,counted at,counted by,currency,in scope",
    );
    expect(csv.filter((l) => l !== "")).toHaveLength(3);
    const out = join(home, "summary.csv");
    const summary = io();
    expect(await runStocktakeExport([row.id, "--summary", "--out", out], summary.io, deps)).toBe(0);
    const [head, line] = readFileSync(out, "utf8").split("\r\n");
    expect(head).toMatch(/^location,kind,scope,counted by,started,committed,lines/);
    expect(line).toMatch(
      /^Main Street,cycle,cycle count: count\.csv,,\d{4}-\d\d-\d\d \d\d:\d\d,\d{4}-\d\d-\d\d \d\d:\d\d,2,0,/,
    );
    const missing = io();
    expect(await runStocktakeExport(["ST-NOPE"], missing.io, deps)).toBe(2);
    expect(missing.err()).toMatch(/there is no count "ST-NOPE"/);
  });
});
