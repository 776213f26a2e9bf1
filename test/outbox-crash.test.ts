import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KeptWrite } from "../src/domain/kept-writes.js";
import { type Outbox, openOutbox, outboxPath } from "../src/local/outbox.js";
import type { Customer, GiftCard } from "../src/spec/generated/types.js";
import type { SquareClient } from "../src/square/client.js";
import { until } from "./helpers/cli-process.js";
import { type CrashRig, startCrashRig } from "./helpers/crash-rig.js";

// The outbox sent by the real CLI (`backroom outbox send`, bundled from source) in a process of its
// own against `backroom serve` on a file: killed with SIGKILL in the middle and started again, and
// two of them started at once on the same outbox. Nothing kept is lost, and nothing is made twice.
const TOKEN = "outbox-crash-token";
/** How long the service holds each write, so a run is still going when it is killed. */
const LATENCY_MS = 150;
let rig: CrashRig;
let url = "";
let client: SquareClient;
let file = "";
const send = () => rig.run(["outbox", "send", "--base-url", url]);

beforeAll(async () => {
  rig = await startCrashRig("outbox-crash", TOKEN);
  ({ url, client } = rig);
  file = outboxPath(join(rig.dir, "data", "backroom"));
}, 120_000);

afterAll(async () => {
  await rig?.close();
});

const slow = (operation: string) =>
  fetch(`${url}/_emulator/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ operation, latency_ms: LATENCY_MS }),
  });

/**
 * Keeps `count` pairs of writes as the app keeps them offline, alternating: a load of 1.00 onto
 * the card (with its key), and an edit of the profile's note (no key: its version guards it).
 */
async function keepWrites(box: Outbox, tag: string, count: number, locationId: string, cardIndex: number) {
  // Each test its own card: the loads counted are that card's.
  const card = (await client.giftCards.listGiftCards({ state: "ACTIVE", limit: 200 }).all())[cardIndex] as GiftCard;
  const made = await client.customers.createCustomer({ given_name: "Crash", family_name: tag });
  const customer = made.customer as Customer & { id: string };
  const money = (amount: number) => ({ amount, currency: "USD" as const });
  const balance = card.balance_money?.amount ?? 0;
  const service = `local ${url}`;
  const keep = (write: KeptWrite, key: string) =>
    box.add(
      {
        service,
        idempotencyKey: key,
        write,
        label: `${write.kind} ${key}`,
        baseVersion: undefined,
        actedAt: new Date().toISOString(),
        actor: "test",
        locationId: undefined,
        state: "kept",
      },
      new Date().toISOString(),
    );
  for (let i = 1; i <= count; i++) {
    const key = `${tag}-load-${i}`;
    keep(
      {
        kind: "gift-card",
        gan: card.gan ?? "",
        cardId: card.id ?? "",
        request: {
          idempotency_key: key,
          gift_card_activity: {
            type: "LOAD",
            location_id: locationId,
            gift_card_id: card.id ?? "",
            load_activity_details: { amount_money: money(100), buyer_payment_instrument_ids: ["cash"] },
          },
        },
        before: money(balance + (i - 1) * 100),
        after: money(balance + i * 100),
      },
      key,
    );
    keep(
      {
        kind: "update-customer",
        customer: { kind: "known", id: customer.id, base: customer },
        update: { note: `note ${i}`, version: customer.version ?? 0 },
      },
      `${tag}-note-${i}`,
    );
  }
  return { card, customer, service, balance };
}

/** What a run of writes left at the service: the card's balance and loads since `t0`, the profile's note and version. */
async function atService(card: GiftCard, customer: Customer, t0: string) {
  const now = (await client.giftCards.retrieveGiftCard(card.id ?? "")).gift_card;
  const loads = await client.giftCards
    .listGiftCardActivities({ gift_card_id: card.id ?? "", type: "LOAD", begin_time: t0 })
    .all();
  const profile = (await client.customers.retrieveCustomer(customer.id ?? "")).customer;
  return { balance: now?.balance_money?.amount, loads: loads.length, note: profile?.note, version: profile?.version };
}

describe("the outbox sent by another process", () => {
  it("killed with SIGKILL while sending, then started again: nothing lost, nothing made twice", async () => {
    const locations = (await client.locations.listLocations()).locations ?? [];
    const locationId = locations[0]?.id ?? "";
    const t0 = new Date(Date.now() - 1000).toISOString();
    const box = await openOutbox(file);
    const { card, customer, service, balance } = await keepWrites(box, "crash", 10, locationId, 0);
    box.close();
    expect((await slow("CreateGiftCardActivity")).status).toBe(200);
    expect((await slow("UpdateCustomer")).status).toBe(200);

    const first = send();
    const watch = await openOutbox(file);
    await until("some writes sent", () => {
      if (first.child.exitCode !== null) throw new Error(`it finished before it was killed:\n${first.output()}`);
      const left = watch.open(service).length;
      return left <= 14 ? left : undefined;
    });
    first.child.kill("SIGKILL");
    expect((await first.exit).signal).toBe("SIGKILL");
    const leftAtKill = watch.open(service);
    expect(leftAtKill.length).toBeGreaterThan(0);
    expect(leftAtKill.length).toBeLessThan(20);
    watch.close();

    await fetch(`${url}/_emulator/faults`, { method: "DELETE" });
    const second = send();
    expect((await second.exit).code, second.output()).toBe(0);
    expect(second.stdout()).toContain(`${leftAtKill.length} sent, 0 refused, 0 still kept.`);
    const after = await openOutbox(file);
    expect(after.open(service)).toEqual([]);
    after.close();
    expect(await atService(card, customer, t0)).toEqual({
      balance: balance + 1000,
      loads: 10,
      note: "note 10",
      version: (customer.version ?? 0) + 10,
    });
  }, 120_000);

  it("sent by two backrooms at once: each write goes out once, from one of them", async () => {
    const locationId = (await client.locations.listLocations()).locations?.[0]?.id ?? "";
    const t0 = new Date(Date.now() - 1000).toISOString();
    const box = await openOutbox(file);
    const { card, customer, service, balance } = await keepWrites(box, "twice", 8, locationId, 1);
    const first = box.open(service)[0]?.seq ?? 0;
    box.close();
    await slow("CreateGiftCardActivity");
    await slow("UpdateCustomer");
    const [a, b] = [send(), send()];
    const [ea, eb] = await Promise.all([a.exit, b.exit]);
    await fetch(`${url}/_emulator/faults`, { method: "DELETE" });
    expect([ea.code, eb.code], `${a.output()}\n${b.output()}`).toEqual([0, 0]);
    const sentBy = (p: typeof a) =>
      p
        .stdout()
        .split("\n")
        .filter((l) => l.startsWith("sent "))
        .map((l) => l.slice(9));
    const all = [...sentBy(a), ...sentBy(b)];
    // Each write was sent by exactly one of them, and tried once.
    expect(all.sort()).toEqual([...new Set(all)].sort());
    expect(all).toHaveLength(16);
    const settled = await openOutbox(file);
    const tries = settled
      .answersBefore(service, Number.MAX_SAFE_INTEGER)
      .filter((e) => e.seq >= first)
      .map((e) => e.attempts);
    settled.close();
    expect(tries).toEqual(Array.from({ length: 16 }, () => 1));
    expect(await atService(card, customer, t0)).toEqual({
      balance: balance + 800,
      loads: 8,
      note: "note 8",
      version: (customer.version ?? 0) + 8,
    });
  }, 120_000);
});
