import { mkdtempSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type TestService } from "../../test/helpers/service.js";
import { mintToken } from "../../test/reliability/section-auth.js";
import { luhnCheckDigit } from "../domain/gan.js";
import { ALL_SCOPES } from "../service/tokens.js";
import type { GiftCard } from "../spec/generated/types.js";
import { createClient, type SquareClient } from "../square/index.js";
import { runGiftCardsActivate } from "./giftcards-box.js";
import { runGiftCardWrite, type ScriptWrite, WRITE_SPECS } from "./giftcards-write.js";

let t: TestService;
let keys = 0;
const home = mkdtempSync(join(tmpdir(), "backroom-giftcards-write-"));
const env = { HOME: home, XDG_CONFIG_HOME: join(home, "config"), XDG_DATA_HOME: join(home, "data") };

beforeAll(async () => {
  t = await startService();
});
afterAll(async () => {
  await t.close();
});

const depsFor = (client: SquareClient) => ({
  open: async () => ({ client, close: async () => {} }),
  newKey: () => `write-test-${++keys}`,
  journalPath: join(home, "giftcards.db"),
});

async function run(argv: string[], which?: Exclude<ScriptWrite, "activate">, client = t.client) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const io = { stdout, stderr, stdin: new PassThrough(), env };
  const code = which
    ? await runGiftCardWrite(which, WRITE_SPECS[which], argv, io, depsFor(client))
    : await runGiftCardsActivate(argv, io, depsFor(client));
  return { code, out: String(stdout.read() ?? ""), err: String(stderr.read() ?? "") };
}

async function cardOf(gan: string): Promise<GiftCard> {
  return (await t.client.giftCards.retrieveGiftCardFromGAN({ gan })).gift_card as GiftCard;
}

async function historyLength(card: GiftCard): Promise<number> {
  const all = await t.client.giftCards
    .listGiftCardActivities({ gift_card_id: card.id ?? "", begin_time: "2000-01-01T00:00:00Z", limit: 100 })
    .all();
  return all.length;
}

const gan = (n: number) => {
  const body = `778377${String(n).padStart(9, "0")}`;
  return body + luhnCheckDigit(body);
};

