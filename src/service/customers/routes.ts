import type { Card, CustomerSortField } from "../../spec/generated/types.js";
import { type Handler, jsonAnswer, merchantOf, type RequestContext, type RouteTable } from "../context.js";
import { decodeCursor, encodeCursor } from "../cursor.js";
import { conflict, notFound } from "../errors.js";
import { enumValue, pageLimit, sortOrder } from "../params.js";
import { hashSecret } from "../tokens.js";
import {
  cardByNonce,
  deleteCard,
  deleteCustomer,
  getCustomer,
  getCustomerJson,
  getGroup,
  insertCard,
  listGroups,
  type StoredCard,
  saveCustomer,
  setMembership,
} from "./repo.js";
import { applyUpdate, cardFromNonce, newCustomer, ordered, type StoredCustomer } from "./rules.js";
import { asPosition, compileQuery, countMatching, findPage } from "./search.js";

/** A sort field of the customer listings; DEFAULT when absent. */
const sortField = (value: unknown, field: string): CustomerSortField =>
  enumValue<CustomerSortField>(value, "CustomerSortField", field) ?? "DEFAULT";

function requireCustomer(ctx: RequestContext): StoredCustomer {
  const id = ctx.path.customer_id ?? "";
  const c = getCustomer(ctx.db, merchantOf(ctx), id);
  if (!c) throw notFound(`Customer not found: ${id}.`);
  return c;
}

function emitCustomer(ctx: RequestContext, type: string, c: StoredCustomer, deleted = false): void {
  ctx.emit({
    type,
    merchantId: merchantOf(ctx),
    dataType: "customer",
    dataId: c.id,
    ...(deleted ? { deleted: true } : {}),
    object: { customer: c },
  });
}

/** listCustomers: all profiles, by name (DEFAULT) or creation time, paged in SQL. */
const listCustomers: Handler = (ctx) => {
  const limit = pageLimit(ctx.query.limit, { min: 1, max: 100, def: 100 });
  const field = sortField(ctx.query.sort_field, "sort_field");
  const order = sortOrder(ctx.query.sort_order, "ASC");
  const shape = { sort_field: field, sort_order: order };
  const compiled = compileQuery(undefined, field, order);
  const after = asPosition(decodeCursor(ctx.op.name, ctx.query.cursor, shape));
  const page = findPage(ctx.db, merchantOf(ctx), compiled, after, limit);
  return pageAnswer(
    page.records,
    page.next ? encodeCursor(ctx.op.name, shape, page.next) : undefined,
    ctx.query.count === true ? countMatching(ctx.db, merchantOf(ctx), compiled) : undefined,
  );
};

/**
 * searchCustomers: filters combine with AND; with no sort the order is by given name then
 * family name. The cursor is tied to the query: a changed filter or sort refuses it.
 */
const searchCustomers: Handler<"SearchCustomers"> = (ctx) => {
  const b = ctx.body;
  const limit = pageLimit(b.limit, { min: 1, max: 100, def: 100 });
  const field = sortField(b.query?.sort?.field, "query.sort.field");
  const order = sortOrder(b.query?.sort?.order, "ASC", "query.sort.order");
  const compiled = compileQuery(b.query?.filter, field, order);
  const shape = { query: b.query ?? null };
  const after = asPosition(decodeCursor(ctx.op.name, b.cursor, shape));
  const page = findPage(ctx.db, merchantOf(ctx), compiled, after, limit);
  return pageAnswer(
    page.records,
    page.next ? encodeCursor(ctx.op.name, shape, page.next) : undefined,
    b.count === true ? countMatching(ctx.db, merchantOf(ctx), compiled) : undefined,
  );
};

const createCustomer: Handler<"CreateCustomer"> = (ctx) => {
  const c = newCustomer(ctx.body, { id: ctx.ids.next(), now: ctx.now });
  saveCustomer(ctx.db, merchantOf(ctx), c);
  emitCustomer(ctx, "customer.created", c);
  return { body: { customer: c } };
};

/** retrieveCustomer: the profile's stored JSON, sent as it is stored. */
const retrieveCustomer: Handler = (ctx) => {
  const id = ctx.path.customer_id ?? "";
  const json = getCustomerJson(ctx.db, merchantOf(ctx), id);
  if (json === undefined) throw notFound(`Customer not found: ${id}.`);
  return jsonAnswer(`{"customer":${json}}`);
};

/** A page of profiles as JSON text: the records as stored, then the cursor and the count. */
function pageAnswer(records: readonly string[], cursor: string | undefined, count: number | undefined) {
  const parts = [
    ...(records.length > 0 ? [`"customers":[${records.join(",")}]`] : []),
    ...(cursor ? [`"cursor":${JSON.stringify(cursor)}`] : []),
    ...(count === undefined ? [] : [`"count":${count}`]),
  ];
  return jsonAnswer(`{${parts.join(",")}}`);
}

/** updateCustomer: a stale `version` is a conflict; otherwise the changes apply and the version goes up. */
const updateCustomer: Handler<"UpdateCustomer"> = (ctx) => {
  const current = requireCustomer(ctx);
  const b = ctx.body;
  if (b.version !== undefined && b.version !== current.version) {
    throw conflict(`The customer is at version ${current.version}, not ${b.version}.`, "version");
  }
  const next = applyUpdate(current, b, ctx.now);
  saveCustomer(ctx.db, merchantOf(ctx), next);
  emitCustomer(ctx, "customer.updated", next);
  return { body: { customer: next } };
};

