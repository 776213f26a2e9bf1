import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGiftCardWrite, WRITE_SPECS } from "../src/commands/giftcards-write.js";
import type { GiftCard, GiftCardActivity } from "../src/spec/generated/types.js";
import { createClient, type SquareClient } from "../src/square/client.js";
import { startService, type TestService } from "./helpers/service.js";
import { type ProxyAction, startFaultProxy } from "./stocktake-helpers.js";

// `backroom giftcards load` under the service's faults and a network that loses answers: however
// often the transport sends the load again (under its one idempotency key), the balance changes once.
const ACTIVITIES = "/v2/gift-cards/activities";
let t: TestService;

beforeAll(async () => {
  t = await startService();
});
afterAll(async () => {
  await t.close();
});

async function activeCard(skip: number): Promise<GiftCard> {
  const cards = await t.client.giftCards.listGiftCards({ state: "ACTIVE", limit: 200 }).all();
  return cards[skip] as GiftCard;
}

async function loadsOf(card: GiftCard): Promise<GiftCardActivity[]> {
  return t.client.giftCards
    .listGiftCardActivities({ gift_card_id: card.id ?? "", type: "LOAD", begin_time: card.created_at ?? "" })
    .all();
}

/** `giftcards load GAN --amount 7.25 --paid-with cash --yes` through `client`. */
async function load(client: SquareClient, card: GiftCard) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const code = await runGiftCardWrite(
    "load",
    WRITE_SPECS.load,
    [card.gan ?? "", "--amount", "7.25", "--paid-with", "cash", "--yes"],
    { stdout, stderr, stdin: new PassThrough(), env: { HOME: "/nonexistent" } },
    { open: async () => ({ client, close: async () => {} }) },
  );
  return { code, out: String(stdout.read() ?? ""), err: String(stderr.read() ?? "") };
}

/** The client a command gets: the transport's own retries (2), short waits for the test. */
const clientTo = (baseUrl: string) =>
  createClient({ baseUrl, accessToken: t.service.accessToken, baseDelayMs: 5, maxDelayMs: 50 });

describe("giftcards load through faults", () => {
  it("503 twice, then success: loaded once", async () => {
    const card = await activeCard(0);
    const before = card.balance_money?.amount ?? 0;
    const loads = (await loadsOf(card)).length;
    await t.raw("POST", "/_emulator/faults", {
      body: { operation: "CreateGiftCardActivity", status: 503, code: "SERVICE_UNAVAILABLE", count: 2 },
    });
    const client = clientTo(t.url);
    try {
      const r = await load(client, card);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toContain("Loaded 7.25 USD onto card");
      const faults = await t.raw("GET", "/_emulator/faults");
      expect(faults.json.faults.map((f: { remaining: number }) => f.remaining)).toEqual([0]);
    } finally {
      await client.close();
      await t.raw("DELETE", "/_emulator/faults");
    }
    const after = (await t.client.giftCards.retrieveGiftCard(card.id ?? "")).gift_card;
    expect(after?.balance_money?.amount).toBe(before + 725);
    expect(await loadsOf(card)).toHaveLength(loads + 1);
  });

  it("the connection dropped after the service answered: sent again under its key, loaded once", async () => {
    const card = await activeCard(1);
    const before = card.balance_money?.amount ?? 0;
    const loads = (await loadsOf(card)).length;
    const plan: ProxyAction[] = ["drop-after", "drop-after"];
    const proxy = await startFaultProxy(t.url, () => plan.shift() ?? "pass", ACTIVITIES);
    const client = clientTo(proxy.url);
    try {
      const r = await load(client, card);
      expect(r.code, r.err).toBe(0);
      // The service applied the first request; its answer never arrived, and neither did the second's.
      expect(proxy.log).toEqual(["drop-after", "drop-after", "pass"]);
    } finally {
      await client.close();
      await proxy.close();
    }
    const after = (await t.client.giftCards.retrieveGiftCard(card.id ?? "")).gift_card;
    expect(after?.balance_money?.amount).toBe(before + 725);
    expect(await loadsOf(card)).toHaveLength(loads + 1);
  });
});
