import type { Currency, GiftCardActivity, GiftCardType } from "../../spec/generated/types.js";
import { seedLocations } from "../cash-drawers/seed.js";
import type { SeedContext } from "../seed/context.js";
import { DEMO } from "../seed/demo-ids.js";
import { newSquareGan } from "./gan.js";
import { recordActivity } from "./record.js";
import { type CardRow, findCard, findCardByGan, insertCard } from "./repo.js";

const DAY = 86_400_000;

/** What happens to a demo card over its life. */
type Story = "pending" | "active" | "spent" | "deactivated" | "blocked" | "unblocked";
const STORIES: readonly Story[] = [
  "pending",
  "active",
  "active",
  "active",
  "active",
  "active",
  "active",
  "active",
  "spent",
  "deactivated",
  "blocked",
  "unblocked",
];

/**
 * About sixty gift cards made over the last year, with histories written through the same rules
 * as the interface's: most active with loads and redemptions (some refunded), some spent to zero,
 * a few still pending, blocked, or cleared and deactivated. Some are linked to demo customers.
 */
export function seedGiftCards(s: SeedContext): void {
  const currency = DEMO.currency as Currency;
  const locations = seedLocations(s).map((l) => l.id);
  const customers = (
    s.db.prepare("SELECT id FROM customers WHERE merchant_id = ? ORDER BY id LIMIT 200").all(s.merchantId) as {
      id: string;
    }[]
  ).map((r) => r.id);
  const count = Math.max(1, Math.round(60 * s.scale));
  const now = s.now.getTime();
  const cards: { createdAt: number; story: Story }[] = [];
  for (let i = 0; i < count; i++) {
    cards.push({ createdAt: now - Math.floor(s.rng() * 360 * DAY) - DAY, story: s.rng.pick(STORIES) });
  }
  cards.sort((a, b) => a.createdAt - b.createdAt);

  for (const plan of cards) {
    const type: GiftCardType = s.rng.chance(0.6) ? "PHYSICAL" : "DIGITAL";
    let gan = newSquareGan(s.rng);
    while (findCardByGan(s.db, s.merchantId, gan)) gan = newSquareGan(s.rng);
    const home = s.rng.pick(locations);
    const linked = customers.length > 0 && s.rng.chance(0.3) ? [s.rng.pick(customers)] : [];
    const row: CardRow = {
      id: `gftc:${s.ids.next(32).toLowerCase()}`,
      merchant_id: s.merchantId,
      type,
      gan_source: "SQUARE",
      gan,
      state: "PENDING",
      balance: 0,
      currency,
      location_id: home,
      customer_ids: JSON.stringify(linked),
      created_at: new Date(plan.createdAt).toISOString(),
    };
    insertCard(s.db, row);
    if (plan.story === "pending") continue;
    writeHistory(s, row.id, plan.createdAt, plan.story, locations, currency);
  }
}

/** Lays out one card's activities, each a little after the one before, none in the future. */
function writeHistory(
  s: SeedContext,
  cardId: string,
  createdAt: number,
  story: Story,
  locations: readonly string[],
  currency: Currency,
): void {
  const now = s.now.getTime();
  let at = createdAt + s.rng.int(1, 30) * 60_000;
  const redeems: { id: string; amount: number }[] = [];
  const apply = (input: Omit<GiftCardActivity, "location_id"> & { location_id?: string }): boolean => {
    if (at > now) return false;
    const card = findCard(s.db, s.merchantId, cardId);
    if (!card) return false;
    const id = `gcact_${s.ids.next(32).toLowerCase()}`;
    const { activity } = recordActivity(
      s.db,
      s.merchantId,
      card,
      { ...input, location_id: input.location_id ?? s.rng.pick(locations) } as GiftCardActivity,
      { id, createdAt: new Date(at).toISOString() },
    );
    if (activity.type === "REDEEM") {
      redeems.push({ id, amount: activity.redeem_activity_details?.amount_money?.amount ?? 0 });
    }
    // Each next activity comes within a quarter of the time left, so a story always finishes by now.
    at += Math.floor(s.rng() * ((now - at) / 4));
    return true;
  };
  const money = (amount: number) => ({ amount, currency });
  const balance = () => findCard(s.db, s.merchantId, cardId)?.balance ?? 0;

  apply({
    type: "ACTIVATE",
    activate_activity_details: {
      amount_money: money(s.rng.pick([2_500, 5_000, 5_000, 10_000, 15_000, 20_000])),
      reference_id: `till-${s.ids.next(8)}`,
    },
  });
  const steps = story === "spent" ? 2 : s.rng.int(0, 6);
  for (let i = 0; i < steps; i++) {
    const roll = s.rng();
    if (roll < 0.55 && balance() > 0) {
      const amount = Math.max(1, Math.min(balance(), s.rng.int(5, 80) * 100 + s.rng.pick([0, 49, 99])));
      apply({ type: "REDEEM", redeem_activity_details: { amount_money: money(amount), payment_id: s.ids.next(22) } });
    } else if (roll < 0.8) {
      apply({ type: "LOAD", load_activity_details: { amount_money: money(s.rng.pick([1_000, 2_500, 5_000])) } });
    } else if (roll < 0.9 && redeems.length > 0) {
      const r = s.rng.pick(redeems);
      apply({
        type: "REFUND",
        refund_activity_details: {
          redeem_activity_id: r.id,
          amount_money: money(Math.max(1, Math.floor(r.amount / 2))),
        },
      });
      redeems.splice(redeems.indexOf(r), 1);
    } else {
      apply({
        type: "ADJUST_INCREMENT",
        adjust_increment_activity_details: { amount_money: money(500), reason: "COMPLIMENTARY" },
      });
    }
  }
  switch (story) {
    case "spent":
      if (balance() > 0) {
        apply({
          type: "REDEEM",
          redeem_activity_details: { amount_money: money(balance()), payment_id: s.ids.next(22) },
        });
      }
      break;
    case "deactivated":
      if (balance() > 0)
        apply({ type: "CLEAR_BALANCE", clear_balance_activity_details: { reason: "SUSPICIOUS_ACTIVITY" } });
      apply({ type: "DEACTIVATE", deactivate_activity_details: { reason: "SUSPICIOUS_ACTIVITY" } });
      break;
    case "blocked":
      apply({ type: "BLOCK", block_activity_details: { reason: "CHARGEBACK_BLOCK" } });
      break;
    case "unblocked":
      if (apply({ type: "BLOCK", block_activity_details: { reason: "CHARGEBACK_BLOCK" } })) {
        apply({ type: "UNBLOCK", unblock_activity_details: { reason: "CHARGEBACK_UNBLOCK" } });
      }
      break;
    default:
      break;
  }
}
