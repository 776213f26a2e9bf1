import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startService, type TestService } from "../../test/helpers/service.js";
import { createFullStore } from "../../test/helpers/store.js";
import { customerName } from "../domain/customers.js";
import { luhnCheckDigit } from "../domain/gan.js";
import type { WriteKind } from "../domain/gift-cards.js";
import { OutboxHandle } from "../local/outbox.js";
import type { Customer, GiftCard } from "../spec/generated/types.js";
import { deferredClient } from "./deferred-client.js";
import type { PlannedWrite } from "./gift-cards-io.js";
import { cardAsItWillBe, giftCardWriteUnavailable } from "./gift-cards-slice.js";
import type { LoadedStore } from "./store.js";

let t: TestService;
let store: LoadedStore;
let keys = 0;
const s = () => store.getState();

beforeAll(async () => {
  t = await startService();
  // The app's client is deferred (its calls are thenables, not Promises): the slice gets the same.
  store = await createFullStore({
    outbox: new OutboxHandle(":memory:"),
    client: deferredClient(Promise.resolve(t.client)),
    newIdempotencyKey: () => `slice-key-${++keys}`,
  });
  await s().init();
});
afterEach(async () => {
  await t.raw("DELETE", "/_emulator/faults");
});
afterAll(async () => {
  await t.close();
});

const gan = (n: number) => {
  const body = `778366${String(n).padStart(9, "0")}`;
  return body + luhnCheckDigit(body);
};
const cardNow = async (number: string) =>
  (await t.client.giftCards.retrieveGiftCardFromGAN({ gan: number })).gift_card as GiftCard;
const shown = () => {
  const c = s().giftCards.card;
  if (c.kind !== "found") throw new Error(`no card shown: ${c.kind}`);
  return c;
};

/** Fills the write form of `kind` and plans it; throws with the problem when it cannot be. */
function plan(kind: WriteKind, patch: object): PlannedWrite {
  s().giftCardsEvent({ type: "open-write", kind });
  s().giftCardsEvent({ type: "edit-write", patch });
  const planned = s().planGiftCardWrite();
  if (!planned.ok) throw new Error(planned.problem);
  return planned.plan;
}

