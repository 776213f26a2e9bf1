import { describe, expect, it } from "vitest";
import { readStatement } from "../domain/bank-statement.js";
import { reconcileStatement } from "../domain/payout-reconcile.js";
import type { Payout, PayoutEntry } from "../spec/generated/types.js";
import {
  detailSummary,
  initialPayoutsState,
  itemPayoutId,
  type PayoutsEvent,
  type PayoutsState,
  payoutsQueryKey,
  payoutsReducer,
  rangeTotals,
  reconcileItems,
  reconcileRows,
  statementRequest,
  visiblePayouts,
} from "./payouts-machine.js";

const TODAY = "2026-06-17";
const usd = (amount: number) => ({ amount, currency: "USD" as const });
const payout = (
  id: string,
  amount: number,
  status: NonNullable<Payout["status"]>,
  extra: Partial<Payout> = {},
): Payout => ({
  id,
  location_id: "L1",
  status,
  type: "BATCH",
  amount_money: usd(amount),
  created_at: "2026-06-10T07:00:00Z",
  arrival_date: "2026-06-11",
  ...extra,
});
const LIST = [
  payout("po_1", 10_000, "SENT", { end_to_end_id: "L20260616AAAA1111" }),
  payout("po_2", 2_550, "PAID"),
  payout("po_3", 700, "FAILED"),
  payout("po_4", 2_550, "PAID"),
];
const run = (events: PayoutsEvent[], from: PayoutsState = initialPayoutsState(TODAY)) =>
  events.reduce(payoutsReducer, from);
const loaded = () =>
  run([{ type: "payouts-read", key: payoutsQueryKey(initialPayoutsState(TODAY).filters, "L1"), payouts: LIST }]);

describe("the payouts machine: the list", () => {
  it("starts on the last 30 days, following today", () => {
    const s = initialPayoutsState(TODAY);
    expect(s.filters).toMatchObject({ from: "2026-05-19", to: TODAY, followToday: true });
    expect(run([{ type: "today", today: "2026-06-18" }], s).filters).toMatchObject({
      from: "2026-05-20",
      to: "2026-06-18",
    });
  });

  it("filters by status, cycling through sent, paid, failed and all", () => {
    let s = run([{ type: "set-status", status: "PAID" }], loaded());
    expect(s.permission).toBe("granted");
    expect(visiblePayouts(s).map((p) => p.id)).toEqual(["po_2", "po_4"]);
    s = run([{ type: "cycle-status" }], s);
    expect(s.filters.status).toBe("FAILED");
    expect(visiblePayouts(s).map((p) => p.id)).toEqual(["po_3"]);
    s = run([{ type: "cycle-status" }], s);
    expect(s.filters.status).toBeUndefined();
    expect(visiblePayouts(s)).toHaveLength(4);
  });

  it("finds by amount or reference with /, while the totals count the whole range", () => {
    const s = run([{ type: "set-query", query: "25.50" }], loaded());
    expect(visiblePayouts(s).map((p) => p.id)).toEqual(["po_2", "po_4"]);
    expect(visiblePayouts(run([{ type: "set-query", query: "aaaa1111" }], s)).map((p) => p.id)).toEqual(["po_1"]);
    expect(rangeTotals(s)).toMatchObject({
      paid: { count: 2, amount: 5_100 },
      inTransit: { count: 1, amount: 10_000 },
      failed: { count: 1, amount: 700 },
    });
  });

  it("takes a range from its form, says what is wrong with one, and notes dates before 2021", () => {
    let s = run([
      { type: "open-form", form: "range" },
      { type: "edit-form", patch: { from: "2026-06-10", to: "2026-06-01" } },
    ]);
    s = run([{ type: "submit-form", today: TODAY }], s);
    expect(s.form).toMatchObject({ kind: "range", problem: /starts \(2026-06-10\) after it ends/ });
    s = run(
      [
        { type: "edit-form", patch: { from: "2020-11-01", to: "2021-02-01" } },
        { type: "submit-form", today: TODAY },
      ],
      s,
    );
    expect(s.form.kind).toBe("none");
    expect(s.filters).toMatchObject({ from: "2021-01-01", to: "2021-02-01", followToday: false });
    expect(s.note).toMatch(/Square Dashboard/);
    // A range of its own stays put when the day changes.
    expect(run([{ type: "today", today: "2026-06-18" }], s).filters.from).toBe("2021-01-01");
  });

  it("a new location or all locations is another query; a location change closes the detail", () => {
    const s = run([{ type: "open-detail", id: "po_2" }], loaded());
    expect(payoutsQueryKey(s.filters, "all")).not.toBe(s.readFor);
    expect(payoutsQueryKey(s.filters, "L2")).not.toBe(s.readFor);
    const moved = run([{ type: "location-changed" }], s);
    expect(moved).toMatchObject({ view: "list", payouts: undefined, readFor: undefined, detail: undefined });
  });

  it("says the permission is missing rather than keeping rows it may no longer read", () => {
    expect(run([{ type: "permission-missing" }], loaded())).toMatchObject({
      permission: "missing",
      payouts: undefined,
    });
  });
});

