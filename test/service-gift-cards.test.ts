import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClock } from "../src/service/clock.js";
import type { ServiceEvent } from "../src/service/events.js";
import { luhnCheckDigit, luhnValid } from "../src/service/gift-cards/gan.js";
import { insertActivity } from "../src/service/gift-cards/repo.js";
import { DEMO } from "../src/service/seed/demo-ids.js";
import type { GiftCard, GiftCardActivity, GiftCardActivityType } from "../src/spec/generated/types.js";
import type { ListGiftCardActivitiesQuery, ListGiftCardsQuery } from "../src/square/gift-cards.js";
import { failure, startService, type TestService } from "./helpers/service.js";

/** The service's clock stands still unless a test moves it, so times are exact. */
const START = Date.parse("2025-06-16T15:00:00.000Z");
const published: ServiceEvent[] = [];
let t: TestService;
let seeded: GiftCard[];

beforeAll(async () => {
  t = await startService({
    clock: createClock(() => START),
    events: { publish: (events) => void published.push(...events) },
  });
  seeded = await t.client.giftCards.listGiftCards({ limit: 200 }).all();
});
afterAll(async () => {
  await t?.close();
});

const usd = (amount: number) => ({ amount, currency: "USD" as const });
const listCards = (q: ListGiftCardsQuery) => t.client.giftCards.listGiftCards(q);
const listActivities = (q: ListGiftCardActivitiesQuery) => t.client.giftCards.listGiftCardActivities(q);
const iso = (ms: number) => new Date(ms).toISOString();

async function newCard(type: "DIGITAL" | "PHYSICAL" = "DIGITAL"): Promise<GiftCard> {
  const r = await t.client.giftCards.createGiftCard({ location_id: DEMO.mainLocationId, gift_card: { type } });
  return r.gift_card as GiftCard;
}

type ActivityInput = Omit<GiftCardActivity, "location_id" | "gift_card_id"> & {
  location_id?: string;
  gift_card_id?: string;
};

function act(card: GiftCard, a: ActivityInput): Promise<GiftCardActivity> {
  return t.client.giftCards
    .createGiftCardActivity({
      gift_card_activity: { location_id: DEMO.mainLocationId, gift_card_id: card.id ?? "", ...a },
    })
    .then((r) => r.gift_card_activity as GiftCardActivity);
}

const activate = (card: GiftCard, amount: number) =>
  act(card, {
    type: "ACTIVATE",
    activate_activity_details: { amount_money: usd(amount), buyer_payment_instrument_ids: ["cash"] },
  });
const load = (card: GiftCard, amount: number) =>
  act(card, {
    type: "LOAD",
    load_activity_details: { amount_money: usd(amount), buyer_payment_instrument_ids: ["cash"] },
  });
const redeem = (card: GiftCard, amount: number) =>
  act(card, { type: "REDEEM", redeem_activity_details: { amount_money: usd(amount) } });

async function cardNow(card: GiftCard): Promise<GiftCard> {
  return (await t.client.giftCards.retrieveGiftCard(card.id ?? "")).gift_card as GiftCard;
}

/** What each activity does to a balance, as the test understands the rules. */
function replay(balance: number, a: GiftCardActivity): number {
  const amount = (m: { amount?: number } | undefined) => m?.amount ?? 0;
  switch (a.type) {
    case "ACTIVATE":
      return balance + amount(a.activate_activity_details?.amount_money);
    case "LOAD":
      return balance + amount(a.load_activity_details?.amount_money);
    case "REDEEM":
      return balance - amount(a.redeem_activity_details?.amount_money);
    case "REFUND":
      return balance + amount(a.refund_activity_details?.amount_money);
    case "ADJUST_INCREMENT":
      return balance + amount(a.adjust_increment_activity_details?.amount_money);
    case "ADJUST_DECREMENT":
      return balance - amount(a.adjust_decrement_activity_details?.amount_money);
    case "CLEAR_BALANCE":
      return 0;
    default:
      return balance;
  }
}

