// The old transactions (V1) screen as a manager uses it, driven by keys against the local service.
import stringWidth from "string-width";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../src/service/seed/demo-ids.js";
import type { V1Order, V1Payment } from "../src/spec/generated/types.js";
import { type DrivenApp, KEYS, startApp } from "./helpers/app.js";
import { pinnedClock, startService, type TestService } from "./helpers/service.js";

// Noon in New York.
const NOW = Date.parse("2026-06-15T16:00:00.000Z");
const daysAgo = (d: number) => new Date(NOW - d * 86_400_000).toISOString();

let service: TestService;
let app: DrivenApp | undefined;

beforeAll(async () => {
  service = await startService({ clock: pinnedClock(NOW) });
  // The service lays its V1 history out on the first V1 request (seed/deferred.ts); these tests
  // also read its tables directly.
  expect((await service.raw("GET", "/v1/me/payments?limit=1")).status).toBe(200);
}, 30_000);
afterAll(async () => {
  await service?.close();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  await service.raw("DELETE", "/_emulator/faults");
});

async function open(columns = 80, rows = 24): Promise<DrivenApp> {
  app = await startApp({ shared: service, columns, rows, store: { clock: { now: () => new Date(NOW) } } });
  await app.waitFor("1 Time clock");
  await app.press("9");
  await app.waitForStore((s) => s.v1.lists.payments !== undefined && s.loading === undefined, 15_000);
  await app.waitFor("Complete payments only");
  return app;
}

const refundCount = () => (service.service.db.prepare("SELECT count(*) AS n FROM v1_refunds").get() as { n: number }).n;
const stored = (id: string) =>
  JSON.parse(
    (service.service.db.prepare("SELECT data FROM v1_payments WHERE id = ?").get(id) as { data: string }).data,
  ) as V1Payment;

/** Main Street's complete payments of some days, unrefunded, with this many tenders (a card first). */
function payments(tenders: number, from: number, to: number): V1Payment[] {
  const rows = service.service.db
    .prepare(
      "SELECT data FROM v1_payments WHERE location_id = ? AND is_partial = 0 AND created_at BETWEEN ? AND ? AND arrived_at <= ?",
    )
    .all(DEMO.mainLocationId, daysAgo(from), daysAgo(to), new Date(NOW).toISOString()) as { data: string }[];
  return rows
    .map((r) => JSON.parse(r.data) as V1Payment)
    .filter(
      (p) =>
        p.tender?.length === tenders &&
        (p.refunds ?? []).length === 0 &&
        p.tender[0]?.type === "CREDIT_CARD" &&
        p.tender.every((t) => (t.total_money?.amount ?? 0) > 300),
    );
}

/** The frame's words as one line: borders gone, wrapped sentences joined. */
const flat = (frame: string) =>
  frame
    .split("\n")
    .map((l) => l.replace(/[│╭╮╰╯─]/g, " ").trim())
    .join(" ")
    .replace(/\s+/g, " ");

/** Waits until the frame says `text`, however it is wrapped. */
const says = (a: DrivenApp, text: string | RegExp) =>
  a.waitFor((f) => (typeof text === "string" ? flat(f).includes(text) : text.test(flat(f))));

/** Moves the cursor to the row with this id, as a manager would: j until it is there. */
async function selectRow(a: DrivenApp, list: "payments" | "orders", id: string) {
  const ids = (a.store.getState().v1.lists[list] ?? []).map((r) => r.id);
  const at = ids.indexOf(id);
  expect(at, `${id} is listed`).toBeGreaterThanOrEqual(0);
  // A fast typist's runs of j's (a read longer than 16 characters would be a paste, dropped).
  await a.press("g");
  for (let left = at; left > 0; left -= 10) await a.press("j".repeat(Math.min(10, left)));
  await a.waitForStore((s) => s.selection[`v1.${list}`]?.id === id);
}

/** Opens the payment, then the refund form on it. */
async function refundFormOn(a: DrivenApp, p: V1Payment) {
  await selectRow(a, "payments", p.id ?? "");
  await a.press(KEYS.enter);
  await a.waitFor(/Payment taken .* at Main Street/);
  await a.press("x");
  await a.waitFor("Refund the payment");
}