describe("the payouts machine: one payout", () => {
  const entry = (id: string, type: PayoutEntry["type"], gross: number, fee: number): PayoutEntry => ({
    id,
    payout_id: "po_2",
    type: type as NonNullable<PayoutEntry["type"]>,
    gross_amount_money: usd(gross),
    fee_amount_money: usd(fee),
    net_amount_money: usd(gross - fee),
  });
  it("opens on the payout of the list, and checks the net only once every page is in", () => {
    let s = run([{ type: "open-detail", id: "po_2" }], loaded());
    expect(s).toMatchObject({ view: "detail", detailFrom: "list", detail: { payoutId: "po_2", complete: false } });
    const first = [entry("e1", "CHARGE", 2_000, 60)];
    s = run([{ type: "entries-read", payoutId: "po_2", entries: first, complete: false }], s);
    expect(detailSummary(s)).toMatchObject({ checked: false, problem: undefined });
    s = run(
      [{ type: "entries-read", payoutId: "po_2", entries: [...first, entry("e2", "CHARGE", 600, 0)], complete: true }],
      s,
    );
    expect(detailSummary(s)).toMatchObject({
      checked: true,
      problem: /add up to 25.40 USD, not the payout's 25.50 USD/,
    });
    // Entries of another payout, arriving late, are dropped.
    const late = run([{ type: "entries-read", payoutId: "po_9", entries: [], complete: true }], s);
    expect(late.detail?.entries).toHaveLength(2);
    expect(run([{ type: "back" }], s).view).toBe("list");
  });
});

describe("the payouts machine: the statement", () => {
  it("needs a file and a date format it can read", () => {
    let s = run([
      { type: "open-form", form: "statement" },
      { type: "submit-form", today: TODAY },
    ]);
    expect(s.form).toMatchObject({ kind: "statement", problem: "Give the statement's file.", problemField: "path" });
    s = run(
      [
        { type: "edit-form", patch: { path: "~/jan.csv", dateFormat: "QQ" } },
        { type: "submit-form", today: TODAY },
      ],
      s,
    );
    expect(s.form).toMatchObject({ problem: /has "Q"/, problemField: "dateFormat" });
    expect(statementRequest(s)).toEqual({ ok: false });
    s = run([{ type: "edit-form", patch: { dateFormat: "DD/MM/YYYY" } }], s);
    expect(s.form).toMatchObject({ problem: undefined, problemField: undefined });
    expect(statementRequest(s)).toMatchObject({ ok: true, path: "~/jan.csv", dateFormat: "DD/MM/YYYY" });
  });

  it("opens again with the columns it was read with, on the one whose naming would make it usable", () => {
    const unusable = (option?: "amountColumn") => ({
      type: "statement-unusable" as const,
      path: "/tmp/odd.csv",
      problem: "No column is headed …",
      problems: [],
      retry: option ? ("columns" as const) : ("file" as const),
      ...(option ? { option } : {}),
    });
    let s = run([
      { type: "open-form", form: "statement" },
      { type: "edit-form", patch: { path: "/tmp/odd.csv", dateColumn: "When", amountColumn: "Betrag" } },
      { type: "statement-reading", path: "/tmp/odd.csv" },
      unusable("amountColumn"),
      { type: "open-form", form: "statement" },
    ]);
    expect(s.form).toMatchObject({ path: "/tmp/odd.csv", dateColumn: "When", amountColumn: "Betrag" });
    expect(s.form).toMatchObject({ startAt: "amountColumn" });
    // A file that cannot be used at all: the form opens on the file, as ever.
    s = run(
      [{ type: "statement-reading", path: "/tmp/odd.csv" }, unusable(), { type: "open-form", form: "statement" }],
      s,
    );
    expect(s.form).toMatchObject({ dateColumn: "When", amountColumn: "Betrag" });
    expect(s.form).not.toHaveProperty("startAt");
  });

  it("lists problem lines first, each with its candidates, and selects the first", () => {
    const csv = "Date,Description,Amount\n2026-06-11,SQUARE,25.50\n2026-06-11,SQUARE,100.00\n2026-06-12,RENT,-900.00\n";
    const read = readStatement(csv, { currency: "USD" });
    if (!read.ok) throw new Error(read.problem);
    const result = reconcileStatement(read.lines, LIST);
    const s = run([
      { type: "statement-reading", path: "/tmp/s.csv" },
      {
        type: "statement-reconciled",
        path: "/tmp/s.csv",
        lines: read.lines,
        skipped: [],
        columns: read.columns,
        dateFormat: read.dateFormat,
        notes: [],
        result,
        payouts: new Map(LIST.map((p) => [p.id, p])),
      },
    ]);
    expect(s.view).toBe("reconcile");
    const rows = reconcileRows(s.statement);
    expect(rows.map((r) => [r.line, r.kind, r.candidates])).toEqual([
      [2, "ambiguous", ["po_2", "po_4"]],
      [4, "unmatched", []],
      [3, "matched", ["po_1"]],
    ]);
    expect(reconcileItems(s.statement).map((i) => i.id)).toEqual([
      "line:2",
      "line:2:po_2",
      "line:2:po_4",
      "line:4",
      "heading:failed",
      "failed:po_3",
      "heading:matched",
      "line:3",
    ]);
    expect(reconcileItems(s.statement).map(itemPayoutId)).toEqual([
      "po_2",
      "po_2",
      "po_4",
      undefined,
      undefined,
      "po_3",
      undefined,
      "po_1",
    ]);
    // A payout opened from the reconciliation goes back to it.
    const opened = run([{ type: "open-detail", id: "po_4" }], s);
    expect(opened).toMatchObject({ view: "detail", detailFrom: "reconcile", detail: { payout: { id: "po_4" } } });
    expect(run([{ type: "back" }], opened).view).toBe("reconcile");
    const reopened = run([{ type: "open-form", form: "statement" }], s);
    expect(reopened.form).toMatchObject({ kind: "statement", path: "/tmp/s.csv" });
  });
});
