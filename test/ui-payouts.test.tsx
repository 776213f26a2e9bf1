// The payouts screen as a manager uses it, driven by keys against the local service's demo data.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import stringWidth from "string-width";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { localDayWindow } from "../src/domain/cash-drawers.js";
import { formatMoney } from "../src/domain/money.js";
import { entryFee, formatRate, keptWords } from "../src/domain/payouts.js";
import { savePayoutEntries, savePayouts } from "../src/service/payouts/repo.js";
import { DEMO } from "../src/service/seed/demo-ids.js";
import type { Payout } from "../src/spec/generated/types.js";
import { type DrivenApp, KEYS, startApp } from "./helpers/app.js";
import { clientWithScopes, pinnedClock, startService, type TestService } from "./helpers/service.js";

const NOW = Date.parse("2026-06-17T16:00:00.000Z");
const FROM = "2026-05-19";
const TO = "2026-06-17";
const usd = (amount: number) => ({ amount, currency: "USD" as const });
const dir = mkdtempSync(join(tmpdir(), "backroom-payouts-ui-"));

let service: TestService;
let app: DrivenApp | undefined;
/** The main location's payouts of the default range, newest first, as the service lists them. */
let range: Payout[];

beforeAll(async () => {
  service = await startService({ clock: pinnedClock(NOW) });
  const db = service.service.db;
  const payout = (id: string, amount: number, extra: Partial<Payout> = {}) => ({
    id,
    status: "PAID" as const,
    location_id: DEMO.mainLocationId,
    created_at: "2026-06-09T09:00:00.000Z",
    amount_money: usd(amount),
    arrival_date: "2026-06-10",
    type: "BATCH" as const,
    destination: { type: "BANK_ACCOUNT" as const, id: "bact:TESTS0001" },
    ...extra,
  });
  // Two payouts of one amount on one day (a line of that amount is ambiguous), and one whose
  // entries fall short of it by 1.00.
  savePayouts(db, DEMO.merchantId, [
    payout("po_twin_a", 12_345, { end_to_end_id: "LTWINAAAA0001" }),
    payout("po_twin_b", 12_345, { end_to_end_id: "LTWINBBBB0002" }),
    payout("po_short", 5_000, { end_to_end_id: "LSHORTCCC0003", created_at: "2026-06-08T09:00:00.000Z" }),
  ]);
  const entry = (id: string, payoutId: string, gross: number, fee: number) => ({
    id,
    payout_id: payoutId,
    effective_at: "2026-06-08T15:00:00.000Z",
    type: "CHARGE" as const,
    gross_amount_money: usd(gross),
    fee_amount_money: usd(fee),
    net_amount_money: usd(gross - fee),
    type_charge_details: { payment_id: `pay_${id}` },
  });
  savePayoutEntries(db, [
    entry("poe_twin_a", "po_twin_a", 12_700, 355),
    entry("poe_twin_b", "po_twin_b", 12_700, 355),
    entry("poe_short", "po_short", 4_000, 100),
  ]);
  const { begin, end } = localDayWindow(FROM, TO, DEMO.mainTimezone);
  range = await service.client.payouts
    .listPayouts({ location_id: DEMO.mainLocationId, begin_time: begin, end_time: end })
    .all();
}, 30_000);
afterAll(async () => {
  await service?.close();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function open(columns = 80, rows = 24, accessToken?: string): Promise<DrivenApp> {
  app = await startApp({
    shared: service,
    columns,
    rows,
    store: { clock: { now: () => new Date(NOW) }, dataDir: dir },
    ...(accessToken ? { accessToken } : {}),
  });
  await app.waitFor("1 Time clock");
  await app.press("7");
  return app;
}

const sum = (ps: readonly Payout[]) => ps.reduce((n, p) => n + (p.amount_money?.amount ?? 0), 0);
/** The list's rows in a frame: the lines that start with a date, under the cursor mark or not. */
const payoutRows = (frame: string) => frame.split("\n").filter((l) => /^[› ] \d{4}-\d\d-\d\d /.test(l));
/** The frame's text with its line breaks as spaces: a sentence that wraps reads whole. */
const oneLine = (frame: string) => frame.replace(/\s+/g, " ");
const fits = (frame: string, width: number) => frame.split("\n").every((l) => stringWidth(l) <= width);

describe("the payouts list", () => {
  it("shows the last 30 days newest first, with the range's totals paid, in transit and failed", async () => {
    const a = await open();
    const frame = await a.waitFor("Paid ", 15_000);
    expect(frame).toContain(`Main Street · payouts created ${FROM} → ${TO} · all statuses`);
    expect(frame).toContain(`1–15 of ${range.length}`);
    const paid = range.filter((p) => p.status === "PAID");
    const sent = range.filter((p) => p.status === "SENT");
    const failed = range.filter((p) => p.status === "FAILED");
    expect(frame).toContain(`Paid ${paid.length} · ${formatMoney(usd(sum(paid)))}`);
    expect(frame).toContain(`in transit ${sent.length} · ${formatMoney(usd(sum(sent)))}`);
    expect(frame).toContain(`failed ${failed.length} · ${formatMoney(usd(sum(failed)))}`);
    // The newest first: arrival date, status in words, amount, destination masked, the reference.
    const first = range[0] as Payout;
    const bank = (first.destination?.id ?? "").slice(-4).toUpperCase();
    expect(bank).toMatch(/^[A-Z0-9]{4}$/);
    expect(frame).toMatch(
      new RegExp(`› ${first.arrival_date}\\s+\\S+\\s+sent\\s+[\\d,.]+\\s+bank ••${bank}\\s+${first.end_to_end_id}`),
    );
  });

  it("filters by status (s) and finds a payout by amount or reference (/)", async () => {
    const a = await open();
    await a.waitFor("Paid ", 15_000);
    await a.press("s");
    let frame = await a.waitFor("· sent");
    expect(frame).not.toMatch(/ paid /);
    await a.press("s", "s");
    frame = await a.waitFor("· failed");
    const rows = payoutRows(frame);
    expect(rows).toHaveLength(range.filter((p) => p.status === "FAILED").length);
    expect(rows.every((l) => l.includes(" failed "))).toBe(true);
    await a.press("s");
    await a.waitFor("· all statuses");
    const target = range.find((p) => p.status === "PAID" && !p.id.startsWith("po_")) ?? (range[5] as Payout);
    const amount = formatMoney(target.amount_money).replace(" USD", "");
    await a.press("/");
    await a.waitFor("amount or reference");
    await a.press(`$${amount}`);
    frame = await a.waitFor((f) => payoutRows(f).length === 1);
    expect(payoutRows(frame)[0]).toContain(target.end_to_end_id ?? "");
    await a.press(KEYS.enter, KEYS.escape);
    await a.waitFor(`of ${range.length}`);
    await a.press("/", "twin");
    frame = await a.waitFor((f) => payoutRows(f).length === 2);
    expect(frame).toContain("LTWINAAAA0001");
    await a.press(KEYS.escape, KEYS.escape, "/", "nothing-like-this");
    await a.waitFor('matches "nothing-like-this"');
  });
});

describe("the range and the locations", () => {
  it("d takes a range, says what is wrong with one, and is not an error before January 2021", async () => {
    const a = await open();
    await a.waitFor("Paid ", 15_000);
    await a.press("d");
    await a.waitFor("Payouts created on which days?");
    const clear = KEYS.backspace.repeat(10);
    await a.press(clear, "2026-06-10", KEYS.tab, clear, "2026-06-01", KEYS.enter);
    await a.waitFor("starts (2026-06-10) after it ends (2026-06-01)");
    await a.press(KEYS.shiftTab, clear, "2020-11-01", KEYS.tab, clear, "2020-12-31", KEYS.enter);
    const frame = await a.waitFor(
      "payouts created 2021-01-01 → 2020-12-31".replace("2021-01-01 → 2020-12-31", "2020-11-01 → 2020-12-31"),
    );
    expect(oneLine(frame)).toContain(
      "Payouts before 2021-01-01 are not kept by the service; the Square Dashboard has them.",
    );
    expect(frame).toContain("No payouts created 2020-11-01 → 2020-12-31.");
    expect(a.store.getState().status.kind).not.toBe("error");
  });

  it("d: a bad from date refused from the To field takes the manager back to From, typing replaces it", async () => {
    const a = await open();
    await a.waitFor("Paid ", 15_000);
    await a.press("d");
    await a.waitFor("Payouts created on which days?");
    const clear = KEYS.backspace.repeat(10);
    await a.press(clear, "2026-06-0", KEYS.tab, clear, "2026-06-10", KEYS.enter);
    await a.waitFor('The from date "2026-06-0" is not a date; write it as YYYY-MM-DD.');
    await a.waitFor(/› From: +2026-06-0 /);
    await a.press("2026-06-01", KEYS.enter);
    await a.waitFor("payouts created 2026-06-01 → 2026-06-10");
  });

  it("All locations in the location picker lists every location's payouts, with a location column", async () => {
    const a = await open(100, 30);
    await a.waitFor("Paid ", 15_000);
    // The palette finds the picker by its words; `a` is no longer this screen's own toggle.
    await a.press(":");
    await a.waitFor(/\d+ of \d+ · ↑\/↓ scroll/);
    await a.press("all loc");
    await a.waitFor(/› L\s+pick location, or All locations/);
    expect(a.frame()).not.toMatch(/\ba\s+all locations/);
    await a.press(KEYS.enter);
    await a.waitFor("All locations every store together");
    await a.press(KEYS.enter);
    const frame = await a.waitFor("Harbour Dock", 15_000);
    expect(frame).toContain("All locations · payouts");
    expect(frame).toMatch(/Location\s+Arrives/);
    expect(frame).toMatch(/Main Street\s+2026-06-18/);
    // One location again, from the same picker: its payouts only, no location column.
    await a.press("L");
    await a.waitFor("Main Street");
    await a.press("j", KEYS.enter);
    const one = await a.waitFor((f) => f.includes("Main Street · payouts") && !/Location\s+Arrives/.test(f), 15_000);
    expect(one).not.toContain("Harbour Dock");
  });
});

describe("one payout", () => {
  it("shows its entries grouped by type, the fee total, and that they add up", async () => {
    const a = await open();
    await a.waitFor("Paid ", 15_000);
    const p = range[2] as Payout;
    await a.press("j", "j", KEYS.enter);
    let frame = await a.waitFor(/✓ The entries add up to the payout/, 15_000);
    const entries = await service.client.payouts.listPayoutEntries(p.id).all();
    const charges = entries.filter((e) => e.type === "CHARGE");
    expect(frame).toContain(`Payout ${formatMoney(p.amount_money)}`);
    expect(frame).toMatch(new RegExp(`charges\\s+${charges.length}\\s`));
    expect(oneLine(frame)).toContain(keptWords(entries, "USD"));
    expect(frame).toMatch(/payment \w+/);
    await a.press(KEYS.escape);
    frame = await a.waitFor("Paid ");
    expect(frame).toContain("› ");
  });

  it("says so when the entries do not add up to the payout", async () => {
    const a = await open();
    await a.waitFor("Paid ", 15_000);
    await a.press("/", "lshort", KEYS.enter, KEYS.enter);
    const frame = await a.waitFor((f) =>
      oneLine(f).includes("≠ The entries add up to 39.00 USD, not the payout's 50.00 USD (11.00 USD unexplained)."),
    );
    expect(frame).toContain("bank account ••0001");
  });
});

describe("fees over time", () => {
  it("draws weekly fees as bars and a table, with the effective rate", async () => {
    const a = await open();
    await a.waitFor("Paid ", 15_000);
    await a.press("f");
    const frame = await a.waitFor(/Fees [\d,.]+ USD on charges of/, 20_000);
    let fees = 0;
    let gross = 0;
    for (const p of range.filter((x) => x.status !== "FAILED")) {
      for (const e of await service.client.payouts.listPayoutEntries(p.id).all()) {
        fees += entryFee(e);
        if (e.type === "CHARGE") gross += e.gross_amount_money?.amount ?? 0;
      }
    }
    expect(frame).toContain(
      `Fees ${formatMoney(usd(fees))} on charges of ${formatMoney(usd(gross))}: ${formatRate(fees / gross)}`,
    );
    expect(frame).toContain("█");
    expect(frame).toMatch(/Week of\s+Charges\s+Fees\s+Rate/);
    expect(frame).toMatch(/› 2026-05-18\s+[\d,.]+\s+[\d,.]+\s+2\.\d\d%/);
    await a.press("j");
    await a.waitFor(/› 2026-05-25/);
    await a.press(KEYS.escape);
    await a.waitFor("Paid ");
  });
});

describe("without PAYOUTS_READ", () => {
  it("says the permission is missing and how to sign in with it", async () => {
    const limited = clientWithScopes(service, "ui-token-without-payouts", [
      "MERCHANT_PROFILE_READ",
      "EMPLOYEES_READ",
      "TIMECARDS_READ",
      "TIMECARDS_SETTINGS_READ",
    ]);
    await limited.close();
    const a = await open(80, 24, "ui-token-without-payouts");
    const frame = await a.waitFor((f) => oneLine(f).includes("it lacks the PAYOUTS_READ permission."), 15_000);
    expect(oneLine(frame)).toContain("Sign in again with `backroom login` (it asks for PAYOUTS_READ)");
    expect(a.store.getState().status.kind).not.toBe("error");
    await a.press("f");
    await a.waitFor("! This sign-in may not read payouts (PAYOUTS_READ).");
  });
});

describe("reconciliation in the app", () => {
  it("R reads a statement and shows each problem line next to its candidates", async () => {
    const byRef = range.find((p) => p.status === "PAID" && p.arrival_date === "2026-06-05") as Payout;
    const byAmount = range.find((p) => p.status === "PAID" && p.arrival_date === "2026-06-04") as Payout;
    const us = (d: string) => `${d.slice(5, 7)}/${d.slice(8)}/${d.slice(0, 4)}`;
    const money = (p: Payout) => ((p.amount_money?.amount ?? 0) / 100).toFixed(2);
    const path = join(dir, "chase.csv");
    writeFileSync(
      path,
      [
        "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #",
        `CREDIT,${us(byRef.arrival_date ?? "")},"ORIG CO NAME:SQUARE INC IND ID:${byRef.end_to_end_id}",${money(byRef)},ACH_CREDIT,1.00,,`,
        `CREDIT,${us(byAmount.arrival_date ?? "")},"SQUARE INC",${money(byAmount)},ACH_CREDIT,1.00,,`,
        `CREDIT,06/11/2026,"SQUARE INC",123.45,ACH_CREDIT,1.00,,`,
        "DEBIT,06/11/2026,GREEN MOUNTAIN POWER,-185.32,ACH_DEBIT,1.00,,",
        ',,"Ending balance",,,1000.00,,',
      ].join("\n"),
    );
    const a = await open();
    await a.waitFor("Paid ", 15_000);
    await a.press("R");
    await a.waitFor("Statement CSV");
    await a.press(path);
    await a.press(KEYS.enter);
    let frame = await a.waitFor(/matched 2 \(1 by reference\)/, 15_000);
    expect(frame).toContain("chase.csv · against the payouts of Main Street");
    expect(frame).toMatch(/ambiguous 1 · unmatched 1/);
    // A line that is not a transaction is said, not dropped unsaid (the CLI says it too).
    expect(frame).toMatch(/skipped 1 \(line 6: not a transaction\)/);
    expect(frame).toMatch(/›\s+4 2026-06-11\s+123\.45 ambiguous SQUARE INC/);
    expect(frame).toMatch(/2026-06-10\s+123\.45\s+fits\s+↳ paid · LTWINAAAA0001 · po_twin_a/);
    expect(frame).toMatch(/2026-06-10\s+123\.45\s+fits\s+↳ paid · LTWINBBBB0002 · po_twin_b/);
    expect(frame).toMatch(/5 2026-06-11\s+-185\.32 unmatched GREEN MOUNTAIN POWER/);
    expect(frame).toContain("Line 4: 2 payouts fit.");
    // The second candidate opens; esc goes back to the reconciliation, on the same row.
    await a.press("j", "j", KEYS.enter);
    frame = await a.waitFor("esc back to the reconciliation", 15_000);
    expect(frame).toContain("po_twin_b");
    await a.press(KEYS.escape);
    frame = await a.waitFor("Fits line 4");
    expect(frame).toMatch(/›\s+2026-06-10\s+123\.45\s+fits\s+↳ paid · LTWINBBBB0002/);
  });

  it("a missing file name or an unreadable date format, refused from another field, takes the manager to it", async () => {
    const path = join(dir, "dmy.csv");
    writeFileSync(path, "Date,Description,Amount\n11/06/2026,ZELLE FROM J SMITH,250.00\n");
    const a = await open();
    await a.waitFor("Paid ", 15_000);
    await a.press("R");
    await a.waitFor("Statement CSV");
    await a.press(KEYS.tab, KEYS.enter);
    await a.waitFor("! Give the statement's file.");
    await a.press(path, KEYS.tab, KEYS.tab, KEYS.tab, KEYS.tab, "QQ/MM/YYYY", KEYS.up, KEYS.enter);
    await a.waitFor('! The date format "QQ/MM/YYYY" has "Q"');
    await a.waitFor(/› Date format: +QQ\/MM\/YYYY/);
    await a.press("DD/MM/YYYY", KEYS.enter);
    const frame = await a.waitFor(/unmatched 1/, 15_000);
    expect(frame).toContain("dmy.csv · against the payouts of Main Street");
    expect(frame).toMatch(/2026-06-11\s+250\.00 unmatched ZELLE FROM J SMITH/);
  });

  it("says why a statement cannot be used, line by line", async () => {
    const path = join(dir, "broken.csv");
    writeFileSync(path, "Date,Description,Amount\n2026-06-01,SQUARE,12.345\n2026-06-02,SQUARE,1.00\n");
    const a = await open();
    await a.waitFor("Paid ", 15_000);
    await a.press("R");
    await a.waitFor("Statement CSV");
    await a.press(join(dir, "absent.csv"));
    await a.press(KEYS.enter);
    // Naming columns would not help a file that is not there: the line under it says what would.
    let frame = await a.waitFor("There is no file");
    expect(frame).toContain("R opens the form again to give another file.");
    expect(frame).not.toContain("name the columns");
    await a.press("R");
    await a.waitFor("Statement CSV");
    // The form opens on the last file: replaced by the broken one.
    await a.press(KEYS.backspace.repeat(join(dir, "absent.csv").length), path);
    await a.press(KEYS.enter);
    frame = await a.waitFor("1 line of the statement cannot be read.");
    expect(frame).toContain("line 2: The amount USD has 2 decimals at most");
    expect(frame).toContain("R opens the form again: name the columns or the date format");
    // Headers it does not know: the app has no flags; the form's fields are named.
    const odd = join(dir, "odd.csv");
    writeFileSync(odd, "When,What,How much\n2026-06-01,SQUARE,12.00\n");
    await a.press("R");
    await a.waitFor("Statement CSV");
    await a.press(KEYS.backspace.repeat(path.length), odd, KEYS.enter);
    frame = await a.waitFor((f) => oneLine(f).includes("Name the columns in the form's Date column and Amount column"));
    expect(frame).not.toContain("--");
    // R opens the form on the first field to name, the Date column.
    await a.press("R");
    await a.waitFor(/› Date column:/);
    await a.press("When", KEYS.tab, "How much", KEYS.enter);
    frame = await a.waitFor(/unmatched 1/, 15_000);
    expect(frame).toContain("odd.csv · against the payouts of Main Street");
    // A header the file does not have: R opens the form on the column named wrongly, its name selected.
    await a.press("R");
    await a.waitFor("Statement CSV");
    await a.press(KEYS.tab, KEYS.tab, "\u0015", "Betrag", KEYS.enter);
    await a.waitFor((f) => oneLine(f).includes('No column is headed "Betrag" (the form\'s Amount column)'));
    await a.press("R");
    await a.waitFor(/› Amount column: +Betrag/);
    await a.press("How much", KEYS.enter);
    await a.waitFor(/unmatched 1/, 15_000);
  });
});

describe("when the service stops answering", () => {
  it("says the fees could not all be read, and r reads them once it answers again", async () => {
    app = await startApp({
      shared: service,
      proxy: true,
      columns: 80,
      rows: 24,
      store: { clock: { now: () => new Date(NOW) }, dataDir: dir },
    });
    const a = app;
    await a.waitFor("1 Time clock");
    await a.press("7");
    await a.waitFor("Paid ", 15_000);
    await a.proxy?.down();
    await a.press("f");
    await a.waitFor((f) => oneLine(f).includes("could not be read: r reads them again."), 15_000);
    expect(a.frame()).toContain("offline");
    await a.proxy?.up();
    await a.press("r");
    await a.waitFor(/Fees [\d,.]+ USD on charges of/, 20_000);
  });
});

describe("narrow terminals", () => {
  it("keeps every view within 60 columns", async () => {
    const a = await open(60, 24);
    let frame = await a.waitFor("Paid ", 15_000);
    expect(fits(frame, 60)).toBe(true);
    // The title keeps its dates and status whole: the word "created" goes first.
    expect(frame).toMatch(/Main Street · payouts \d{4}-\d\d-\d\d → \d{4}-\d\d-\d\d · all statuses\n/);
    // At 60 columns the totals take two lines rather than being cut.
    expect(frame).toMatch(/failed \d+ · [\d,.]+ USD/);
    await a.press(KEYS.enter);
    frame = await a.waitFor(/add up/, 15_000);
    expect(fits(frame, 60)).toBe(true);
    // The check is said whole, on a second line if need be; a hint is whole or left out, never cut.
    expect(oneLine(frame)).toMatch(
      /✓ The entries add up to the payout\. Square kept [\d,.]+ USD( in fees\.|: [\d,.]+ USD in fees, [\d,.]+ USD in fee entries\.)/,
    );
    expect(frame).not.toMatch(/esc back[^\n]*…/);
    await a.press(KEYS.escape, "f");
    frame = await a.waitFor(/Fees [\d,.]+ USD/, 20_000);
    expect(fits(frame, 60)).toBe(true);
    const path = join(dir, "narrow.csv");
    writeFileSync(path, "Date,Description,Amount\n06/11/2026,ZELLE FROM J SMITH,250.00\n");
    await a.press(KEYS.escape, "R");
    await a.waitFor("Statement CSV");
    await a.press(path, KEYS.enter);
    frame = await a.waitFor(/unmatched 1/, 15_000);
    expect(fits(frame, 60)).toBe(true);
    expect(frame).toContain("narrow.csv · against the payouts of Main Street");
    expect(frame).not.toMatch(/R an[^\n]*…/);
  });

  it("keeps the location column at 60 columns with All locations (two stores' rows look alike without it)", async () => {
    const a = await open(60, 24);
    await a.waitFor("Paid ", 15_000);
    await a.press("L");
    await a.waitFor("All locations every store together");
    await a.press(KEYS.enter);
    const frame = await a.waitFor((f) => f.includes("All locations · payouts") && f.includes("Harbour Dock"), 15_000);
    expect(frame).toMatch(/Location\s+Arrives\s+Status\s+Amount/);
    expect(fits(frame, 60)).toBe(true);
  });
});