/** Sets the dates through the range form. */
async function setRange(a: DrivenApp, from: string, to: string) {
  await a.press("d");
  await a.waitFor("Which days?");
  await a.press("\u0015", from, KEYS.tab, "\u0015", to);
  await a.press(KEYS.enter);
  await a.waitForStore((s) => s.v1.filters.from === from && s.v1.form.kind === "none");
  await a.waitForStore((s) => s.v1.readFor.payments?.includes(from) === true && s.loading === undefined, 15_000);
}

describe("the old transactions screen: the lists", () => {
  it("keeps the title's dates whole on a narrow terminal: the wording goes, then the place is cut", async () => {
    const a = await open(60);
    await a.waitFor("Old transactions (V1) · 2026-05-17 to 2026-06-15 · Main");
    a.stdout.resize(70, 24);
    await a.waitFor("Old transactions (V1) · Main Street · 2026-05-17 to 2026-06-15");
    a.stdout.resize(82, 24);
    await a.waitFor("Old transactions (V1) · Main Street · the last 30 days, 2026-05-17 to 2026-06-15");
  });

  it("shows each list with its note, the dates it read, and the deprecation", async () => {
    const a = await open();
    let frame = a.frame();
    expect(frame).toContain("Old transactions (V1) · Main Street · the last 30 days, 2026-05-17 to 2026-06-15");
    expect(frame).toContain("The service has deprecated these operations (V1)");
    expect(frame).toContain("Payments taken offline can reach the service up to 72 hours later");
    const shown = a.store.getState().v1.lists.payments ?? [];
    expect(frame).toContain(`${shown.length} payments · collected`);

    await a.press("f");
    frame = await a.waitFor("Refunds of the days");
    await a.waitForStore((s) => s.v1.lists.refunds !== undefined);
    const refunds = await service.client.v1
      .v1ListRefunds(DEMO.mainLocationId, {
        begin_time: "2026-05-17T04:00:00.000Z",
        end_time: "2026-06-16T04:00:00.000Z",
      })
      .all();
    await a.waitFor(`${refunds.length} refunds`);

    await a.press("s");
    await a.waitFor("Sent and failed");
    await a.waitForStore((s) => s.v1.lists.settlements !== undefined);
    const settlements = a.store.getState().v1.lists.settlements ?? [];
    expect(settlements.length).toBeGreaterThan(20);
    await a.waitFor(`${settlements.length} settlements`);

    await a.press("o");
    await a.waitFor("Every order, newest first");
    await a.waitFor("220 online-store orders");
    expect(a.frame()).toContain("every order");
  });

  it("shows partial payments only when asked, and every location from the picker's All locations", async () => {
    const a = await open();
    const complete = a.store.getState().v1.lists.payments?.length ?? 0;
    await a.press("i");
    await a.waitFor("Partial payments shown");
    await a.waitForStore((s) => (s.v1.lists.payments ?? []).some((p) => p.is_partial));
    expect(a.frame()).toMatch(/partial\n/);
    await a.press("i", "L");
    await a.waitFor("All locations every store together");
    await a.press(KEYS.enter);
    await a.waitFor("Old transactions (V1) · all locations");
    await a.waitForStore((s) => (s.v1.lists.payments?.length ?? 0) > complete && s.loading === undefined);
    expect(a.frame()).toContain("Location");
    expect(a.frame()).toContain("Harbour Dock");
  });

  it("shows a settlement's entries and that they add up to its total", async () => {
    const a = await open();
    await a.press("s");
    await a.waitForStore((s) => (s.v1.lists.settlements?.length ?? 0) > 0);
    const first = a.store.getState().v1.lists.settlements?.[0];
    await a.press(KEYS.enter);
    const frame = await a.waitFor("The entries add up to the total of");
    const full = await service.client.v1.v1RetrieveSettlement(DEMO.mainLocationId, first?.id ?? "");
    const sum = (full.entries ?? []).reduce(
      (x, e) => x + (e.amount_money?.amount ?? 0) + (e.fee_money?.amount ?? 0),
      0,
    );
    expect(sum).toBe(full.total_money?.amount);
    const total = ((full.total_money?.amount ?? 0) / 100).toFixed(2);
    expect(frame).toContain(`The entries add up to the total of ${total} USD.`);
    expect(frame).toContain(`Entries (${full.entries?.length})`);
    await a.press(KEYS.escape);
    await a.waitFor("Sent and failed");
  });

  it("a bad from date refused from the To field takes the manager back to From, typing replaces it", async () => {
    const a = await open();
    await a.press("d");
    await a.waitFor("Which days?");
    await a.press("\u0015", "2026-06-0", KEYS.tab, "\u0015", "2026-06-15", KEYS.enter);
    await says(a, 'The from date "2026-06-0" is not a date');
    await a.waitFor(/› From: +2026-06-0 /);
    await a.press("2026-06-01", KEYS.enter);
    await a.waitForStore((s) => s.v1.filters.from === "2026-06-01" && s.v1.form.kind === "none");
  });

  it("keeps a range over a year in the form, with the rule, before anything is sent", async () => {
    const a = await open();
    await a.press("d");
    await a.waitFor("Which days?");
    await a.press("\u0015", "2025-01-01", KEYS.tab, "\u0015", "2026-01-01");
    await a.press(KEYS.enter);
    await says(a, "longer than one year");
    await a.press(KEYS.tab, "\u0015", "2012-12-31", KEYS.enter);
    await says(a, "the service keeps no V1 records before");
    expect(a.store.getState().v1.filters.from).toBe("2026-05-17");
    await a.press(KEYS.escape);
    await a.waitFor("Complete payments only");
  });

  it("takes esc and enter in one read (a fast typist over SSH) as esc, then enter: the form is cancelled, not saved", async () => {
    const a = await open();
    await a.press("d");
    await a.waitFor("Which days?");
    await a.press("\u0015", "2026-06-01");
    await a.press(`${KEYS.escape}${KEYS.enter}`);
    await a.waitFor((f) => !f.includes("Which days?"));
    expect(a.store.getState().v1.filters.from).toBe("2026-05-17");
    await a.press("d");
    await a.waitFor("Which days?");
    await a.press(`${KEYS.escape}${KEYS.tab}`);
    await a.waitForStore((s) => s.screen.kind === "account");
  });

  it("says once that the service no longer offers a list; the other lists and screens carry on", async () => {
    await service.raw("POST", "/_emulator/faults", { body: { operation: "V1ListRefunds", status: 410, code: "GONE" } });
    const a = await open();
    await a.press("f");
    const frame = await says(a, "The service no longer offers old refunds through the old (V1) interface");
    expect(flat(frame)).toContain("use the Refunds API (listPaymentRefunds) instead.");
    expect(frame).not.toMatch(/error/i);
    await a.press("o");
    await a.waitFor("220 online-store orders");
    await a.press("1");
    await a.waitFor("Who is here");
  });
});

