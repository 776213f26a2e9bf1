// The gift cards screen as a manager uses it at the counter and in the back room: a scanned card
// looked up wherever the keys are, every change asked first with the balance before → after and
// read back from the service, a decrement past the balance refused before anything is sent, the
// day's activity with the liability, and a change the service did not answer sent again, once.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { customerName } from "../src/domain/customers.js";
import { luhnCheckDigit } from "../src/domain/gan.js";
import { DEMO } from "../src/service/seed/demo-ids.js";
import type { Customer, GiftCard } from "../src/spec/generated/types.js";
import { type DrivenApp, KEYS, startApp } from "./helpers/app.js";
import { pinnedClock, startService, type TestService } from "./helpers/service.js";

let shared: TestService;
let app: DrivenApp | undefined;

beforeAll(async () => {
  shared = await startService();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
});
afterAll(async () => {
  await shared.close();
});

/** A Square number no demo card has: prefix 7783 44, a serial, its check digit. */
const gan = (n: number) => {
  const body = `778344${String(n).padStart(9, "0")}`;
  return body + luhnCheckDigit(body);
};

/** Types text a key at a time, as a person does (not a scan). */
const type = (text: string) => text.split("");

/** The frame as one line: a sentence wrapped inside a box reads whole. */
const flat = (frame: string) => frame.replace(/[│\n]+/g, " ").replace(/\s+/g, " ");
/** Waits for text that may be wrapped over lines of a box. */
const waitForText = (a: DrivenApp, text: string | RegExp) =>
  a.waitFor((f) => (typeof text === "string" ? flat(f).includes(text) : text.test(flat(f))));

async function open(opts: Parameters<typeof startApp>[0] = {}): Promise<DrivenApp> {
  app = await startApp({ shared, columns: 80, rows: 24, ...opts });
  await app.waitFor("● online");
  await app.press("8");
  await app.waitFor("Scan a card, or press / and type its number or id.");
  return app;
}

async function cardAt(number: string): Promise<GiftCard> {
  return (await shared.client.giftCards.retrieveGiftCardFromGAN({ gan: number })).gift_card as GiftCard;
}

async function historyOf(card: GiftCard) {
  return shared.client.giftCards
    .listGiftCardActivities({ gift_card_id: card.id ?? "", begin_time: "2000-01-01T00:00:00Z", limit: 100 })
    .all();
}

/**
 * Opens a write's form with its key, fills its fields in order and submits — all in one read, as
 * an auto-type or `tmux send-keys` writes it (typed text in a change's form, never a scan) — and
 * answers the question.
 */
async function change(a: DrivenApp, key: string, fields: string[], question: string | RegExp) {
  await a.press(key);
  await a.waitFor("enter save");
  await a.press(`${fields.map((value) => (value ? `\u0015${value}` : "")).join(KEYS.tab)}${KEYS.enter}`);
  await waitForText(a, question);
  await a.press("y");
}

