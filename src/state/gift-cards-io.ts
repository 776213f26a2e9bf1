// Gift cards on the wire, shared by the screen's slice and the `backroom giftcards` commands: look
// a card up, read its history, a location's activity and the liability, and send one write —
// planned once (checked, its requests built and its idempotency keys minted), then sent as often
// as it takes with the same keys, so the balance changes once.
import { customerName } from "../domain/customers.js";
import { ganToRegister } from "../domain/gan.js";
import { type Liability, liability } from "../domain/gift-card-activity.js";
import {
  activityFor,
  type BalanceChange,
  balanceChange,
  type CardBefore,
  type CardQuery,
  cardBefore,
  describeWrite,
  type GiftCardWrite,
  type WritePart,
  writeCheck,
} from "../domain/gift-cards.js";
import type {
  CreateGiftCardActivityRequest,
  CreateGiftCardRequest,
  GiftCard,
  GiftCardActivity,
  GiftCardActivityType,
} from "../spec/generated/types.js";
import { SquareApiError } from "../square/errors.js";
import type { SquareClient } from "../square/index.js";

/** The part of the client gift cards use. */
export type GiftCardsClient = Pick<
  SquareClient["giftCards"],
  | "listGiftCards"
  | "createGiftCard"
  | "retrieveGiftCard"
  | "retrieveGiftCardFromGAN"
  | "listGiftCardActivities"
  | "createGiftCardActivity"
>;

/** A card as read: it has an id. */
export type KnownCard = GiftCard & { id: string };

/** What a look-up found: the card, a number the service does not know yet, or no card with that id. */
export type LookedUp =
  | { kind: "found"; card: KnownCard }
  | { kind: "unknown"; gan: string }
  | { kind: "no-such-id"; id: string };

const notFound = (err: unknown) => err instanceof SquareApiError && err.status === 404;

/** Looks a card up by its number or id; a 404 is an answer ("not known"), anything else a failure. */
export async function lookUpCard(client: GiftCardsClient, query: CardQuery): Promise<LookedUp> {
  try {
    const card =
      query.kind === "gan"
        ? (await client.retrieveGiftCardFromGAN({ gan: query.gan })).gift_card
        : (await client.retrieveGiftCard(query.id)).gift_card;
    if (card?.id) return { kind: "found", card: card as KnownCard };
  } catch (err) {
    if (!notFound(err)) throw err;
  }
  return query.kind === "gan" ? { kind: "unknown", gan: query.gan } : { kind: "no-such-id", id: query.id };
}

/** The epoch, for a history read from a card's very beginning when its creation time is not given. */
const BEGINNING = "1970-01-01T00:00:00Z";

/**
 * Every activity of a card, newest first. The interface reads the last year unless told
 * otherwise, so the read starts at the card's creation: an older card's sale is not cut off.
 */
export async function cardActivities(
  client: GiftCardsClient,
  card: KnownCard,
  type?: GiftCardActivityType,
): Promise<GiftCardActivity[]> {
  return client
    .listGiftCardActivities({
      gift_card_id: card.id,
      begin_time: card.created_at ?? BEGINNING,
      sort_order: "DESC",
      limit: 100,
      ...(type ? { type } : {}),
    })
    .all();
}

/** A customer linked to a card, by name when the profile could be read. */
export interface LinkedCustomer {
  id: string;
  name: string | undefined;
}

/**
 * The customers linked to a card; a profile that cannot be read keeps only its id. A profile
 * named only by its phone shows it as numbers of `country` are written (the store's country).
 */
export function linkedCustomers(
  customers: Pick<SquareClient["customers"], "retrieveCustomer">,
  card: KnownCard,
  country?: string,
): Promise<LinkedCustomer[]> {
  return Promise.all(
    (card.customer_ids ?? []).map(async (id) => {
      // Awaited in a try: the app's client call is a thenable, not always a Promise with catch.
      try {
        const c = await customers.retrieveCustomer(id);
        return { id, name: c.customer ? customerName(c.customer, country) : undefined };
      } catch {
        return { id, name: undefined };
      }
    }),
  );
}

/** What the activity view and `giftcards activities` read. */
export interface ActivityRange {
  locationId?: string | undefined;
  giftCardId?: string | undefined;
  /** Instants, inclusive. */
  begin: string;
  end: string;
  /** Only these types; every type when empty. */
  types?: readonly GiftCardActivityType[];
}

/** The activity of a range, newest first; several types are read one query each and merged. */
export async function rangeActivities(client: GiftCardsClient, range: ActivityRange): Promise<GiftCardActivity[]> {
  const base = {
    begin_time: range.begin,
    end_time: range.end,
    sort_order: "DESC" as const,
    limit: 100,
    ...(range.locationId ? { location_id: range.locationId } : {}),
    ...(range.giftCardId ? { gift_card_id: range.giftCardId } : {}),
  };
  const types = range.types ?? [];
  if (types.length === 0) return client.listGiftCardActivities(base).all();
  const lists = await Promise.all(types.map((type) => client.listGiftCardActivities({ ...base, type }).all()));
  return lists.flat().sort((a, b) => (b.created_at ?? "").localeCompare(a.created_at ?? ""));
}