describe("the old transactions screen: refunds", () => {
  it("refuses, before sending: 61 days old, a split payment without a tender, more than is left (each on its row)", {
    timeout: 60_000,
  }, async () => {
    const before = refundCount();
    const a = await open();
    const [split] = payments(2, 29, 1);
    if (!split) throw new Error("no split payment");
    await refundFormOn(a, split);
    await a.press(KEYS.right);
    await a.waitFor("(•) part");
    await a.press(KEYS.tab, KEYS.tab, "1", KEYS.tab, "Scratched");
    await a.press(KEYS.enter);
    await says(a, "a partial refund comes out of one tender — choose which");
    // The rule is about the tender: the form is on it, and ←/→ choose one at once.
    await a.waitFor(/› Tender/);
    const cash = split.tender?.[1];
    const left = ((cash?.total_money?.amount ?? 0) + 1) / 100;
    await a.press(KEYS.right, KEYS.right);
    await a.waitFor(/‹ .*: [\d.]+ USD left ›/);
    await a.press(KEYS.tab, "\u0015", left.toFixed(2), KEYS.tab, KEYS.enter);
    await says(a, /Only [\d.]+ USD is left to refund on/);
    // About the amount, refused from the reason: back on the amount, selected — what is typed replaces it.
    await a.waitFor(/› Amount +[\d.]+/);
    await a.press("1.00", KEYS.enter);
    await says(a, "Refund 1.00 USD (part of this payment)");
    await a.press(KEYS.enter);
    await a.waitForStore((s) => s.overlay.kind === "none");
    await a.press(KEYS.escape, KEYS.escape);

    const [old] = payments(1, 90, 62);
    if (!old) throw new Error("no old payment");
    await setRange(a, "2026-03-01", "2026-04-30");
    await refundFormOn(a, old);
    await says(a, /ago: the service refunds a payment only within 60 days of when it was taken/);
    await a.press(KEYS.tab, "Too late", KEYS.enter);
    await says(a, "only within 60 days");
    expect(a.store.getState().overlay.kind).toBe("none");
    expect(refundCount()).toBe(before);
  });

  it("refunds a payment in full: enter on the question means no, y refunds", async () => {
    const a = await open();
    const [p] = payments(1, 25, 2).slice(1);
    if (!p) throw new Error("no payment");
    const before = refundCount();
    await refundFormOn(a, p);
    // Without a reason, enter takes the form to the reason.
    await a.press(KEYS.enter);
    await says(a, "Type the reason for the refund; it is kept with the refund.");
    await a.waitFor(/› Reason/);
    // The reason and Enter in one read (tmux send-keys "Returned" Enter): typed, not a scan.
    await a.press(`Returned${KEYS.enter}`);
    await says(a, "A refund to a card cannot be reversed once it is sent.");
    await a.press(KEYS.enter);
    await a.waitForStore((s) => s.overlay.kind === "none");
    expect(refundCount()).toBe(before);
    await a.press(KEYS.enter);
    await says(a, "cannot be reversed");
    await a.press("y");
    await says(a, /Refunded [\d.]+ USD of the payment taken/);
    const after = stored(p.id ?? "");
    expect(after.refunded_money?.amount).toBe(-(p.total_collected_money?.amount ?? 0));
    expect(refundCount()).toBe(before + 1);
    await a.press("G");
    await a.waitFor("Refunds against it (1)");
  });

  it("a long reason typed at 60 columns goes on under the row, its end in sight", async () => {
    const a = await open(60);
    const [p] = payments(1, 25, 2).slice(1);
    if (!p) throw new Error("no payment");
    await refundFormOn(a, p);
    const reason = "Returned unopened: the wrong size of hinge, exchanged for the 3 inch kind.";
    await a.press(KEYS.tab, reason);
    await a.waitFor((f) => f.includes("for the 3 inch kind.") && f.includes("tab next · ←/→ change"));
  });

  it("refunds part of one tender of a split-tender payment", async () => {
    const a = await open();
    const [, p] = payments(2, 29, 1);
    if (!p) throw new Error("no second split payment");
    const [first, second] = p.tender ?? [];
    await refundFormOn(a, p);
    await a.press(KEYS.right, KEYS.tab, KEYS.right, KEYS.right);
    await a.waitFor(/‹ Cash|‹ .*•••• .*: [\d.]+ USD left ›/);
    await a.waitForStore((s) => s.v1.form.kind === "refund" && s.v1.form.tenderId === second?.id);
    await a.press(KEYS.tab, "1.25", KEYS.tab, "Scratched", KEYS.enter);
    await says(a, "Refund 1.25 USD (part of this payment)");
    await a.press("y");
    await says(a, /Refunded 1\.25 USD/);
    const after = stored(p.id ?? "");
    expect(after.tender?.find((t) => t.id === second?.id)?.refunded_money?.amount).toBe(-125);
    expect(after.tender?.find((t) => t.id === first?.id)?.refunded_money?.amount).toBe(0);
  });
});