/** deleteCustomer: an optional `version` must match; group memberships and cards go with it. */
const removeCustomer: Handler = (ctx) => {
  const current = requireCustomer(ctx);
  const version = ctx.query.version;
  if (version !== undefined && version !== current.version) {
    throw conflict(`The customer is at version ${current.version}, not ${version}.`, "version");
  }
  deleteCustomer(ctx.db, merchantOf(ctx), current.id);
  emitCustomer(ctx, "customer.deleted", current, true);
  return { body: {} };
};

/** Group membership changes touch the profile: its group_ids, version and updated_at. */
function changeMembership(ctx: RequestContext, member: boolean) {
  const customer = requireCustomer(ctx);
  const groupId = ctx.path.group_id ?? "";
  if (!getGroup(ctx.db, merchantOf(ctx), groupId)) throw notFound(`Customer group not found: ${groupId}.`);
  if (!setMembership(ctx.db, groupId, customer.id, member)) return { body: {} };
  const ids = new Set(customer.group_ids ?? []);
  if (member) ids.add(groupId);
  else ids.delete(groupId);
  const next = ordered({
    ...customer,
    group_ids: [...ids],
    version: customer.version + 1,
    updated_at: ctx.now.toISOString(),
  });
  saveCustomer(ctx.db, merchantOf(ctx), next);
  emitCustomer(ctx, "customer.updated", next);
  return { body: {} };
}

const listCustomerGroups: Handler = (ctx) => {
  const limit = pageLimit(ctx.query.limit, { min: 1, max: 50, def: 50 });
  const shape = {};
  const after = asPosition(decodeCursor(ctx.op.name, ctx.query.cursor, shape));
  const rows = listGroups(ctx.db, merchantOf(ctx), after, limit + 1);
  const groups = rows.slice(0, limit);
  const last = groups[groups.length - 1];
  return {
    body: {
      ...(groups.length > 0 ? { groups } : {}),
      ...(rows.length > limit && last ? { cursor: encodeCursor(ctx.op.name, shape, [last.created_at, last.id]) } : {}),
    },
  };
};

const retrieveCustomerGroup: Handler = (ctx) => {
  const id = ctx.path.group_id ?? "";
  const group = getGroup(ctx.db, merchantOf(ctx), id);
  if (!group) throw notFound(`Customer group not found: ${id}.`);
  return { body: { group } };
};

/**
 * createCustomerCard (deprecated): a nonce is spent once. The same nonce again answers the card
 * it made the first time instead of a second card.
 */
const createCustomerCard: Handler<"CreateCustomerCard"> = (ctx) => {
  const customer = requireCustomer(ctx);
  const b = ctx.body;
  const merchant = merchantOf(ctx);
  const nonceHash = hashSecret(b.card_nonce);
  const first = cardByNonce(ctx.db, merchant, nonceHash);
  if (first) return { body: { card: first } };
  const card: StoredCard = {
    id: `ccof:${ctx.ids.next(16)}`,
    ...cardFromNonce(nonceHash, ctx.now),
    ...(b.cardholder_name ? { cardholder_name: b.cardholder_name } : {}),
    ...(b.billing_address ? { billing_address: b.billing_address } : {}),
    fingerprint: `sq-1-${nonceHash.slice(8, 40)}`,
    customer_id: customer.id,
    merchant_id: merchant,
    enabled: true,
    card_type: "CREDIT",
    prepaid_type: "NOT_PREPAID",
    version: 1,
  };
  insertCard(ctx.db, merchant, customer.id, nonceHash, card, ctx.now.toISOString());
  const onProfile: Card = {
    id: card.id,
    ...cardFromNonce(nonceHash, ctx.now),
    ...(card.cardholder_name ? { cardholder_name: card.cardholder_name } : {}),
    ...(card.billing_address ? { billing_address: card.billing_address } : {}),
  };
  const next = ordered({ ...customer, cards: [...(customer.cards ?? []), onProfile] });
  saveCustomer(ctx.db, merchant, next);
  return { body: { card } };
};

const deleteCustomerCard: Handler = (ctx) => {
  const customer = requireCustomer(ctx);
  const cardId = ctx.path.card_id ?? "";
  if (!deleteCard(ctx.db, merchantOf(ctx), customer.id, cardId)) {
    throw notFound(`Card ${cardId} is not on file for customer ${customer.id}.`);
  }
  const next = ordered({ ...customer, cards: (customer.cards ?? []).filter((c) => c.id !== cardId) });
  saveCustomer(ctx.db, merchantOf(ctx), next);
  return { body: {} };
};

/** The customers operations. */
export const customersRoutes: RouteTable = {
  ListCustomers: listCustomers,
  CreateCustomer: createCustomer,
  SearchCustomers: searchCustomers,
  RetrieveCustomer: retrieveCustomer,
  UpdateCustomer: updateCustomer,
  DeleteCustomer: removeCustomer,
  AddGroupToCustomer: (ctx) => changeMembership(ctx, true),
  RemoveGroupFromCustomer: (ctx) => changeMembership(ctx, false),
  ListCustomerGroups: listCustomerGroups,
  RetrieveCustomerGroup: retrieveCustomerGroup,
  CreateCustomerCard: createCustomerCard,
  DeleteCustomerCard: deleteCustomerCard,
};
