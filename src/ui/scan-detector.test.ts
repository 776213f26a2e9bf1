import { describe, expect, it } from "vitest";
import {
  expireScan,
  feedScan,
  initialScan,
  isScanShape,
  MAX_SCAN_LENGTH,
  SCAN_GAP_MS,
  type ScanState,
} from "./scan-detector.js";

/** Feeds reads at the given times; returns every output and the final state. */
function feed(reads: [string, number][]) {
  let state: ScanState = initialScan;
  const out = [];
  for (const [text, at] of reads) {
    const r = feedScan(state, text, at);
    state = r.state;
    out.push(...r.out);
  }
  return { state, out };
}

describe("telling a scan from typing", () => {
  it("a code and Enter in one read is a scan", () => {
    expect(feed([["0712630000215\r", 0]]).out).toEqual([{ kind: "scan", code: "0712630000215" }]);
  });

  it("a code a character at a time at a scanner's pace, then Enter, is a scan", () => {
    const reads: [string, number][] = [..."ABC-123"].map((c, i) => [c, i * 2]);
    reads.push(["\r", 14]);
    expect(feed(reads).out).toEqual([{ kind: "scan", code: "ABC-123" }]);
  });

  it("a typist's keys, even a fast one's, are keys: one slow gap in the run breaks it", () => {
    // 120 words a minute is ~100 ms a key; one quick pair (rollover) does not make a scan.
    const reads: [string, number][] = [
      ["0", 0],
      ["7", 20],
      ["1", 120],
      ["2", 220],
      ["\r", 320],
    ];
    const { out } = feed(reads);
    expect(out.some((o) => o.kind === "scan")).toBe(false);
    expect(out.map((o) => (o.kind === "keys" ? o.text : "")).join("")).toBe("0712\r");
  });

  it("holds printable keys until the gap has passed, then lets them go in order", () => {
    const first = feedScan(initialScan, "jj", 0);
    expect(first.out).toEqual([]);
    expect(expireScan(first.state, SCAN_GAP_MS - 1).out).toEqual([]);
    expect(expireScan(first.state, SCAN_GAP_MS).out).toEqual([{ kind: "keys", text: "jj" }]);
  });

  it("a short run and Enter (3 characters) is keys; escape sequences and control keys pass at once", () => {
    expect(feed([["abc\r", 0]]).out).toEqual([{ kind: "keys", text: "abc\r" }]);
    expect(feedScan(initialScan, "\u001b[A\u0015", 0).out).toEqual([{ kind: "keys", text: "\u001b[A\u0015" }]);
    // Held keys go before a control key that follows them.
    expect(feed([["ab\u001b[B", 0]]).out).toEqual([{ kind: "keys", text: "ab\u001b[B" }]);
  });

  it("a run longer than any barcode is a paste, not a scan", () => {
    const long = "x".repeat(MAX_SCAN_LENGTH + 1);
    expect(feed([[`${long}\r`, 0]]).out).toEqual([{ kind: "keys", text: `${long}\r` }]);
    expect(isScanShape(`${long}\r`)).toBe(false);
    expect(isScanShape("0712630000215\r")).toBe(true);
    expect(isScanShape("0712630000215\r\n")).toBe(true);
    expect(isScanShape("line one\rline two\r")).toBe(false);
    expect(isScanShape("0712630000215")).toBe(false);
  });
});
