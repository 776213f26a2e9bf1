import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { luhnCheckDigit } from "../src/domain/gan.js";
import { type GiftCardJournal, giftCardJournalPath, openGiftCardJournal } from "../src/local/gift-card-journal.js";
import type { GiftCard } from "../src/spec/generated/types.js";
import { createClient, type SquareClient } from "../src/square/client.js";
import { cliEnv, spawnCli, until } from "./helpers/cli-process.js";
import { buildCli, type ServeProcess, startServe } from "./reliability/serve-process.js";

// The crash the gift card journal is for: `backroom giftcards activate --file` killed with SIGKILL
// in the middle of a box of 200 new cards, then the same command again. Both are the real CLI,
// bundled from source, each in its own process, against `backroom serve` on a file.
const dir = mkdtempSync(join(tmpdir(), "backroom-giftcards-crash-"));
const bundleDir = join(process.cwd(), "node_modules", ".cache", `backroom-giftcards-${process.pid}`);
const bundle = join(bundleDir, "backroom.mjs");
const TOKEN = "giftcards-crash-token";
const CARDS = 200;
/** How long the service holds each sale, so the run is still going when it is killed. */
const LATENCY_MS = 120;
const running: ChildProcess[] = [];
let serve: ServeProcess | undefined;
let url = "";
let client: SquareClient;

const env = cliEnv(dir, TOKEN);

const run = (args: string[]) => spawnCli(bundle, args, env, running);

/** New Square numbers no demo card has: prefix 7783 88, a serial, the check digit. */
const numbers = Array.from({ length: CARDS }, (_, i) => {
  const body = `778388${String(i).padStart(9, "0")}`;
  return body + luhnCheckDigit(body);
});

beforeAll(async () => {
  serve = await startServe(buildCli(bundleDir), ["--db", join(dir, "store.db"), "--access-token", TOKEN]);
  url = serve.url;
  client = createClient({ baseUrl: url, accessToken: TOKEN, maxRetries: 0 });
}, 120_000);

afterAll(async () => {
  await client?.close();
  await serve?.kill("SIGKILL");
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
  rmSync(bundleDir, { recursive: true, force: true });
});

describe("a box of gift cards killed halfway", () => {
  it("is finished by running it again: 200 active cards, exactly one sale each, no accepted card sent again", async () => {
    const merchantId = (await client.locations.listLocations()).locations?.[0]?.merchant_id ?? "";
    const file = join(dir, "cards.csv");
    writeFileSync(file, `${numbers.join("\n")}\n`);
    const fault = await fetch(`${url}/_emulator/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ operation: "CreateGiftCardActivity", status: 200, latency_ms: LATENCY_MS }),
    });
    expect(fault.status).toBe(200);
    const args = ["giftcards", "activate", "--file", file, "--amount", "25.00", "--location", "Main Street"];
    const more = ["--paid-with", "cash", "--yes", "--base-url", url];
    const first = run([...args, ...more]);

    const path = giftCardJournalPath(join(dir, "data", "backroom"));
    await until("the journal file", () => (existsSync(path) ? true : undefined));
    let journal: GiftCardJournal = await openGiftCardJournal(path);
    // Killed as soon as the journal shows a card activated while another's sale is on its way.
    const runId = await until("a card activated", () => {
      if (first.child.exitCode !== null || first.child.signalCode !== null) {
        throw new Error(`the run finished before it could be killed; it said:\n${first.output()}`);
      }
      const [r] = journal.unfinished(merchantId);
      if (!r) return undefined;
      const cards = journal.cards(r.id);
      const midway = cards.some((c) => c.state === "activated") && cards.some((c) => c.state === "sent");
      return midway ? r.id : undefined;
    });
    first.child.kill("SIGKILL");
    expect((await first.exit).signal).toBe("SIGKILL");

    const atKill = journal.cards(runId);
    const doneAtKill = atKill.filter((c) => c.state === "activated");
    expect(atKill).toHaveLength(CARDS);
    expect(doneAtKill.length).toBeGreaterThan(0);
    // Cards still to do. Requests on their way when it died (the service may have them) are
    // usually there too, but their answers may land in the moment between the look and the kill.
    expect(atKill.filter((c) => c.state === "planned").length).toBeGreaterThan(0);
    const sentAtKill = atKill.filter((c) => c.state === "sent");
    expect(journal.run(runId)?.finishedAt).toBeUndefined();
    journal.close();

    await fetch(`${url}/_emulator/faults`, { method: "DELETE" });
    const second = run([...args, ...more]);
    const done = await second.exit;
    expect(done.code, second.output()).toBe(0);
    expect(second.output()).toContain("Finishing the run of these cards");
    expect(second.output()).toContain(`${CARDS} cards: ${CARDS} activated, 0 already active — left alone, 0 refused.`);
    // Every card is reported once: settled earlier, or now.
    for (const n of numbers) expect(second.stdout().split(n).length - 1, n).toBe(1);

    journal = await openGiftCardJournal(path);
    expect(journal.run(runId)?.finishedAt).toBeDefined();
    const after = journal.cards(runId);
    for (const c of doneAtKill) expect(after.find((x) => x.seq === c.seq)?.attempts, c.gan).toBe(c.attempts);
    // A card sent when it died was sent again under the same key, and is sold once (checked below).
    for (const c of sentAtKill) {
      const again = after.find((x) => x.seq === c.seq);
      expect(again?.attempts, c.gan).toBe(c.attempts + 1);
      expect(again?.activate?.idempotency_key, c.gan).toBe(c.activateKey);
    }
    journal.close();

    for (const n of numbers) {
      const card = (await client.giftCards.retrieveGiftCardFromGAN({ gan: n })).gift_card as GiftCard;
      expect(card, n).toMatchObject({
        state: "ACTIVE",
        type: "PHYSICAL",
        balance_money: { amount: 2500, currency: "USD" },
      });
      const sales = await client.giftCards
        .listGiftCardActivities({ gift_card_id: card.id ?? "", type: "ACTIVATE", begin_time: card.created_at ?? "" })
        .all();
      expect(sales, n).toHaveLength(1);
    }
  }, 120_000);
});