describe("the gift cards slice", () => {
  it("looks a card up by its number in groups: state, history newest first, linked customers by name", async () => {
    const cards = await t.client.giftCards.listGiftCards({ limit: 200 }).all();
    const linked = cards.find((c) => c.state === "ACTIVE" && c.customer_ids?.length) as GiftCard;
    await s().lookUpGiftCard((linked.gan ?? "").replace(/(\d{4})(?=\d)/g, "$1 "));
    const c = shown();
    expect(c.card.id).toBe(linked.id);
    // By name as the customers screen names them: a profile with only a phone by the store's numbers.
    const profile = (await t.client.customers.retrieveCustomer(linked.customer_ids?.[0] ?? "")).customer as Customer;
    expect(c.customers[0]?.name).toBe(customerName(profile, s().locations[0]?.country));
    const times = c.history.map((a) => a.created_at ?? "");
    expect(times).toEqual([...times].sort().reverse());
    expect(c.history[0]?.gift_card_balance_money).toEqual(linked.balance_money);
  });

  it("registers and activates a number the service does not know, in one confirmed write, and reads it back", async () => {
    await s().lookUpGiftCard(gan(1));
    expect(s().giftCards.card).toEqual({ kind: "unknown", gan: gan(1) });
    expect(giftCardWriteUnavailable(s(), "load")).toMatch(/activate it first/);
    const p = plan("activate", { amount: "30", paidWith: "cash" });
    expect(p.register?.gift_card).toEqual({ type: "PHYSICAL", gan: gan(1) });
    expect(p.question).toBe(`Register and activate card ${gan(1)} with 30.00 USD? Balance 0.00 → 30.00 USD.`);
    await s().sendGiftCardWrite(p);
    expect(shown().card).toMatchObject({ state: "ACTIVE", balance_money: { amount: 3000 } });
    expect(s().status).toMatchObject({
      kind: "info",
      text: `Activated card ${gan(1)} with 30.00 USD: balance 0.00 → 30.00 USD.`,
    });
  });

  it("refuses a decrement past the balance before anything is sent", async () => {
    await s().lookUpGiftCard(gan(1));
    const before = shown().history.length;
    s().giftCardsEvent({ type: "open-write", kind: "adjust-down" });
    s().giftCardsEvent({ type: "edit-write", patch: { amount: "30.01", reason: "suspicious activity" } });
    const planned = s().planGiftCardWrite();
    expect(planned).toEqual({
      ok: false,
      problem: "The card holds 30.00 USD; 30.01 USD cannot be taken off it.",
      field: "amount",
    });
    const f = s().giftCards.form;
    expect(f.kind === "write" && f.form.problem).toMatch(/cannot be taken off/);
    await s().reloadGiftCard();
    expect(shown().history).toHaveLength(before);
  });

  it("says in money, with the balance read again, when the card was spent elsewhere after it was read", async () => {
    await s().lookUpGiftCard(gan(3));
    await s().sendGiftCardWrite(plan("activate", { amount: "30", paidWith: "cash" }));
    const p = plan("adjust-down", { amount: "20", reason: "support issue" });
    // Another till redeems 25.00 meanwhile: 30.00 → 5.00.
    await t.client.giftCards.createGiftCardActivity({
      idempotency_key: "elsewhere-1",
      gift_card_activity: {
        type: "REDEEM",
        location_id: s().locationId ?? "",
        gift_card_gan: gan(3),
        redeem_activity_details: { amount_money: { amount: 2500, currency: "USD" } },
      },
    });
    await s().sendGiftCardWrite(p);
    expect(shown().card.balance_money?.amount).toBe(500);
    expect(s().status).toMatchObject({
      kind: "error",
      text: `Nothing was taken off card ${gan(3)}: it holds 5.00 USD now, less than 20.00 USD (it was spent since it was read).`,
      details: expect.stringMatching(/^INSUFFICIENT_FUNDS · HTTP 400 · CreateGiftCardActivity/),
    });
  });

  it("keeps a load the service did not answer in the outbox with its key, shows it, and sends it once", async () => {
    await s().lookUpGiftCard(gan(1));
    const p = plan("load", { amount: "5", paidWith: "cash" });
    await t.raw("POST", "/_emulator/faults", {
      body: { operation: "CreateGiftCardActivity", status: 503, code: "SERVICE_UNAVAILABLE", count: 1 },
    });
    await s().sendGiftCardWrite(p);
    expect(s().giftCards.pending).toBeUndefined();
    expect(s().outbox.entries.map((e) => [e.state, e.idempotencyKey])).toEqual([["sent", p.activity.idempotency_key]]);
    expect(s().status).toMatchObject({
      text: expect.stringMatching(/^◷ No answer; kept on this machine/),
    });
    // The card shows the balance it will have; more loads may be kept, other changes wait.
    expect(cardAsItWillBe(s(), shown().card)).toMatchObject({ kept: 1, card: { balance_money: { amount: 3500 } } });
    expect(giftCardWriteUnavailable(s(), "load")).toBeUndefined();
    expect(giftCardWriteUnavailable(s(), "block")).toMatch(/kept on this machine/);
    await s().outboxFlush();
    expect(s().outbox.entries).toEqual([]);
    expect((await cardNow(gan(1))).balance_money?.amount).toBe(3500);
    // Sent again from the outbox with the key minted when it was planned: loaded once.
    await s().reloadGiftCard();
    expect(shown().history.filter((a) => a.type === "LOAD")).toHaveLength(1);
    expect(p.activity.idempotency_key).toMatch(/^slice-key-/);
  });

  it("adjusts, clears, blocks, unblocks and deactivates, each read back", async () => {
    await s().lookUpGiftCard(gan(1));
    const steps: [WriteKind, object, number, string][] = [
      ["adjust-up", { amount: "1.50", reason: "complimentary" }, 3650, "ACTIVE"],
      ["adjust-down", { amount: "0.50", reason: "support issue" }, 3600, "ACTIVE"],
      ["block", {}, 3600, "BLOCKED"],
      ["unblock", {}, 3600, "ACTIVE"],
      ["clear", { reason: "reuse the card" }, 0, "ACTIVE"],
      ["deactivate", {}, 0, "DEACTIVATED"],
    ];
    for (const [kind, patch, balance, state] of steps) {
      await s().sendGiftCardWrite(plan(kind, patch));
      expect(shown().card, kind).toMatchObject({ state, balance_money: { amount: balance } });
    }
    expect(giftCardWriteUnavailable(s(), "load")).toMatch(/deactivated/);
  });

  it("reads the day's activity with the liability, and a kind at a time", async () => {
    await s().showGiftCardsView("activity");
    const a = s().giftCards.activity;
    expect(a.rows.some((r) => r.gift_card_gan === gan(1))).toBe(true);
    expect(a.liability?.activeCards).toBeGreaterThan(0);
    await s().setGiftCardFilter("adjusted");
    expect(
      s()
        .giftCards.activity.rows.map((r) => r.type)
        .sort(),
    ).toEqual(["ADJUST_DECREMENT", "ADJUST_INCREMENT"]);
    expect(await s().setGiftCardDays("2026-13-01", "")).toEqual({
      text: expect.stringMatching(/not a date/),
      field: "from",
    });
  });

  it("says a change waits for the card being looked up, not to look one up", () => {
    const base = { ...s(), giftCards: { ...s().giftCards, pending: undefined } };
    const looking = { ...base, giftCards: { ...base.giftCards, card: { kind: "looking" as const, query: gan(1) } } };
    expect(giftCardWriteUnavailable(looking, "load")).toBe(`Card ${gan(1)} is still being looked up; a moment.`);
    const none = { ...base, giftCards: { ...base.giftCards, card: { kind: "empty" as const } } };
    expect(giftCardWriteUnavailable(none, "load")).toBe("Look a card up first: scan it, or type its number.");
  });

  it("has no writes in read-only mode or for a sign-in without GIFTCARDS_WRITE, and says why", () => {
    const base = { ...s(), giftCards: { ...s().giftCards, pending: undefined } };
    expect(giftCardWriteUnavailable({ ...base, readOnly: true }, "load")).toBe("Read-only mode: changes are disabled.");
    expect(giftCardWriteUnavailable({ ...base, grantedScopes: ["GIFTCARDS_READ"] }, "load")).toMatch(
      /may not change gift cards \(GIFTCARDS_WRITE was not granted\)/,
    );
  });
});