/**
 * The liability, read through the gift card list: every active card's balance (and the blocked
 * ones', shown apart). Cards belong to the seller, not to one location.
 */
export async function readLiability(client: GiftCardsClient, currency: string): Promise<Liability> {
  const [active, blocked] = await Promise.all([
    client.listGiftCards({ state: "ACTIVE", limit: 200 }).all(),
    client.listGiftCards({ state: "BLOCKED", limit: 200 }).all(),
  ]);
  return liability([...active, ...blocked], currency);
}

/**
 * The request that registers a number the service does not know yet as a physical card: one of
 * Square's printed numbers as it is, any other as the seller's own (source OTHER).
 */
export function registerRequest(
  gan: string,
  locationId: string,
  key: string,
): { ok: true; request: CreateGiftCardRequest } | { ok: false; problem: string } {
  const how = ganToRegister(gan);
  if (!how.ok) return how;
  return {
    ok: true,
    request: {
      idempotency_key: key,
      location_id: locationId,
      gift_card: { type: "PHYSICAL", gan, ...(how.source === "OTHER" ? { gan_source: "OTHER" as const } : {}) },
    },
  };
}

/** A write checked and ready to send: its requests built and its keys minted, once. */
export interface PlannedWrite {
  write: GiftCardWrite;
  gan: string;
  /** The card's id; absent for a number registered by this write. */
  cardId: string | undefined;
  locationId: string;
  currency: string;
  /** Registers the number first (a physical card), for a number the service does not know yet. */
  register: CreateGiftCardRequest | undefined;
  activity: CreateGiftCardActivityRequest;
  change: BalanceChange;
  /** The confirmation's question, with the balance before → after. */
  question: string;
}

/** Whether this card's sale was recorded with this reference (a box run's), i.e. made by it. */
export async function activatedWith(client: GiftCardsClient, card: KnownCard, reference: string): Promise<boolean> {
  const sales = await cardActivities(client, card, "ACTIVATE");
  return sales.some((a) => a.activate_activity_details?.reference_id === reference);
}

/** Where a write goes: the location it is made at and its currency. */
export interface WriteContext {
  locationId: string;
  currency: string;
  /** Mints an idempotency key; called once per request of the write. */
  newKey: () => string;
}

/**
 * Checks a write against the card as read and builds its requests; the problem in words when it
 * would be refused, with the part of the write that is why when it is one (the amount, the
 * payment). A number the service does not know yet can only be activated: it is registered first
 * as a physical card with that number.
 */
export function planWrite(
  found: { card: KnownCard } | { gan: string },
  write: GiftCardWrite,
  ctx: WriteContext,
): { ok: true; plan: PlannedWrite } | { ok: false; problem: string; part?: WritePart } {
  const card: CardBefore | undefined = "card" in found ? cardBefore(found.card, ctx.currency) : undefined;
  const gan = "card" in found ? (found.card.gan ?? "") : found.gan;
  const check = writeCheck(card, write, ctx.currency);
  if (check) return { ok: false, ...check };
  let register: CreateGiftCardRequest | undefined;
  if (!("card" in found)) {
    const made = registerRequest(gan, ctx.locationId, ctx.newKey());
    if (!made.ok) return made;
    register = made.request;
  }
  const ref = "card" in found ? { id: found.card.id } : { gan };
  return {
    ok: true,
    plan: {
      write,
      gan,
      cardId: "card" in found ? found.card.id : undefined,
      locationId: ctx.locationId,
      currency: ctx.currency,
      register,
      activity: {
        idempotency_key: ctx.newKey(),
        gift_card_activity: activityFor(write, ref, ctx.locationId, ctx.currency),
      },
      change: balanceChange(card, write, ctx.currency),
      question: describeWrite(gan, card, write, ctx.currency),
    },
  };
}

/**
 * Sends a planned write: the registration first when there is one, then the activity, each with
 * its own key (the transport repeats a request under the same key after a dropped connection or a
 * 5xx; sending the same plan again later does the same). A registration refused because the
 * number was registered meanwhile (from another terminal) goes on to the activation, which the
 * card's state then decides.
 */
export async function sendWrite(
  client: GiftCardsClient,
  plan: Pick<PlannedWrite, "gan" | "register" | "activity">,
): Promise<GiftCardActivity> {
  if (plan.register) {
    try {
      await client.createGiftCard(plan.register);
    } catch (err) {
      if (!(err instanceof SquareApiError) || err.status >= 500) throw err;
      const now = await lookUpCard(client, { kind: "gan", gan: plan.gan });
      if (now.kind !== "found") throw err;
    }
  }
  const { gift_card_activity } = await client.createGiftCardActivity(plan.activity);
  if (!gift_card_activity) throw new Error("The service answered the write without the activity it recorded.");
  return gift_card_activity;
}
