import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pinnedClock, startService, type TestService } from "../../test/helpers/service.js";
import type { GiftCard, GiftCardActivity } from "../spec/generated/types.js";
import { runGiftCardsActivities, runGiftCardsGet, runGiftCardsLiability } from "./giftcards.js";

const NOW = Date.parse("2026-06-15T20:00:00.000Z");
let t: TestService;
let cards: GiftCard[];
const env = { HOME: "/nonexistent", XDG_CONFIG_HOME: "/nonexistent/config", XDG_DATA_HOME: "/nonexistent/data" };

beforeAll(async () => {
  t = await startService({ clock: pinnedClock(NOW) });
  cards = await t.client.giftCards.listGiftCards({ limit: 200 }).all();
});
afterAll(async () => {
  await t.close();
});

const deps = () => ({ open: async () => ({ client: t.client, close: async () => {} }), now: () => new Date(NOW) });

async function run(f: typeof runGiftCardsGet, argv: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const code = await f(argv, { stdout, stderr, stdin: new PassThrough(), env }, deps());
  return { code, out: String(stdout.read() ?? ""), err: String(stderr.read() ?? "") };
}

/** An active card with some history, a linked customer if there is one. */
const withHistory = () =>
  cards.find((c) => c.state === "ACTIVE" && (c.customer_ids?.length ?? 0) > 0) ??
  (cards.find((c) => c.state === "ACTIVE") as GiftCard);

describe("backroom giftcards get", () => {
  it("shows the card in words and its history newest first, by number in groups or by id", async () => {
    const card = withHistory();
    const grouped = (card.gan ?? "").replace(/(\d{4})(?=\d)/g, "$1 ");
    const r = await run(runGiftCardsGet, [grouped]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^Card {7}\d{16} \((physical|digital)\)$/m);
    expect(r.out).toMatch(/^State {6}active$/m);
    expect(r.out).toContain(`Balance    ${(card.balance_money?.amount ?? 0) / 100}`.replace(/(\.\d)$/, "$10"));
    const history = r.out.split("WHEN")[1]?.trim().split("\n").slice(1) ?? [];
    expect(history.length).toBeGreaterThan(0);
    expect(history.at(-1)).toMatch(/ sold /);
    const byId = await run(runGiftCardsGet, [card.id ?? "", "--json"]);
    const json = JSON.parse(byId.out) as { gift_card: GiftCard; activities: GiftCardActivity[] };
    expect(json.gift_card.id).toBe(card.id);
    expect(json.activities).toHaveLength(history.length);
    expect(json.activities[0]?.gift_card_balance_money).toEqual(card.balance_money);
  });

  it("says a number is not registered, and refuses what no card number looks like", async () => {
    const unknown = await run(runGiftCardsGet, ["7783000000000000"]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/no gift card has the number 7783000000000000 .*giftcards activate/);
    const bad = await run(runGiftCardsGet, ["7783/0000"]);
    expect(bad.code).toBe(2);
  });
});

describe("backroom giftcards activities", () => {
  it("lists a card's whole history with --gan, and adds up each kind", async () => {
    const card = withHistory();
    const all = await t.client.giftCards
      .listGiftCardActivities({ gift_card_id: card.id ?? "", begin_time: "2000-01-01T00:00:00Z", limit: 100 })
      .all();
    const r = await run(runGiftCardsActivities, [
      "--gan",
      card.gan ?? "",
      "--from",
      "2025-06-16",
      "--to",
      "2026-06-15",
      "--json",
    ]);
    expect(r.code, r.err).toBe(0);
    expect((JSON.parse(r.out) as GiftCardActivity[]).map((a) => a.id).sort()).toEqual(all.map((a) => a.id).sort());
    const text = await run(runGiftCardsActivities, [
      "--gan",
      card.gan ?? "",
      "--from",
      "2025-06-16",
      "--to",
      "2026-06-15",
    ]);
    const sold = all
      .filter((a) => a.type === "ACTIVATE")
      .reduce((n, a) => n + (a.activate_activity_details?.amount_money?.amount ?? 0), 0);
    expect(text.out).toMatch(
      new RegExp(`^sold +1 +${(sold / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ",")} USD$`, "m"),
    );
  });

  it("filters a location's days by kind, as CSV with a header", async () => {
    const r = await run(runGiftCardsActivities, [
      "--location",
      "main street",
      "--from",
      "2026-01-01",
      "--to",
      "2026-03-31",
      "--type",
      "adjusted",
      "--csv",
    ]);
    expect(r.code, r.err).toBe(0);
    const [header, ...rows] = r.out.trim().split("\r\n");
    expect(header).toBe("time,location,gan,type,what,amount,balance after,currency,note,activity id,card id");
    for (const row of rows) expect(row).toMatch(/,Main Street,\d+,ADJUST_(INCREMENT|DECREMENT),adjusted (up|down),/);
  });

  it("reads every location with --location all, each over its own days, newest first", async () => {
    const range = ["--from", "2026-05-01", "--to", "2026-06-15", "--json"];
    const read = async (where: string) => {
      const r = await run(runGiftCardsActivities, ["--location", where, ...range]);
      expect(r.code, r.err).toBe(0);
      return JSON.parse(r.out) as GiftCardActivity[];
    };
    const [every, main, harbour] = await Promise.all([read("all"), read("main street"), read("harbour dock")]);
    expect(main.length).toBeGreaterThan(0);
    expect(harbour.length).toBeGreaterThan(0);
    expect(every.map((a) => a.id).sort()).toEqual([...main, ...harbour].map((a) => a.id).sort());
    const times = every.map((a) => a.created_at ?? "");
    expect(times).toEqual([...times].sort().reverse());
    const text = await run(runGiftCardsActivities, ["--location", "ALL", "--from", "2026-05-01", "--to", "2026-06-15"]);
    expect(text.out).toMatch(/^Gift card activity, every location, 2026-05-01 – 2026-06-15:$/m);
  });

  it("refuses a kind it does not know and a range the wrong way round", async () => {
    expect((await run(runGiftCardsActivities, ["--type", "spent"])).code).toBe(2);
    const back = await run(runGiftCardsActivities, ["--from", "2026-06-10", "--to", "2026-06-01"]);
    expect(back.code).toBe(2);
    expect(back.err).toMatch(/starts .* after it ends/);
  });
});

describe("backroom giftcards liability", () => {
  it("is the sum of the active cards' balances, blocked ones apart", async () => {
    const r = await run(runGiftCardsLiability, ["--json"]);
    expect(r.code, r.err).toBe(0);
    const sum = (state: string) =>
      cards.filter((c) => c.state === state).reduce((n, c) => n + (c.balance_money?.amount ?? 0), 0);
    expect(JSON.parse(r.out)).toMatchObject({
      currency: "USD",
      active: { cards: cards.filter((c) => c.state === "ACTIVE").length, amount: sum("ACTIVE") },
      blocked: { cards: cards.filter((c) => c.state === "BLOCKED").length, amount: sum("BLOCKED") },
    });
    const text = await run(runGiftCardsLiability, []);
    expect(text.out).toMatch(/^Outstanding on \d+ active cards: [\d,]+\.\d\d USD$/m);
  });
});