describe("seeded gift cards", () => {
  it("are about sixty cards in every state, with Square GANs", () => {
    expect(seeded.length).toBeGreaterThanOrEqual(50);
    expect(seeded.length).toBeLessThanOrEqual(70);
    const states = new Set(seeded.map((c) => c.state));
    for (const s of ["ACTIVE", "PENDING", "DEACTIVATED", "BLOCKED"])
      expect(states.has(s as GiftCard["state"])).toBe(true);
    for (const c of seeded) {
      expect(c.gan).toMatch(/^7783\d{12}$/);
      expect(luhnValid(c.gan ?? "")).toBe(true);
      expect(c.balance_money?.amount).toBeGreaterThanOrEqual(0);
      if (c.state === "PENDING") expect(c.balance_money?.amount).toBe(0);
    }
    expect(seeded.some((c) => (c.customer_ids ?? []).length > 0)).toBe(true);
  });

  it("have histories whose balances add up to each card's balance", async () => {
    const types = new Set<string>();
    for (const card of seeded) {
      const history = await listActivities({
        gift_card_id: card.id ?? "",
        sort_order: "ASC",
        limit: 100,
      }).all();
      if (card.state === "PENDING") {
        expect(history).toEqual([]);
        continue;
      }
      expect(history[0]?.type).toBe("ACTIVATE");
      let balance = 0;
      for (const a of history) {
        types.add(a.type);
        balance = replay(balance, a);
        expect(a.gift_card_balance_money?.amount).toBe(balance);
        expect(a.gift_card_gan).toBe(card.gan);
      }
      expect(card.balance_money?.amount).toBe(balance);
      if (card.state === "DEACTIVATED") expect(history.at(-1)?.type).toBe("DEACTIVATE");
      if (card.state === "BLOCKED") expect(history.at(-1)?.type).toBe("BLOCK");
    }
    for (const type of ["ACTIVATE", "LOAD", "REDEEM", "REFUND", "BLOCK", "UNBLOCK", "DEACTIVATE"]) {
      expect(types.has(type)).toBe(true);
    }
  });
});

describe("createGiftCard", () => {
  it("creates a PENDING card with a zero balance and a generated 16-digit GAN", async () => {
    const card = await newCard();
    expect(card).toMatchObject({ type: "DIGITAL", gan_source: "SQUARE", state: "PENDING", balance_money: usd(0) });
    expect(card.gan).toMatch(/^7783\d{12}$/);
    expect(luhnValid(card.gan ?? "")).toBe(true);
    expect(card.created_at).toBe(iso(START));
    expect(published.some((e) => e.type === "gift_card.created" && e.dataId === card.id)).toBe(true);
  });

  it("keeps a custom GAN from source OTHER, and refuses a bad or missing one", async () => {
    const r = await t.client.giftCards.createGiftCard({
      location_id: DEMO.mainLocationId,
      gift_card: { type: "DIGITAL", gan_source: "OTHER", gan: "HARDWARE2025X" },
    });
    expect(r.gift_card).toMatchObject({ gan: "HARDWARE2025X", gan_source: "OTHER", state: "PENDING" });
    const missing = await failure(
      t.client.giftCards.createGiftCard({
        location_id: DEMO.mainLocationId,
        gift_card: { type: "DIGITAL", gan_source: "OTHER" },
      }),
    );
    expect(missing.code).toBe("MISSING_REQUIRED_PARAMETER");
    expect(missing.errors[0]?.field).toBe("gift_card.gan");
    for (const gan of ["short", "has spaces in it", "4111111111111111"]) {
      const e = await failure(
        t.client.giftCards.createGiftCard({
          location_id: DEMO.mainLocationId,
          gift_card: { type: "DIGITAL", gan_source: "OTHER", gan },
        }),
      );
      expect(e.code).toBe("INVALID_VALUE");
    }
  });

  it("refuses a GAN the seller already uses", async () => {
    const e = await failure(
      t.client.giftCards.createGiftCard({
        location_id: DEMO.mainLocationId,
        gift_card: { type: "PHYSICAL", gan: seeded[0]?.gan ?? "" },
      }),
    );
    expect(e.code).toBe("INVALID_VALUE");
    expect(e.errors[0]?.field).toBe("gift_card.gan");
  });

  it("registers a plastic card by its printed Square GAN, but not a digital one", async () => {
    const printed = `778300000000001${luhnCheckDigit("778300000000001")}`;
    const body = { location_id: DEMO.mainLocationId, gift_card: { type: "PHYSICAL" as const, gan: printed } };
    expect(luhnValid(printed)).toBe(true);
    expect((await t.client.giftCards.createGiftCard(body)).gift_card?.gan).toBe(printed);
    const digital = await failure(
      t.client.giftCards.createGiftCard({
        location_id: DEMO.mainLocationId,
        gift_card: { type: "DIGITAL", gan: "7783000000000020" },
      }),
    );
    expect(digital.code).toBe("INVALID_VALUE");
  });

  it("needs an idempotency key, a type and a location of the seller", async () => {
    const noKey = await t.raw("POST", "/v2/gift-cards", {
      body: { location_id: DEMO.mainLocationId, gift_card: { type: "DIGITAL" } },
    });
    expect(noKey.status).toBe(400);
    expect(noKey.json.errors[0]).toMatchObject({ code: "MISSING_REQUIRED_PARAMETER", field: "idempotency_key" });
    const noType = await t.raw("POST", "/v2/gift-cards", {
      body: { idempotency_key: "k-no-type", location_id: DEMO.mainLocationId, gift_card: {} },
    });
    expect(noType.json.errors[0]).toMatchObject({ code: "MISSING_REQUIRED_PARAMETER", field: "gift_card.type" });
    const nowhere = await failure(
      t.client.giftCards.createGiftCard({ location_id: "LNOWHERE", gift_card: { type: "DIGITAL" } }),
    );
    expect(nowhere.code).toBe("INVALID_LOCATION");
  });

  it("answers a retried request with the same card", async () => {
    const body = { idempotency_key: "create-once", location_id: DEMO.mainLocationId, gift_card: { type: "DIGITAL" } };
    const a = await t.raw("POST", "/v2/gift-cards", { body });
    const b = await t.raw("POST", "/v2/gift-cards", { body });
    expect(b.json.gift_card.id).toBe(a.json.gift_card.id);
    const gan = await t.raw("POST", "/v2/gift-cards/from-gan", { body: { gan: a.json.gift_card.gan } });
    expect(gan.json.gift_card.id).toBe(a.json.gift_card.id);
  });
});

