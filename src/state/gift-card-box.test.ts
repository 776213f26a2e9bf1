import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startService, type TestService } from "../../test/helpers/service.js";
import { luhnCheckDigit } from "../domain/gan.js";
import { type BoxRun, type GiftCardJournal, openGiftCardJournal } from "../local/gift-card-journal.js";
import type { GiftCard } from "../spec/generated/types.js";
import { boxReference, boxRequests, runBox } from "./gift-card-box.js";
import { cardActivities, type KnownCard, sendWrite } from "./gift-cards-io.js";

let t: TestService;
/** The demo store's first location, read from the service (state tests do not reach into its seed). */
let here = { id: "", merchantId: "" };
let journal: GiftCardJournal;
let runs = 0;
let keys = 0;
const newKey = () => `box-test-key-${++keys}`;
const now = () => new Date("2026-03-02T10:00:00Z");

/** A Square number no demo card has: prefix 7783 99, a serial, its check digit. */
const gan = (n: number) => {
  const body = `778399${String(n).padStart(9, "0")}`;
  return body + luhnCheckDigit(body);
};

beforeAll(async () => {
  t = await startService();
  const [first] = (await t.client.locations.listLocations()).locations ?? [];
  here = { id: first?.id ?? "", merchantId: first?.merchant_id ?? "" };
  journal = await openGiftCardJournal(":memory:");
});
afterEach(async () => {
  await t.raw("DELETE", "/_emulator/faults");
});
afterAll(async () => {
  journal.close();
  await t.close();
});

function start(numbers: readonly string[]): BoxRun {
  const id = `run-${++runs}`;
  return journal.startRun(
    {
      id,
      merchantId: here.merchantId,
      locationId: here.id,
      locationName: "Main Street",
      currency: "USD",
      amount: 2500,
      payment: { kind: "instruments", ids: ["cash"] },
      file: "box.csv",
      cardsHash: id,
      startedAt: now().toISOString(),
    },
    numbers.map((g, i) => ({ line: i + 1, gan: g })),
    newKey,
  );
}

async function card(number: string): Promise<KnownCard> {
  return (await t.client.giftCards.retrieveGiftCardFromGAN({ gan: number })).gift_card as KnownCard;
}

describe("a box of cards", () => {
  it("registers and activates new numbers, activates a pending card, leaves an active one alone, refuses a blocked one", async () => {
    const pending = (await t.client.giftCards.createGiftCard({ location_id: here.id, gift_card: { type: "PHYSICAL" } }))
      .gift_card as GiftCard;
    const cards = await t.client.giftCards.listGiftCards({ limit: 200 }).all();
    const active = cards.find((c) => c.state === "ACTIVE") as GiftCard;
    const blocked = cards.find((c) => c.state === "BLOCKED") as GiftCard;
    const numbers = [gan(1), gan(2), pending.gan ?? "", active.gan ?? "", blocked.gan ?? ""];
    const run = start(numbers);
    const told: string[] = [];
    const outcome = await runBox(run, { client: t.client.giftCards, journal, now, onCard: (c) => told.push(c.gan) });
    expect(outcome.kind).toBe("finished");
    expect(outcome.cards.map((c) => c.state)).toEqual(["activated", "activated", "activated", "left-alone", "refused"]);
    expect(outcome.cards[4]?.problem).toBe("the card is blocked and cannot be activated");
    expect(told.sort()).toEqual([...numbers].sort());
    for (const n of [gan(1), gan(2), pending.gan ?? ""]) {
      const c = await card(n);
      expect(c).toMatchObject({ state: "ACTIVE", balance_money: { amount: 2500, currency: "USD" } });
      if (n !== pending.gan) expect(c.type).toBe("PHYSICAL");
      const sales = await cardActivities(t.client.giftCards, c, "ACTIVATE");
      expect(sales.map((a) => a.activate_activity_details?.reference_id)).toEqual([boxReference(run.id)]);
    }
    expect(journal.run(run.id)?.finishedAt).toBeDefined();
  });

  it("stops when the service fails, keeps the rest journaled, and a second run finishes without selling any card twice", async () => {
    const numbers = Array.from({ length: 12 }, (_, i) => gan(100 + i));
    const run = start(numbers);
    await t.raw("POST", "/_emulator/faults", {
      body: { operation: "CreateGiftCardActivity", status: 503, code: "SERVICE_UNAVAILABLE", count: 1 },
    });
    const first = await runBox(run, { client: t.client.giftCards, journal, now, concurrency: 1 });
    expect(first.kind).toBe("stopped");
    if (first.kind === "stopped") expect(first.problem.headline).toMatch(/service had a problem/);
    // The card whose sale failed was journaled as sent before its request went out.
    expect(first.cards[0]).toMatchObject({ state: "sent", attempts: 1 });
    expect(first.cards[0]?.activate?.idempotency_key).toBe(first.cards[0]?.activateKey);
    expect(first.cards.slice(1).every((c) => c.state === "planned")).toBe(true);
    expect(journal.run(run.id)?.finishedAt).toBeUndefined();

    const second = await runBox(run, { client: t.client.giftCards, journal, now });
    expect(second.kind).toBe("finished");
    expect(second.cards.every((c) => c.state === "activated")).toBe(true);
    expect(second.cards[0]?.attempts).toBe(2);
    for (const n of numbers) {
      const sales = await cardActivities(t.client.giftCards, await card(n), "ACTIVATE");
      expect(sales, n).toHaveLength(1);
    }
  });

  it("sends a card marked sent again under its keys: the service answers its first sale, nothing twice", async () => {
    const run = start([gan(200)]);
    const [row] = journal.cards(run.id);
    if (!row) throw new Error("no card");
    const made = boxRequests(run, row, false);
    if (!made.ok) throw new Error(made.problem);
    // A first run journaled the requests, sent them, and died before the answer came back.
    journal.markSent(run.id, row.seq, made, now().toISOString());
    await sendWrite(t.client.giftCards, { gan: row.gan, register: made.register, activity: made.activate });
    const out = await runBox(run, { client: t.client.giftCards, journal, now });
    expect(out.cards[0]).toMatchObject({ state: "activated", attempts: 2 });
    const sales = await cardActivities(t.client.giftCards, await card(gan(200)), "ACTIVATE");
    expect(sales).toHaveLength(1);
  });

  it("knows its own sale by the reference even when the journal never heard it was sent", async () => {
    const run = start([gan(300)]);
    const [row] = journal.cards(run.id);
    if (!row) throw new Error("no card");
    const made = boxRequests(run, row, false);
    if (!made.ok) throw new Error(made.problem);
    await sendWrite(t.client.giftCards, { gan: row.gan, register: made.register, activity: made.activate });
    const out = await runBox(run, { client: t.client.giftCards, journal, now });
    expect(out.cards[0]).toMatchObject({ state: "activated", attempts: 0 });
  });

  it("refuses a number no card can have without sending anything", async () => {
    const run = start(["7783000000000001"]);
    const out = await runBox(run, { client: t.client.giftCards, journal, now });
    expect(out.cards[0]).toMatchObject({ state: "refused", attempts: 0 });
    expect(out.cards[0]?.problem).toMatch(/check digit/);
  });
});