describe("the gift cards screen", () => {
  it("looks a scanned card up wherever the keys are: state, balance, customers, history newest first", async () => {
    const a = await open();
    const cards = await shared.client.giftCards.listGiftCards({ state: "ACTIVE", limit: 200 }).all();
    // A card with one customer, named only by a phone when there is one (it shows as the store's numbers do).
    const linked = cards.filter((c) => c.customer_ids?.length === 1);
    const profiles = await Promise.all(
      linked.map(async (c) => (await shared.client.customers.retrieveCustomer(c.customer_ids?.[0] ?? "")).customer),
    );
    const at = Math.max(
      0,
      profiles.findIndex((p) => !p?.given_name && !p?.family_name && !p?.company_name && p?.phone_number),
    );
    const card = linked[at] as GiftCard;
    const customer = profiles[at] as Customer;
    // A scanner: the code and Enter in one write, with nothing focused.
    await a.press(`${card.gan}\r`);
    const frame = await a.waitFor("History, newest first");
    expect(frame).toContain(`${card.gan} · `);
    expect(frame).toMatch(/ · active · balance [\d,]+\.\d\d USD/);
    expect(frame).toContain(`customer ${customerName(customer, DEMO.country)} · `);
    // The history's first row carries the card's balance now.
    const balance = ((card.balance_money?.amount ?? 0) / 100).toFixed(2);
    const first = frame.split("\n").find((l) => l.startsWith("› ")) ?? "";
    expect(first).toContain(balance);
    // Scanned while typing in the look-up line: still looked up, the half-typed text is not.
    await a.press("/", ...type("12"));
    const other = cards.find((c) => c.id !== card.id) as GiftCard;
    await a.press(`${other.gan}\r`);
    const after = await a.waitFor(`${other.gan} · `);
    // The half-typed number does not stand above the scanned card.
    expect(after).not.toMatch(/Card: +12/);
    expect(a.store.getState().drafts["gift-cards.lookup"] ?? "").toBe("");
  });

  it("makes every change from the screen, each asked first and read back from the service", async () => {
    const a = await open();
    const number = gan(1);
    await a.press(`${number}\r`);
    await a.waitFor("is not registered with the service yet: a registers it");
    await change(
      a,
      "a",
      ["40", "cash"],
      `Register and activate card ${number} with 40.00 USD? Balance 0.00 → 40.00 USD.`,
    );
    await waitForText(a, `Activated card ${number} with 40.00 USD: balance 0.00 → 40.00 USD.`);
    expect(await cardAt(number)).toMatchObject({ type: "PHYSICAL", state: "ACTIVE", balance_money: { amount: 4000 } });

    const steps: [string, string[], RegExp, string, number, string][] = [
      [
        "l",
        ["12.50", "card-1"],
        /Load 12\.50 USD onto card .*Balance 40\.00 → 52\.50 USD/,
        "Loaded 12.50 USD",
        5250,
        "ACTIVE",
      ],
      [
        "+",
        ["2", "compl"],
        /Add 2\.00 USD .*\(complimentary\)\? Balance 52\.50 → 54\.50/,
        "Added 2.00 USD",
        5450,
        "ACTIVE",
      ],
      ["-", ["4.50", "support"], /Take 4\.50 USD off .*Balance 54\.50 → 50\.00/, "Took 4.50 USD off", 5000, "ACTIVE"],
      ["b", [], /Block card .*\(chargeback\)\?/, "Blocked card", 5000, "BLOCKED"],
      ["u", [], /Unblock card/, "Unblocked card", 5000, "ACTIVE"],
      ["c", ["reuse"], /Clear the balance of card .*Balance 50\.00 → 0\.00/, "Cleared card", 0, "ACTIVE"],
      ["D", [], /Deactivate card .*It can never be used again/, "Deactivated card", 0, "DEACTIVATED"],
    ];
    for (const [key, fields, question, done, balance, state] of steps) {
      await change(a, key, fields, question);
      await waitForText(a, done);
      const now = await cardAt(number);
      expect(now.balance_money?.amount, key).toBe(balance);
      expect(now.state, key).toBe(state);
      // The screen shows what the service holds.
      await a.waitFor(`balance ${(balance / 100).toFixed(2)} USD`);
    }
    await a.waitFor(" · deactivated · ");
    await a.press("l");
    await waitForText(a, "This card is deactivated: nothing can be done to it any more.");
  });

  it("keeps the status bar in its place while a change's question is open over its form, at 80×24", async () => {
    const a = await open();
    const cards = await shared.client.giftCards.listGiftCards({ limit: 200 }).all();
    const card = cards.find((c) => c.state === "ACTIVE" && (c.balance_money?.amount ?? 0) > 0) as GiftCard;
    await a.press(`${card.gan}\r`);
    await a.waitFor(/History, newest first/);
    await a.press("l");
    await a.waitFor("enter save");
    await a.press(`\u001525${KEYS.tab}cash${KEYS.enter}`);
    const frame = await a.waitFor(/Load 25\.00 USD onto card/);
    const lines = frame.split("\n");
    expect(lines.length).toBeLessThanOrEqual(24);
    // The form under the question is whole (its last field and its bottom edge), with the status
    // bar's two rows below it: nothing spilled into them.
    expect(frame).toContain("Line item:");
    expect(lines.filter((l) => l.startsWith("╰"))).toHaveLength(2);
    const formEnd = lines.map((l) => l.startsWith("╰")).lastIndexOf(true);
    expect(lines.length - 1 - formEnd).toBeGreaterThanOrEqual(2);
    await a.press("n");
    await a.press(KEYS.escape);
    await a.waitFor(/History, newest first/);
  });

  it("why a key did nothing shows until a scan or a command runs: '+' before a card, then a card and '+'", async () => {
    const [card] = await shared.client.giftCards.listGiftCards({ state: "ACTIVE", limit: 1 }).all();
    const number = card?.gan ?? "";
    const a = await open();
    await a.press("+");
    await a.waitFor("Look a card up first: scan it, or type its number.");
    // The card scanned and shown, why the first '+' did nothing no longer shows under it.
    await a.press(`${number}\r`);
    await a.waitFor(`${number} · physical`);
    expect(a.frame()).not.toContain("Look a card up first");
    // Nor after a key that is refused, then one that runs.
    await a.press("a");
    await a.waitFor(/^! /m);
    await a.press("+");
    await a.waitFor("Add to card");
    expect(a.frame()).not.toMatch(/^! /m);
  });

  it("refuses a decrement past the balance before anything is sent", async () => {
    const a = await open();
    const number = gan(2);
    await a.press(`${number}\r`);
    await a.waitFor("is not registered");
    await change(a, "a", ["10", "cash"], /Register and activate/);
    await a.waitFor("balance 10.00 USD");
    const card = await cardAt(number);
    const before = (await historyOf(card)).length;
    await a.press("-");
    await a.waitFor("Take off card");
    await a.press(...type("10.01"), KEYS.tab, ...type("sup"), KEYS.enter);
    await waitForText(a, "! The card holds 10.00 USD; 10.01 USD cannot be taken off it.");
    expect(a.frame()).not.toContain("Take 10.01 USD off");
    expect((await historyOf(card)).length).toBe(before);
    expect((await cardAt(number)).balance_money?.amount).toBe(1000);
    // Refused from the reason, the form is back on the amount, selected: what is typed replaces it.
    await a.waitFor(/› Amount: +10\.01/);
    await a.press(...type("9.99"), KEYS.enter);
    await waitForText(a, /Take 9\.99 USD off .*Balance 10\.00 → 0\.01/);
    await a.press("n");
    // esc leaves the form; nothing was sent.
    await a.press(KEYS.escape);
    await a.waitFor((f) => !f.includes("Take off card"));
  });

  it("a reason or a payment refused from another field takes the manager to it: typing replaces it", async () => {
    const a = await open();
    const number = gan(4);
    await a.press(`${number}\r`);
    await a.waitFor("is not registered");
    await change(a, "a", ["10", "cash"], /Register and activate/);
    await a.waitFor("balance 10.00 USD");
    await a.press("+");
    await a.waitFor("Add to card");
    await a.press(...type("2"), KEYS.tab, ...type("zzz"), KEYS.shiftTab, KEYS.enter);
    await waitForText(a, '! "zzz" is not a reason to');
    await a.waitFor(/› Reason: +zzz/);
    await a.press(...type("compl"), KEYS.enter);
    await waitForText(a, /Add 2\.00 USD .*\(complimentary\)\? Balance 10\.00 → 12\.00/);
    await a.press("n", KEYS.escape);
    await a.waitFor((f) => !f.includes("Add to card"));
    await a.press("l");
    await a.waitFor("Load card");
    await a.press(...type("5"), KEYS.tab, KEYS.tab, KEYS.tab, KEYS.enter);
    await waitForText(a, "! Say how the buyer paid");
    await a.waitFor(/› Paid with:/);
    await a.press(...type("cash"), KEYS.enter);
    await waitForText(a, /Load 5\.00 USD onto card .*Balance 10\.00 → 15\.00 USD/);
    await a.press("n", KEYS.escape);
    await a.waitFor((f) => !f.includes("Load card"));
    expect((await cardAt(number)).balance_money?.amount).toBe(1000);
  });

  it("shows the day's activity with totals per kind and the liability, one kind at a time", async () => {
    const a = await open({ columns: 100 });
    await a.press(`${gan(1)}\r`);
    await a.waitFor("History, newest first");
    await a.press("v");
    const frame = await a.waitFor(/Liability [\d,]+\.\d\d USD on \d+ active cards/);
    expect(frame).toContain("(today)");
    expect(frame).toMatch(/sold \d+ · [\d,]+\.\d\d {2}loaded \d+/);
    expect(frame).toContain(gan(1));
    await a.press("f");
    await a.waitFor(" · sold");
    await a.press("f", "f", "f");
    await a.waitFor(/ · adjusted[\s\S]*adjusted (up|down)/);
    expect(a.frame()).not.toMatch(/ loaded {5,}/);
    // enter opens the card of the activity under the cursor.
    await a.press(KEYS.enter);
    await a.waitFor("History, newest first");
  });

  it("a bad to date refused takes the manager to To, its value selected: typing replaces it", async () => {
    const a = await open({ columns: 100 });
    await a.press(`${gan(1)}\r`);
    await a.waitFor("History, newest first");
    await a.press("v");
    await a.waitFor("(today)");
    await a.press("d");
    await a.waitFor("Gift card activity of which days?");
    await a.press("2026-06-15", KEYS.tab, "2026-06-1", KEYS.shiftTab, KEYS.enter);
    await a.waitFor('The to "2026-06-1" is not a date; write it as YYYY-MM-DD.');
    await a.waitFor(/› To: +2026-06-1 /);
    await a.press("2026-06-16", KEYS.enter);
    await a.waitFor("2026-06-15 → 2026-06-16");
  });

  it("shows every store's activity, with where it happened, when All locations is picked (L)", async () => {
    // A clock pinned to the afternoon: the day is the same day at both stores (New York, Los Angeles).
    const NOW = Date.parse("2026-06-17T19:00:00Z");
    const own = await startService({ clock: pinnedClock(NOW) });
    try {
      // A card sold at Harbour Dock today: not in Main Street's activity, in every store's.
      const made = await own.client.giftCards.createGiftCard({
        location_id: DEMO.secondLocationId,
        gift_card: { type: "DIGITAL" },
      });
      const card = made.gift_card as GiftCard;
      await own.client.giftCards.createGiftCardActivity({
        gift_card_activity: {
          location_id: DEMO.secondLocationId,
          gift_card_id: card.id ?? "",
          type: "ACTIVATE",
          activate_activity_details: {
            amount_money: { amount: 1_500, currency: "USD" },
            buyer_payment_instrument_ids: ["cash"],
          },
        },
      });
      const a = await open({ shared: own, columns: 100, store: { clock: { now: () => new Date(NOW) } } });
      await a.press("v");
      await a.waitFor((f) => /Liability [\d,]+\.\d\d USD/.test(f) && f.includes("at Main Street"));
      expect(a.frame()).not.toContain(card.gan);
      await a.press("L");
      await a.waitFor("All locations every store together");
      await a.press(KEYS.enter);
      const frame = await a.waitFor((f) => f.includes(card.gan ?? "?"));
      expect(frame).toContain("Gift card activity at all locations · 2026-06-17 (today)");
      expect(frame).toMatch(/Where\s+Card/);
      expect(frame.split("\n").find((l) => l.includes(card.gan ?? "?"))).toContain("Harbour Dock");
    } finally {
      await app?.close();
      app = undefined;
      await own.close();
    }
  });

  it("keeps a load the service did not answer on this machine, shows the balance it will have, and sends it once", async () => {
    const a = await open({ proxy: true });
    const number = gan(3);
    await a.press(`${number}\r`);
    await a.waitFor("is not registered");
    await change(a, "a", ["20", "cash"], /Register and activate/);
    await a.waitFor("balance 20.00 USD");
    await a.proxy?.down();
    await change(a, "l", ["5", "cash"], /Load 5\.00 USD/);
    await a.waitFor("balance 25.00 USD ◷ kept, not yet sent (1)");
    // At 60 columns the mark says it in fewer words, whole ("◷ kept, not y…" was cut mid-word).
    a.stdout.resize(60, 24);
    const narrow = await a.waitFor("balance 25.00 USD ◷ kept (1)");
    expect(narrow).not.toContain("◷ kept, not");
    a.stdout.resize(100, 30);
    await a.waitFor("balance 25.00 USD ◷ kept, not yet sent (1)");
    // More loads may be kept; a change of another kind waits until they are sent.
    await a.press("b");
    await waitForText(a, "The service is not answering, and only loads and adjustments are kept until it answers");
    await a.proxy?.up();
    // The next read that gets an answer sends what is kept.
    await a.press("r");
    await waitForText(a, "Sent 1 change kept on this machine.");
    await a.waitFor((f) => f.includes("balance 25.00 USD") && !f.includes("◷ kept"));
    const card = await cardAt(number);
    expect(card.balance_money?.amount).toBe(2500);
    expect((await historyOf(card)).filter((x) => x.type === "LOAD")).toHaveLength(1);
  });

  it("has no changes in read-only mode, and says why", async () => {
    const a = await open({ store: { readOnly: true } });
    await a.press(`${gan(1)}\r`);
    await a.waitFor("History, newest first");
    await a.press("l");
    await a.waitFor("Read-only mode: changes are disabled.");
    expect(a.frame()).not.toContain("enter save");
  });
});