describe("the old transactions screen: the refund form's fields", () => {
  it("tab into a field already typed selects it: a fast typist's next keys replace it, as in every form", async () => {
    const a = await open();
    const [p] = payments(1, 25, 2);
    if (!p) throw new Error("no payment");
    const before = refundCount();
    await refundFormOn(a, p);
    await a.press(KEYS.right);
    await a.waitFor("(•) part");
    await a.press(KEYS.tab, "1.25", KEYS.tab, "Scratched");
    const form = () => {
      const f = a.store.getState().v1.form;
      return f.kind === "refund" ? f : undefined;
    };
    await a.waitForStore(() => form()?.reason === "Scratched");
    // Back to the amount (shift+tab), then a 2: the amount is 2, not 1.252.
    await a.press(KEYS.shiftTab, "2");
    await a.waitForStore(() => form()?.amount === "2");
    // On to the reason and a new one typed over it, in one read (a fast typist); backspace after a
    // tab empties the field.
    await a.press(`${KEYS.tab}Torn`);
    await a.waitForStore(() => form()?.reason === "Torn");
    await a.press(KEYS.shiftTab, KEYS.backspace);
    await a.waitForStore(() => form()?.amount === "");
    // An arrow lets go of the selection: typing then goes at the cursor.
    await a.press(KEYS.tab, KEYS.left, "!");
    await a.waitForStore(() => form()?.reason === "Tor!n");
    await a.press(KEYS.escape);
    expect(refundCount()).toBe(before);
  });
});