describe("backroom giftcards writes", () => {
  it("registers and activates a new number, then loads, adjusts, blocks, unblocks, clears and deactivates it", async () => {
    const number = gan(1);
    const sold = await run([number, "--amount", "40", "--paid-with", "cash", "--yes"]);
    expect(sold.out, sold.err).toBe(`Activated card ${number} with 40.00 USD: balance 0.00 → 40.00 USD.\n`);
    expect(await cardOf(number)).toMatchObject({ type: "PHYSICAL", state: "ACTIVE", balance_money: { amount: 4000 } });
    const steps: [Exclude<ScriptWrite, "activate">, string[], string, number][] = [
      ["load", ["--amount", "$12.50", "--paid-with", "card-1,cash"], "Loaded 12.50 USD", 5250],
      ["adjust", ["--amount", "2", "--reason", "complimentary"], "Added 2.00 USD", 5450],
      ["adjust", ["--amount", "(4.50)", "--reason", "support_issue"], "Took 4.50 USD off", 5000],
      ["block", [], "Blocked card", 5000],
      ["unblock", [], "Unblocked card", 5000],
      ["clear", ["--reason", "reuse giftcard"], "Cleared card", 0],
      ["deactivate", [], "Deactivated card", 0],
    ];
    for (const [which, args, said, balance] of steps) {
      const r = await run([number, ...args, "--yes"], which);
      expect(r.code, `${which}: ${r.err}`).toBe(0);
      expect(r.out).toContain(said);
      expect((await cardOf(number)).balance_money?.amount, which).toBe(balance);
    }
    expect((await cardOf(number)).state).toBe("DEACTIVATED");
  });

  it("refuses a decrement past the balance before anything is sent", async () => {
    const number = gan(2);
    await run([number, "--amount", "10", "--paid-with", "cash", "--yes"]);
    const card = await cardOf(number);
    const before = await historyLength(card);
    const r = await run([number, "--amount", "-10.01", "--reason", "support issue", "--yes"], "adjust");
    expect(r.code).toBe(1);
    expect(r.err).toContain("not sent: The card holds 10.00 USD; 10.01 USD cannot be taken off it.");
    expect(await historyLength(card)).toBe(before);
  });

  it("asks on a terminal only: from a pipe without --yes it refuses and sends nothing", async () => {
    const number = gan(3);
    await run([number, "--amount", "10", "--paid-with", "cash", "--yes"]);
    const r = await run([number, "--amount", "5", "--paid-with", "cash"], "load");
    expect(r.code).toBe(2);
    expect(r.err).toContain("Load 5.00 USD onto card");
    expect(r.err).toContain("Balance 10.00 → 15.00 USD.");
    expect(r.err).toContain("add --yes");
    expect((await cardOf(number)).balance_money?.amount).toBe(1000);
  });

  it("explains a missing payment, a reason the interface does not take, and an amount with too many decimals", async () => {
    const number = gan(4);
    const unpaid = await run([number, "--amount", "10", "--yes"]);
    expect(unpaid.code).toBe(2);
    expect(unpaid.err).toMatch(/--paid-with is required/);
    await run([number, "--amount", "10", "--paid-with", "cash", "--yes"]);
    const reason = await run([number, "--amount", "-1", "--reason", "complimentary", "--yes"], "adjust");
    expect(reason.code).toBe(2);
    expect(reason.err).toMatch(/"complimentary" is not a reason to adjust down/);
    const cents = await run([number, "--amount", "1.005", "--paid-with", "cash", "--yes"], "load");
    expect(cents.code).toBe(2);
    expect(cents.err).toMatch(/USD has 2 decimals at most/);
  });

  it("is refused, before asking, for a sign-in without permission to change gift cards", async () => {
    const number = gan(5);
    await run([number, "--amount", "10", "--paid-with", "cash", "--yes"]);
    const scopes = ALL_SCOPES.filter((s) => s !== "GIFTCARDS_WRITE");
    const token = await mintToken(t.url, t.service.clientId, t.service.clientSecret, scopes);
    const readOnly = createClient({ baseUrl: t.url, accessToken: token, maxRetries: 0 });
    try {
      const r = await run([number, "--amount", "5", "--paid-with", "cash", "--yes"], "load", readOnly);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/not given permission to change gift cards \(GIFTCARDS_WRITE\)/);
      expect((await cardOf(number)).balance_money?.amount).toBe(1000);
    } finally {
      await readOnly.close();
    }
  });
});

describe("backroom giftcards activate --file", () => {
  it("activates a box, lists each card, refuses bad lines, and leaves cards alone the second time", async () => {
    const file = join(home, "box.csv");
    const numbers = [gan(10), gan(11), gan(12)];
    writeFileSync(file, `gan\n${numbers.join("\n")}\n${gan(10)}\n`);
    const first = await run(["--file", file, "--amount", "25.00", "--paid-with", "cash", "--yes"]);
    expect(first.code).toBe(3);
    for (const n of numbers) expect(first.out).toMatch(new RegExp(`${n} +activated`));
    expect(first.out).toMatch(/line 5 .* refused — the same card number as line 2/);
    expect(first.err).toContain("4 cards: 3 activated, 0 already active — left alone, 1 refused.");
    writeFileSync(file, `${numbers.join("\n")}\n`);
    const again = await run(["--file", file, "--amount", "25.00", "--paid-with", "cash", "--yes", "--json"]);
    expect(again.code).toBe(0);
    const records = JSON.parse(again.out) as { outcome: string }[];
    expect(records.map((r) => r.outcome)).toEqual(["left-alone", "left-alone", "left-alone"]);
    for (const n of numbers) expect((await cardOf(n)).balance_money?.amount).toBe(2500);
  });

  it("refuses a file larger than a box by its size, before reading it or sending anything", async () => {
    const file = join(home, "cards-dump.csv");
    writeFileSync(file, "");
    truncateSync(file, Math.round(2.5 * 1024 * 1024));
    const r = await run(["--file", file, "--amount", "25.00", "--paid-with", "cash", "--yes"]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `backroom giftcards activate: ${file} is 2.5 MB; a file of gift card numbers may be up to 2 MB (10,000 cards). Split the box into smaller files; nothing was activated.\n`,
    );
  });
});