describe("retrieveGiftCard and retrieveGiftCardFromGAN", () => {
  it("find a card by id and by GAN", async () => {
    const card = seeded[5] as GiftCard;
    expect((await t.client.giftCards.retrieveGiftCard(card.id ?? "")).gift_card).toEqual(card);
    expect((await t.client.giftCards.retrieveGiftCardFromGAN({ gan: card.gan ?? "" })).gift_card).toEqual(card);
  });

  it("answer NOT_FOUND for an unknown id or GAN", async () => {
    expect((await failure(t.client.giftCards.retrieveGiftCard("gftc:nope"))).status).toBe(404);
    const e = await failure(t.client.giftCards.retrieveGiftCardFromGAN({ gan: "7783999999999999" }));
    expect(e.status).toBe(404);
    expect(e.code).toBe("NOT_FOUND");
  });
});

describe("createGiftCardActivity: the gift card state machine", () => {
  it("refuses anything but ACTIVATE on a card that was never activated", async () => {
    const card = await newCard();
    for (const p of [load(card, 1_000), redeem(card, 100)]) {
      const e = await failure(p);
      expect(e.status).toBe(400);
      expect(e.code).toBe("BAD_REQUEST");
    }
    const block = await failure(act(card, { type: "BLOCK", block_activity_details: { reason: "CHARGEBACK_BLOCK" } }));
    expect(block.code).toBe("BAD_REQUEST");
    expect(await cardNow(card)).toMatchObject({ state: "PENDING", balance_money: usd(0) });
  });

  it("activates a PENDING card with its initial balance, once", async () => {
    const card = await newCard();
    const a = await activate(card, 5_000);
    expect(a).toMatchObject({
      type: "ACTIVATE",
      gift_card_id: card.id,
      gift_card_gan: card.gan,
      location_id: DEMO.mainLocationId,
      gift_card_balance_money: usd(5_000),
    });
    expect(a.id).toBeTruthy();
    expect(await cardNow(card)).toMatchObject({ state: "ACTIVE", balance_money: usd(5_000) });
    expect((await failure(activate(card, 1_000))).code).toBe("BAD_REQUEST");
    expect((await cardNow(card)).balance_money).toEqual(usd(5_000));
  });

  it("needs a positive amount to activate, and an order with its line item or the payment instruments", async () => {
    const card = await newCard();
    const zero = await failure(activate(card, 0));
    expect(zero.code).toBe("VALUE_TOO_LOW");
    expect(zero.errors[0]?.field).toBe("gift_card_activity.activate_activity_details.amount_money");
    const none = await failure(act(card, { type: "ACTIVATE" }));
    expect(none.code).toBe("MISSING_REQUIRED_PARAMETER");
    expect(none.errors[0]?.field).toBe("gift_card_activity.activate_activity_details");
    const half = await failure(
      act(card, { type: "ACTIVATE", activate_activity_details: { amount_money: usd(100), order_id: "ORDER1" } }),
    );
    expect(half.errors[0]?.field).toBe("gift_card_activity.activate_activity_details.line_item_uid");
    // Sold outside an order: the interface needs the buyer's payment instruments.
    const unpaid = await failure(
      act(card, { type: "ACTIVATE", activate_activity_details: { amount_money: usd(100) } }),
    );
    expect(unpaid.code).toBe("MISSING_REQUIRED_PARAMETER");
    expect(unpaid.errors[0]?.field).toBe("gift_card_activity.activate_activity_details.buyer_payment_instrument_ids");
    const sold = await act(card, {
      type: "ACTIVATE",
      activate_activity_details: { amount_money: usd(2_500), order_id: "ORDER1", line_item_uid: "LINE1" },
    });
    expect(sold.activate_activity_details).toMatchObject({ order_id: "ORDER1", line_item_uid: "LINE1" });
    expect(sold.gift_card_balance_money).toEqual(usd(2_500));
  });

  it("loads, redeems, adjusts and refunds, recording the balance after each", async () => {
    const card = await newCard();
    await activate(card, 5_000);
    expect((await load(card, 2_000)).gift_card_balance_money).toEqual(usd(7_000));
    const spent = await redeem(card, 3_000);
    expect(spent.gift_card_balance_money).toEqual(usd(4_000));
    expect(spent.redeem_activity_details?.status).toBe("COMPLETED");
    const up = await act(card, {
      type: "ADJUST_INCREMENT",
      adjust_increment_activity_details: { amount_money: usd(500), reason: "COMPLIMENTARY" },
    });
    expect(up.gift_card_balance_money).toEqual(usd(4_500));
    const down = await act(card, {
      type: "ADJUST_DECREMENT",
      adjust_decrement_activity_details: { amount_money: usd(1_500), reason: "SUPPORT_ISSUE" },
    });
    expect(down.gift_card_balance_money).toEqual(usd(3_000));
    const back = await act(card, {
      type: "REFUND",
      refund_activity_details: { redeem_activity_id: spent.id ?? "", amount_money: usd(1_000) },
    });
    expect(back.gift_card_balance_money).toEqual(usd(4_000));
    const tooMuch = await failure(
      act(card, {
        type: "REFUND",
        refund_activity_details: { redeem_activity_id: spent.id ?? "", amount_money: usd(2_001) },
      }),
    );
    expect(tooMuch.code).toBe("REFUND_AMOUNT_INVALID");
    const unlinked = await act(card, {
      type: "UNLINKED_ACTIVITY_REFUND",
      unlinked_activity_refund_activity_details: { amount_money: usd(250) },
    });
    expect(unlinked.gift_card_balance_money).toEqual(usd(4_250));
    expect(await cardNow(card)).toMatchObject({ state: "ACTIVE", balance_money: usd(4_250) });
  });

  it("refuses to redeem or decrement beyond the balance, and changes nothing", async () => {
    const card = await newCard();
    await activate(card, 1_000);
    const e = await failure(redeem(card, 1_001));
    expect(e.status).toBe(400);
    expect(e.code).toBe("INSUFFICIENT_FUNDS");
    const d = await failure(
      act(card, {
        type: "ADJUST_DECREMENT",
        adjust_decrement_activity_details: { amount_money: usd(5_000), reason: "SUPPORT_ISSUE" },
      }),
    );
    expect(d.code).toBe("INSUFFICIENT_FUNDS");
    expect((await cardNow(card)).balance_money).toEqual(usd(1_000));
    expect((await redeem(card, 1_000)).gift_card_balance_money).toEqual(usd(0));
  });

  it("clears the balance to zero", async () => {
    const card = await newCard();
    await activate(card, 3_000);
    const c = await act(card, { type: "CLEAR_BALANCE", clear_balance_activity_details: { reason: "REUSE_GIFTCARD" } });
    expect(c.gift_card_balance_money).toEqual(usd(0));
    expect(await cardNow(card)).toMatchObject({ state: "ACTIVE", balance_money: usd(0) });
  });

  it("blocks a card against spending and unblocks it", async () => {
    const card = await newCard();
    await activate(card, 3_000);
    await act(card, { type: "BLOCK", block_activity_details: { reason: "CHARGEBACK_BLOCK" } });
    expect((await cardNow(card)).state).toBe("BLOCKED");
    expect((await failure(redeem(card, 100))).code).toBe("BAD_REQUEST");
    expect((await failure(load(card, 100))).code).toBe("BAD_REQUEST");
    await act(card, { type: "UNBLOCK", unblock_activity_details: { reason: "CHARGEBACK_UNBLOCK" } });
    expect((await cardNow(card)).state).toBe("ACTIVE");
    const again = await failure(
      act(card, { type: "UNBLOCK", unblock_activity_details: { reason: "CHARGEBACK_UNBLOCK" } }),
    );
    expect(again.code).toBe("BAD_REQUEST");
    expect((await redeem(card, 100)).gift_card_balance_money).toEqual(usd(2_900));
  });

  it("deactivates a card for good: every further activity is refused", async () => {
    const card = await newCard();
    await activate(card, 3_000);
    const d = await act(card, { type: "DEACTIVATE", deactivate_activity_details: { reason: "SUSPICIOUS_ACTIVITY" } });
    expect(d.gift_card_balance_money).toEqual(usd(3_000));
    expect((await cardNow(card)).state).toBe("DEACTIVATED");
    const attempts: ActivityInput[] = [
      { type: "LOAD", load_activity_details: { amount_money: usd(100), buyer_payment_instrument_ids: ["cash"] } },
      { type: "REDEEM", redeem_activity_details: { amount_money: usd(100) } },
      { type: "UNBLOCK", unblock_activity_details: { reason: "CHARGEBACK_UNBLOCK" } },
      { type: "ACTIVATE", activate_activity_details: { amount_money: usd(100) } },
      { type: "CLEAR_BALANCE", clear_balance_activity_details: { reason: "UNKNOWN_REASON" } },
    ];
    for (const a of attempts) expect((await failure(act(card, a))).code).toBe("BAD_REQUEST");
    expect(await cardNow(card)).toMatchObject({ state: "DEACTIVATED", balance_money: usd(3_000) });
  });

  it("names the card by GAN as well as by id, and refuses neither or two different cards", async () => {
    const card = await newCard();
    await activate(card, 1_000);
    const byGan = await t.client.giftCards.createGiftCardActivity({
      gift_card_activity: {
        type: "LOAD",
        location_id: DEMO.secondLocationId,
        gift_card_gan: card.gan ?? "",
        load_activity_details: { amount_money: usd(100), buyer_payment_instrument_ids: ["cash"] },
      },
    });
    expect(byGan.gift_card_activity).toMatchObject({ gift_card_id: card.id, location_id: DEMO.secondLocationId });
    const neither = await failure(
      t.client.giftCards.createGiftCardActivity({
        gift_card_activity: {
          type: "LOAD",
          location_id: DEMO.mainLocationId,
          load_activity_details: { amount_money: usd(1), buyer_payment_instrument_ids: ["cash"] },
        },
      }),
    );
    expect(neither.code).toBe("MISSING_REQUIRED_PARAMETER");
    const other = seeded[0] as GiftCard;
    const clash = await failure(
      act(card, {
        type: "LOAD",
        gift_card_gan: other.gan ?? "",
        load_activity_details: { amount_money: usd(1), buyer_payment_instrument_ids: ["cash"] },
      }),
    );
    expect(clash.code).toBe("CONFLICTING_PARAMETERS");
    const unknown = await failure(
      act(
        { ...card, id: "gftc:nope" },
        { type: "LOAD", load_activity_details: { amount_money: usd(1), buyer_payment_instrument_ids: ["cash"] } },
      ),
    );
    expect(unknown.status).toBe(404);
  });

  it("needs the activity, its type and location, and refuses another currency or a service-only type", async () => {
    const card = await newCard();
    await activate(card, 1_000);
    const noActivity = await t.raw("POST", "/v2/gift-cards/activities", { body: { idempotency_key: "a-none" } });
    expect(noActivity.json.errors[0]).toMatchObject({
      code: "MISSING_REQUIRED_PARAMETER",
      field: "gift_card_activity",
    });
    const noType = await t.raw("POST", "/v2/gift-cards/activities", {
      body: {
        idempotency_key: "a-type",
        gift_card_activity: { location_id: DEMO.mainLocationId, gift_card_id: card.id },
      },
    });
    expect(noType.json.errors[0]).toMatchObject({
      code: "MISSING_REQUIRED_PARAMETER",
      field: "gift_card_activity.type",
    });
    const noLocation = await t.raw("POST", "/v2/gift-cards/activities", {
      body: { idempotency_key: "a-loc", gift_card_activity: { type: "LOAD", gift_card_id: card.id } },
    });
    expect(noLocation.json.errors[0]).toMatchObject({
      code: "MISSING_REQUIRED_PARAMETER",
      field: "gift_card_activity.location_id",
    });
    const noKey = await t.raw("POST", "/v2/gift-cards/activities", {
      body: { gift_card_activity: { type: "LOAD", location_id: DEMO.mainLocationId, gift_card_id: card.id } },
    });
    expect(noKey.json.errors[0]).toMatchObject({ code: "MISSING_REQUIRED_PARAMETER", field: "idempotency_key" });
    const nowhere = await failure(
      act(card, {
        type: "LOAD",
        location_id: "LNOWHERE",
        load_activity_details: { amount_money: usd(1), buyer_payment_instrument_ids: ["cash"] },
      }),
    );
    expect(nowhere.code).toBe("INVALID_LOCATION");
    const euros = await failure(
      act(card, {
        type: "LOAD",
        load_activity_details: {
          amount_money: { amount: 100, currency: "EUR" },
          buyer_payment_instrument_ids: ["cash"],
        },
      }),
    );
    expect(euros.code).toBe("CURRENCY_MISMATCH");
    const imported = await failure(act(card, { type: "IMPORT", import_activity_details: { amount_money: usd(100) } }));
    expect(imported.code).toBe("BAD_REQUEST");
    expect((await cardNow(card)).balance_money).toEqual(usd(1_000));
  });

  it("changes the balance once however often the same request is retried", async () => {
    const card = await newCard();
    await activate(card, 1_000);
    const body = {
      idempotency_key: "redeem-once",
      gift_card_activity: {
        type: "REDEEM",
        location_id: DEMO.mainLocationId,
        gift_card_id: card.id,
        redeem_activity_details: { amount_money: usd(400) },
      },
    };
    const first = await t.raw("POST", "/v2/gift-cards/activities", { body });
    const second = await t.raw("POST", "/v2/gift-cards/activities", { body });
    expect(second.json).toEqual(first.json);
    expect((await cardNow(card)).balance_money).toEqual(usd(600));
  });

  it("emits gift_card.activity.created and gift_card.updated for each activity", async () => {
    const card = await newCard();
    const before = published.length;
    const a = await activate(card, 1_200);
    const events = published.slice(before);
    const created = events.find((e) => e.type === "gift_card.activity.created");
    expect(created).toMatchObject({
      dataType: "gift_card_activity",
      dataId: a.id,
      merchantId: DEMO.merchantId,
      locationId: DEMO.mainLocationId,
    });
    expect(created?.object).toEqual({ gift_card_activity: a });
    const updated = events.find((e) => e.type === "gift_card.updated");
    expect(updated).toMatchObject({ dataType: "gift_card", dataId: card.id });
    expect(updated?.object).toMatchObject({ gift_card: { state: "ACTIVE", balance_money: usd(1_200) } });
    const refusedBefore = published.length;
    await failure(redeem(card, 99_999));
    expect(published.length).toBe(refusedBefore);
  });
});