describe("the old transactions screen: online-store orders", () => {
  it("completes an open order, then refunds it, with the actions its state allows", async () => {
    const a = await open();
    await a.press("o");
    await a.waitForStore((s) => (s.v1.lists.orders?.length ?? 0) > 0);
    const order = a.store.getState().v1.lists.orders?.find((o) => o.state === "OPEN") as V1Order;
    await selectRow(a, "orders", order.id ?? "");
    await a.press(KEYS.enter);
    await a.waitFor("It can now be: complete (shipped), cancel.");
    await a.press("x");
    await says(a, "Only a completed order can be refunded; this one is open.");
    await a.press("m");
    await a.waitFor("Complete (shipped): the order for");
    await a.press("Shipped by ground", KEYS.tab, "1Z999", KEYS.enter);
    await says(a, "as shipped (completed)?");
    await a.press("y");
    await a.waitFor("It can now be: refund.");
    expect(a.frame()).toContain("Completed (shipped)");
    await a.press("x");
    await a.waitFor("Refund: the order for");
    await a.press(KEYS.enter);
    await says(a, "as refunded? It cannot be undone.");
    await a.press("y");
    await a.waitFor("Nothing more can be done with it.");
    const now = await service.client.v1.v1RetrieveOrder(DEMO.mainLocationId, order.id ?? "");
    expect(now.state).toBe("REFUNDED");
    expect(now.completed_note).toBe("Shipped by ground");
    expect(now.order_history?.map((h) => h.action).slice(-2)).toEqual(["COMPLETED", "REFUNDED"]);
  });
});

describe("the old transactions screen at 60 columns", () => {
  it("keeps every line within the terminal, lists and a record", async () => {
    const a = await open(60, 24);
    const fits = (frame: string) => frame.split("\n").every((l) => stringWidth(l) <= 60);
    let frame = await a.waitFor(/\d+ payments · collected/, 15_000);
    expect(fits(frame)).toBe(true);
    // The totals, the deprecation and the views' keys are whole (the totals on two lines), never cut.
    expect(frame.replace(/\s+/g, " ")).toMatch(/collected [\d,.]+ USD (· )?fees [\d,.]+ USD (· )?refunded [\d,.]+ USD/);
    expect(frame).toMatch(/[Dd]eprecated.*: it may stop answering\.|they may stop answering\./);
    expect(frame).toMatch(/ · o [\w-]*\s*[Oo]rders/);
    // Below the title (whose place is cut by design) no line ends cut.
    expect(
      frame
        .split("\n")
        .slice(3)
        .filter((l) => l.endsWith("…")),
    ).toEqual([]);
    await a.press(KEYS.enter);
    frame = await a.waitFor("Payment taken");
    expect(fits(frame)).toBe(true);
    // A hint on the record's last line is whole or left out.
    expect(frame).not.toMatch(/(j\/k|esc)[^\n]*…/);
    await a.press(KEYS.escape, "s", KEYS.enter);
    await a.waitFor("The entries add up");
    expect(fits(a.frame())).toBe(true);
  });

  it("keeps the location column with All locations (two stores' rows look alike without it)", async () => {
    const a = await open(60, 24);
    await a.press("L");
    await a.waitFor("All locations every store together");
    await a.press(KEYS.enter);
    // At 60 columns the dates come first; the place is what is cut.
    await a.waitFor("Old transactions (V1) · 2026-05-17 to 2026-06-15 · all loc");
    await a.waitForStore((s) => (s.v1.lists.payments?.length ?? 0) > 0 && s.loading === undefined);
    const frame = await a.waitFor((f) => /Location/.test(f) && f.includes("Harbour Dock"));
    expect(frame.split("\n").every((l) => stringWidth(l) <= 60)).toBe(true);
  });
});
