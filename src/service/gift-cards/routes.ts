import { randomInt } from "node:crypto";
import type { GiftCardActivity, GiftCardGANSource } from "../../spec/generated/types.js";
import { merchantOf, type RequestContext, type RouteTable } from "../context.js";
import { encodeCursor, type PositionGuard, positionOf, readCursor } from "../cursor.js";
import { locationExists, merchantCurrency } from "../directory/repo.js";
import { invalid, notFound } from "../errors.js";
import { enumValue, pageLimit, sortOrder, timeWindow } from "../params.js";
import { customGanProblem, newSquareGan, squareGanProblem } from "./gan.js";
import { recordActivity } from "./record.js";
import {
  type CardRow,
  cardOf,
  findCard,
  findCardByGan,
  insertCard,
  listActivities,
  listCards,
  type Position,
} from "./repo.js";

/** listGiftCards: 30 by default, at most 200. */
const CARDS_LIMIT = { def: 30, max: 200 } as const;
/** listGiftCardActivities: 50 by default, at most 100. */
const ACTIVITIES_LIMIT = { def: 50, max: 100 } as const;

/** The gift-cards operations: cards (create, list, retrieve, by GAN) and their activities. */
export const giftCardRoutes: RouteTable = {
  CreateGiftCard(ctx) {
    const merchantId = merchantOf(ctx);
    const body = ctx.body;
    requireLocation(ctx, body.location_id, "location_id");
    const requested = body.gift_card;
    const source: GiftCardGANSource = requested.gan_source ?? "SQUARE";
    let gan = requested.gan;
    if (source === "OTHER") {
      if (gan === undefined) {
        throw invalid("MISSING_REQUIRED_PARAMETER", "A card with gan_source OTHER needs its gan.", "gift_card.gan");
      }
      const problem = customGanProblem(gan);
      if (problem) throw invalid("INVALID_VALUE", problem, "gift_card.gan");
    } else if (gan !== undefined) {
      // A Square GAN is given only to register a plastic card the seller ordered from Square.
      if (requested.type !== "PHYSICAL") {
        throw invalid(
          "INVALID_VALUE",
          "Only a PHYSICAL card is registered with a printed Square GAN.",
          "gift_card.gan",
        );
      }
      const problem = squareGanProblem(gan);
      if (problem) throw invalid("INVALID_VALUE", problem, "gift_card.gan");
    }
    if (gan !== undefined && findCardByGan(ctx.db, merchantId, gan)) {
      throw invalid("INVALID_VALUE", "Another gift card of this seller has that GAN.", "gift_card.gan");
    }
    while (gan === undefined || findCardByGan(ctx.db, merchantId, gan)) gan = newSquareGan(() => randomInt(10) / 10);
    const row: CardRow = {
      id: `gftc:${ctx.ids.next(32).toLowerCase()}`,
      merchant_id: merchantId,
      type: requested.type,
      gan_source: source,
      gan,
      state: "PENDING",
      balance: 0,
      currency: merchantCurrency(ctx.db, merchantId),
      location_id: body.location_id,
      customer_ids: "[]",
      created_at: ctx.now.toISOString(),
    };
    insertCard(ctx.db, row);
    const giftCard = cardOf(row);
    ctx.emit({
      type: "gift_card.created",
      merchantId,
      locationId: body.location_id,
      dataType: "gift_card",
      dataId: row.id,
      object: { gift_card: giftCard },
    });
    return { body: { gift_card: giftCard } };
  },

  ListGiftCards(ctx) {
    const type = enumValue(ctx.query.type, "GiftCardType", "type");
    const state = enumValue(ctx.query.state, "GiftCardStatus", "state");
    const customerId = typeof ctx.query.customer_id === "string" ? ctx.query.customer_id : undefined;
    const limit = pageLimit(ctx.query.limit, CARDS_LIMIT);
    const query = { type, state, customerId };
    const after = readCursor(ctx.op.name, ctx.query.cursor, query, isPosition);
    const page = listCards(ctx.db, {
      merchantId: merchantOf(ctx),
      limit,
      ...(type === undefined ? {} : { type }),
      ...(state === undefined ? {} : { state }),
      ...(customerId === undefined ? {} : { customerId }),
      ...(after ? { after } : {}),
    });
    return {
      body: {
        gift_cards: page.cards,
        ...(page.more && page.last ? { cursor: encodeCursor(ctx.op.name, query, page.last) } : {}),
      },
    };
  },

  RetrieveGiftCard(ctx) {
    const id = ctx.path.id ?? "";
    const row = findCard(ctx.db, merchantOf(ctx), id);
    if (!row) throw notFound(`Gift card ${id} not found.`);
    return { body: { gift_card: cardOf(row) } };
  },

  RetrieveGiftCardFromGAN(ctx) {
    const { gan } = ctx.body;
    const row = findCardByGan(ctx.db, merchantOf(ctx), gan);
    if (!row) throw notFound("No gift card has that GAN.");
    return { body: { gift_card: cardOf(row) } };
  },

  CreateGiftCardActivity(ctx) {
    const merchantId = merchantOf(ctx);
    const input = ctx.body.gift_card_activity;
    requireLocation(ctx, input.location_id, "gift_card_activity.location_id");
    const card = cardNamed(ctx, input);
    const { activity, card: after } = recordActivity(ctx.db, merchantId, card, input, {
      id: `gcact_${ctx.ids.next(32).toLowerCase()}`,
      createdAt: ctx.now.toISOString(),
    });
    ctx.emit({
      type: "gift_card.activity.created",
      merchantId,
      locationId: input.location_id,
      dataType: "gift_card_activity",
      dataId: activity.id ?? "",
      object: { gift_card_activity: activity },
    });
    ctx.emit({
      type: "gift_card.updated",
      merchantId,
      locationId: input.location_id,
      dataType: "gift_card",
      dataId: card.id,
      object: { gift_card: after },
    });
    return { body: { gift_card_activity: activity } };
  },

  ListGiftCardActivities(ctx) {
    const type = enumValue(ctx.query.type, "GiftCardActivityType", "type");
    const giftCardId = typeof ctx.query.gift_card_id === "string" ? ctx.query.gift_card_id : undefined;
    const locationId = typeof ctx.query.location_id === "string" ? ctx.query.location_id : undefined;
    const { begin, end } = timeWindow(ctx.query, ctx.now);
    const order = sortOrder(ctx.query.sort_order, "DESC");
    const limit = pageLimit(ctx.query.limit, ACTIVITIES_LIMIT);
    // The query as asked (not its defaults resolved against the clock), so paging survives time passing.
    const query = {
      type,
      giftCardId,
      locationId,
      order,
      begin: ctx.query.begin_time,
      end: ctx.query.end_time,
    };
    const after = readCursor(ctx.op.name, ctx.query.cursor, query, isPosition);
    const page = listActivities(ctx.db, {
      merchantId: merchantOf(ctx),
      begin: begin.toISOString(),
      end: end.toISOString(),
      order,
      limit,
      ...(type === undefined ? {} : { type }),
      ...(giftCardId === undefined ? {} : { giftCardId }),
      ...(locationId === undefined ? {} : { locationId }),
      ...(after ? { after } : {}),
    });
    return {
      body: {
        gift_card_activities: page.activities,
        ...(page.more && page.last ? { cursor: encodeCursor(ctx.op.name, query, page.last) } : {}),
      },
    };
  },
};