describe("listGiftCards", () => {
  it("lists oldest first, 30 by default and at most 200", async () => {
    const first = await listCards({});
    expect(first.gift_cards).toHaveLength(30);
    expect(first.cursor).toBeTruthy();
    const created = seeded.map((c) => c.created_at ?? "");
    expect(created).toEqual([...created].sort());
    expect((await failure(listCards({ limit: 201 }))).code).toBe("VALUE_TOO_HIGH");
    expect((await failure(listCards({ limit: 0 }))).code).toBe("VALUE_TOO_LOW");
    expect((await listCards({ limit: 200 })).gift_cards?.length).toBeGreaterThan(30);
  });

  it("filters by type, state and customer", async () => {
    // Other tests add cards; the seeded ones keep their state, so compare on those.
    const fromSeed = (cards: GiftCard[]) => cards.filter((c) => seeded.some((x) => x.id === c.id)).map((c) => c.id);
    const active = await listCards({ state: "ACTIVE", limit: 200 }).all();
    expect(fromSeed(active)).toEqual(seeded.filter((c) => c.state === "ACTIVE").map((c) => c.id));
    for (const c of active) expect(c.state).toBe("ACTIVE");
    const digital = await listCards({ type: "DIGITAL", limit: 200 }).all();
    expect(fromSeed(digital)).toEqual(seeded.filter((c) => c.type === "DIGITAL").map((c) => c.id));
    for (const c of digital) expect(c.type).toBe("DIGITAL");
    const linked = seeded.find((c) => (c.customer_ids ?? []).length > 0) as GiftCard;
    const customer = linked.customer_ids?.[0] ?? "";
    const theirs = await listCards({ customer_id: customer }).all();
    expect(theirs.map((c) => c.id)).toContain(linked.id);
    for (const c of theirs) expect(c.customer_ids).toContain(customer);
    const r = await t.raw("GET", "/v2/gift-cards?state=LOST");
    expect(r.json.errors[0]).toMatchObject({ code: "INVALID_ENUM_VALUE", field: "state" });
  });

  it("pages with a cursor tied to its query", async () => {
    const paged = await listCards({ limit: 7 }).all();
    expect(paged.map((c) => c.id).slice(0, seeded.length)).toEqual(seeded.map((c) => c.id));
    const first = await listCards({ limit: 7 });
    const changed = await t.raw("GET", `/v2/gift-cards?state=ACTIVE&cursor=${first.cursor}`);
    expect(changed.status).toBe(400);
    expect(changed.json.errors[0].code).toBe("INVALID_CURSOR");
  });
});

