import { describe, expect, it } from "vitest";
import { countRecord, stockItem } from "../../test/stocktake-helpers.js";
import { parseQuantity } from "../domain/quantity.js";
import type { CountHeader } from "../local/stocktake-journal.js";
import { type EntryContext, interpretEntry, lineOf, scanEntry } from "./stocktake-entry.js";
import { loadedCountOf } from "./stocktake-machine.js";

const units = (q: string) => parseQuantity(q) ?? Number.NaN;

const HAMMER = stockItem(1, { name: "Claw Hammer" });
const ROPE = stockItem(2, { name: "Rope by the foot", precision: 2 });

function context(extra: Partial<EntryContext> = {}, head: Partial<CountHeader> = {}): EntryContext {
  const record = countRecord(head, [HAMMER, ROPE]);
  record.lines = [{ variationId: "V1", quantity: "4", countedAt: "2026-03-02T15:01:00.000Z", countedBy: "TM1" }];
  return { count: loadedCountOf(record), prompt: { kind: "code" }, feedback: undefined, ...extra };
}

const asking = (variationId: string) => context({ prompt: { kind: "quantity", variationId } });
const afterCounting = (variationId: string) =>
  context({ feedback: { kind: "counted", variationId, quantity: "4", added: false } });

describe("interpretEntry: the readings of one entry", () => {
  it("1 · a quantity for the item just scanned: 12 sets it, +3 adds, -1 takes one back, =2 replaces", () => {
    expect(interpretEntry("12", asking("V2"))).toEqual({
      kind: "quantity",
      item: ROPE,
      entry: { kind: "set", units: units("12") },
    });
    // The hammer has 4 counted already: a bare 12 asks whether it adds or replaces.
    expect(interpretEntry("12", asking("V1"))).toEqual({
      kind: "add-or-replace",
      item: HAMMER,
      units: units("12"),
      current: "4",
    });
    expect(interpretEntry("=2", asking("V1"))).toMatchObject({
      kind: "quantity",
      entry: { kind: "set", units: units("2"), said: true },
    });
    expect(interpretEntry(" +3 ", asking("V1"))).toMatchObject({
      kind: "quantity",
      entry: { kind: "add", units: units("3") },
    });
    expect(interpretEntry("-1", asking("V1"))).toMatchObject({
      kind: "quantity",
      entry: { kind: "add", units: -units("1") },
    });
    expect(interpretEntry("2.25", asking("V2"))).toMatchObject({ kind: "quantity", item: ROPE });
  });

  it("2 · a quantity that is not one says why, for the item it was meant for", () => {
    expect(interpretEntry("2,5", asking("V2"))).toEqual({
      kind: "bad-quantity",
      item: ROPE,
      problem: "Use a point for decimals: 2.5.",
    });
    expect(interpretEntry("1.5", asking("V1"))).toMatchObject({ kind: "bad-quantity", item: HAMMER });
    expect(interpretEntry("+x", afterCounting("V1"))).toMatchObject({ kind: "bad-quantity", item: HAMMER });
  });

  it("3 · a code the count knows is a scan, by SKU (any case) or UPC (also as a 13-digit EAN)", () => {
    expect(interpretEntry("SKU-1", context())).toEqual({ kind: "scan", item: HAMMER, counts: undefined });
    expect(interpretEntry("sku-2", context())).toMatchObject({ kind: "scan", item: ROPE });
    expect(interpretEntry("0071263000021", context())).toMatchObject({ kind: "scan", item: HAMMER });
    // A scan where a quantity was asked: the next item, its quantity left out.
    expect(interpretEntry("071263000022", asking("V1"))).toMatchObject({ kind: "scan", item: ROPE });
    // In scan = 1 unit mode the scan counts one at once.
    expect(interpretEntry("SKU-1", context({}, { scanOne: true }))).toEqual({
      kind: "scan",
      item: HAMMER,
      counts: { kind: "add", units: units("1") },
    });
  });

  it("4 · +N right after a count adds to the item just counted (the same item on another shelf)", () => {
    expect(interpretEntry("+2", afterCounting("V1"))).toEqual({
      kind: "add-to-last",
      item: HAMMER,
      entry: { kind: "add", units: units("2"), said: true },
    });
    // With nothing counted just before, +2 adds to nothing: said, not looked up as a code.
    expect(interpretEntry("+2", context())).toEqual({
      kind: "nothing-to-add",
      problem: "+2 adds to the item just counted, and none is: scan or type the item first.",
    });
  });

  it("5 · a code the count does not know is asked of the service, then kept as unknown", () => {
    expect(interpretEntry("0999999999999", context())).toEqual({ kind: "unknown-code", code: "0999999999999" });
    expect(interpretEntry("HT-9999-1", context())).toEqual({ kind: "unknown-code", code: "HT-9999-1" });
  });

  it("6 · words are asked of the service as a code, then searched by name", () => {
    expect(interpretEntry("claw hammer", context())).toEqual({ kind: "words", text: "claw hammer" });
    expect(interpretEntry("  rope ", asking("V1"))).toEqual({ kind: "words", text: "rope" });
  });

  it("7 · a count being committed takes no more lines", () => {
    expect(interpretEntry("SKU-1", context({}, { status: "committing" }))).toEqual({
      kind: "closed",
      problem: "This count is being committed; its lines can no longer change.",
    });
  });

  it("a blank line is nothing, and nothing is counted without an open count", () => {
    expect(interpretEntry("   ", context())).toEqual({ kind: "nothing" });
    expect(interpretEntry("SKU-1", { count: undefined, prompt: { kind: "code" }, feedback: undefined })).toEqual({
      kind: "no-count",
      text: "SKU-1",
    });
  });

  it("a scan is always a code: never the quantity asked, never +N", () => {
    // Typed, 12 answers the quantity asked; scanned (a short code), it is looked up.
    expect(interpretEntry("12", asking("V1"), "scan")).toEqual({ kind: "unknown-code", code: "12" });
    expect(interpretEntry("071263000022", asking("V1"), "scan")).toMatchObject({ kind: "scan", item: ROPE });
    expect(interpretEntry("+2", afterCounting("V1"), "scan")).toEqual({ kind: "unknown-code", code: "+2" });
  });
});

describe("lineOf and scanEntry", () => {
  it("makes the line's new total with when, who and the books' quantity, or says why not", () => {
    const ctx = context();
    expect(lineOf(ctx, HAMMER, { kind: "add", units: units("3") }, "2026-03-02T15:05:00.000Z")).toEqual({
      ok: true,
      value: {
        variationId: "V1",
        quantity: "7",
        countedAt: "2026-03-02T15:05:00.000Z",
        countedBy: "TM1",
        expected: "10",
      },
    });
    expect(lineOf(ctx, ROPE, { kind: "set", units: units("2.5") }, "t")).toMatchObject({
      ok: true,
      value: { quantity: "2.5", expected: "0" },
    });
    expect(lineOf(ctx, HAMMER, { kind: "add", units: -units("5") }, "t")).toEqual({
      ok: false,
      problem: "Claw Hammer: That would leave -1; a count cannot go below zero (4 so far).",
    });
  });

  it("a scan adds one unit only in scan = 1 unit mode", () => {
    expect(scanEntry(context())).toBeUndefined();
    expect(scanEntry(context({}, { scanOne: true }))).toEqual({ kind: "add", units: units("1") });
  });
});