/** The card an activity names by id or GAN (if both, they must be the same card). */
function cardNamed(ctx: RequestContext, input: GiftCardActivity): CardRow {
  const merchantId = merchantOf(ctx);
  const { gift_card_id: id, gift_card_gan: gan } = input;
  if (id === undefined && gan === undefined) {
    throw invalid(
      "MISSING_REQUIRED_PARAMETER",
      "Name the gift card with gift_card_id or gift_card_gan.",
      "gift_card_activity.gift_card_id",
    );
  }
  const card = id !== undefined ? findCard(ctx.db, merchantId, id) : findCardByGan(ctx.db, merchantId, gan ?? "");
  if (!card) throw notFound(id !== undefined ? `Gift card ${id} not found.` : "No gift card has that GAN.");
  if (id !== undefined && gan !== undefined && card.gan !== gan) {
    throw invalid(
      "CONFLICTING_PARAMETERS",
      "gift_card_id and gift_card_gan name different cards.",
      "gift_card_activity.gift_card_gan",
    );
  }
  return card;
}

function requireLocation(ctx: RequestContext, id: string, field: string): void {
  if (!locationExists(ctx.db, merchantOf(ctx), id)) {
    throw invalid("INVALID_LOCATION", `The seller has no location ${id}.`, field);
  }
}

/** The keyset position of both gift-card listings: created_at and sequence. */
const isPosition: PositionGuard<Position> = positionOf({ t: "string", s: "number" });