describe("listGiftCardActivities", () => {
  let card: GiftCard;
  const made: GiftCardActivity[] = [];

  beforeAll(async () => {
    card = await newCard();
    // Five activities one minute apart on the service's clock.
    const steps: (() => Promise<GiftCardActivity>)[] = [
      () => activate(card, 10_000),
      () => load(card, 1_000),
      () => redeem(card, 500),
      () =>
        act(card, {
          type: "REDEEM",
          location_id: DEMO.secondLocationId,
          redeem_activity_details: { amount_money: usd(700) },
        }),
      () => load(card, 300),
    ];
    for (const step of steps) {
      t.advance(60);
      made.push(await step());
    }
  });

  it("sorts newest first by default, oldest first on request", async () => {
    const desc = await listActivities({ gift_card_id: card.id ?? "" }).all();
    expect(desc.map((a) => a.id)).toEqual(made.map((a) => a.id).reverse());
    const asc = await listActivities({ gift_card_id: card.id ?? "", sort_order: "ASC" }).all();
    expect(asc.map((a) => a.id)).toEqual(made.map((a) => a.id));
  });

  it("filters by type and location", async () => {
    const redeems = await listActivities({ gift_card_id: card.id ?? "", type: "REDEEM" }).all();
    expect(redeems.map((a) => a.id)).toEqual([made[3]?.id, made[2]?.id]);
    const docked = await listActivities({ gift_card_id: card.id ?? "", location_id: DEMO.secondLocationId }).all();
    expect(docked.map((a) => a.id)).toEqual([made[3]?.id]);
    const all = await listActivities({ type: "DEACTIVATE", limit: 100 }).all();
    expect(all.length).toBeGreaterThan(0);
    for (const a of all) expect(a.type).toBe("DEACTIVATE");
    const bad = await t.raw("GET", "/v2/gift-cards/activities?type=STEAL");
    expect(bad.json.errors[0]).toMatchObject({ code: "INVALID_ENUM_VALUE", field: "type" });
  });

  it("takes begin_time and end_time both inclusive", async () => {
    const second = made[1]?.created_at ?? "";
    const fourth = made[3]?.created_at ?? "";
    const window = await listActivities({ gift_card_id: card.id ?? "", begin_time: second, end_time: fourth }).all();
    expect(window.map((a) => a.id)).toEqual([made[3]?.id, made[2]?.id, made[1]?.id]);
    const instant = await listActivities({ gift_card_id: card.id ?? "", begin_time: second, end_time: second }).all();
    expect(instant.map((a) => a.id)).toEqual([made[1]?.id]);
    const bad = await failure(listActivities({ begin_time: fourth, end_time: second }));
    expect(bad.code).toBe("INVALID_TIME_RANGE");
  });

  it("covers the last year up to now by default", async () => {
    const now = t.service.clock.now().getTime();
    const old = { id: "gcact_old_test", created_at: iso(now - 400 * 86_400_000) };
    const future = { id: "gcact_future_test", created_at: iso(now + 3_600_000) };
    for (const a of [old, future]) {
      insertActivity(t.service.db, DEMO.merchantId, {
        ...a,
        type: "ADJUST_INCREMENT",
        location_id: DEMO.mainLocationId,
        gift_card_id: card.id ?? "",
        adjust_increment_activity_details: { amount_money: usd(1), reason: "COMPLIMENTARY" },
      });
    }
    const byDefault = (await listActivities({ gift_card_id: card.id ?? "" }).all()).map((a) => a.id);
    expect(byDefault).not.toContain(old.id);
    expect(byDefault).not.toContain(future.id);
    const wide = (
      await listActivities({
        gift_card_id: card.id ?? "",
        begin_time: iso(now - 500 * 86_400_000),
        end_time: iso(now + 2 * 3_600_000),
      }).all()
    ).map((a) => a.id);
    expect(wide).toContain(old.id);
    expect(wide).toContain(future.id);
    t.service.db.prepare("DELETE FROM gift_card_activities WHERE id IN (?, ?)").run(old.id, future.id);
  });

  it("pages 50 by default and at most 100", async () => {
    const first = await listActivities({});
    expect(first.gift_card_activities).toHaveLength(50);
    expect(first.cursor).toBeTruthy();
    expect((await listActivities({ limit: 100 })).gift_card_activities).toHaveLength(100);
    expect((await failure(listActivities({ limit: 101 }))).code).toBe("VALUE_TOO_HIGH");
    expect((await failure(listActivities({ limit: 0 }))).code).toBe("VALUE_TOO_LOW");
  });

  it("pages with a cursor through every activity once, and refuses it for a changed query", async () => {
    const whole = await listActivities({ limit: 100 }).all();
    const paged = await listActivities({ limit: 9 }).all();
    expect(paged.map((a) => a.id)).toEqual(whole.map((a) => a.id));
    expect(new Set(paged.map((a) => a.id)).size).toBe(paged.length);
    const first = await listActivities({ limit: 9 });
    const changed = await t.raw("GET", `/v2/gift-cards/activities?sort_order=ASC&cursor=${first.cursor}`);
    expect(changed.status).toBe(400);
    expect(changed.json.errors[0].code).toBe("INVALID_CURSOR");
  });

  it("records every type the rules accept with its own details object", async () => {
    const types = new Set<GiftCardActivityType>(made.map((a) => a.type));
    expect([...types].sort()).toEqual(["ACTIVATE", "LOAD", "REDEEM"]);
    for (const a of made) {
      const field = `${a.type.toLowerCase()}_activity_details` as keyof GiftCardActivity;
      expect(a[field]).toBeDefined();
    }
  });
});
