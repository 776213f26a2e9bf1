import type { OperationName } from "../../spec/generated/operations.js";
import { getGroup } from "../customers/repo.js";
import { badRequest, invalid, type ServiceError } from "../errors.js";
import { all, at, type Json, mapValues, renameKeys, type ShapeContext, unknownMember } from "./shapes.js";

/** The areas of the back-office interface. */
export type Area =
  | "oauth"
  | "labor"
  | "customers"
  | "inventory"
  | "cash-drawers"
  | "webhooks"
  | "payouts"
  | "gift-cards"
  | "v1";

/** A body rewritten in place; answers may look things up in the store. */
export type Rewrite = (body: Json, s: ShapeContext) => void;

/** One breaking change of the interface, and how the service keeps the shape before it. */
export interface VersionChange {
  /** The first Square-Version with the new behaviour; callers on an older one keep the old. */
  version: string;
  area: Area;
  change: string;
  /** Where the service says so. */
  source: string;
  /** Callers before `version`: their request body, rewritten to what the rules read today. */
  olderRequest?: Partial<Record<OperationName, Rewrite>>;
  /** Callers before `version`: the answer, rewritten to the shape they read. */
  olderAnswer?: Partial<Record<OperationName, Rewrite>>;
  /** Subscriptions on a version before `version`: a notification's `data.object`, by event type. */
  olderEvent?: Readonly<Record<string, Rewrite>>;
  /** Callers at or after `version`: a request (as sent, before validation) they may no longer make. */
  newerRefuses?: Partial<Record<OperationName, (body: Json) => ServiceError | undefined>>;
}

/** The same rewrite on several operations (or event types). */
const each = <K extends string, F>(keys: readonly K[], f: F): Partial<Record<K, F>> =>
  Object.fromEntries(keys.map((k) => [k, f])) as Partial<Record<K, F>>;

const CUSTOMER_EVENTS = ["customer.created", "customer.updated", "customer.deleted"] as const;

/** A customer rewrite wherever an answer or a notification carries customers. */
function onCustomers(f: (c: Json, s: ShapeContext) => void) {
  const one = at("customer", f);
  const many = at("customers[]", f);
  return {
    olderAnswer: {
      ...each(["CreateCustomer", "RetrieveCustomer", "UpdateCustomer"] as const, one),
      ...each(["ListCustomers", "SearchCustomers"] as const, many),
    },
    olderEvent: each(CUSTOMER_EVENTS, one) as Record<string, Rewrite>,
  };
}

/** A birthday as written before 2022-10-19: RFC 3339 at midnight, year 0000 when unknown. */
const OLD_BIRTHDAY = /^(\d{4}-\d{2}-\d{2})T00:00:00(?:\.0+)?(?:Z|[+-]00:?00)$/;

const IN_TRANSIT = { older: { IN_TRANSIT: "IN_TRANSIT_TO" }, newer: { IN_TRANSIT_TO: "IN_TRANSIT" } } as const;
const countStates = (map: Readonly<Record<string, string>>) => at("counts[]", mapValues(["state"], map));
const changeStates = (map: Readonly<Record<string, string>>) =>
  all<ShapeContext>(
    at("changes[].physical_count", mapValues(["state"], map)),
    at("changes[].adjustment", mapValues(["from_state", "to_state"], map)),
    at("changes[].transfer", mapValues(["state"], map)),
  );

/** Refuses a body with a member its request schema does not name. */
const refuseUnknown = (schema: string) => (b: Json) => {
  const field = unknownMember(schema, b);
  return field === undefined ? undefined : badRequest(`${field} is not a field of this request.`, field);
};

const DRAWER_RENAMES = {
  team_member_ids: "employee_ids",
  opening_team_member_id: "opening_employee_id",
  ending_team_member_id: "ending_employee_id",
  closing_team_member_id: "closing_employee_id",
};

/**
 * The breaking changes of the back-office interface between 2019-03-13 and 2024-01-18, oldest
 * first: the one place the service answers a caller in the shape of its Square-Version.
 *
 * Not here, because they are not breaking under the service's own rules (new fields and new
 * endpoints reach every version; "Deprecation … NO" —
 * https://developer.squareup.com/docs/build-basics/versioning-overview): `team_member_id`
 * beside the deprecated `employee_id` on shifts (2020-08-26,
 * https://developer.squareup.com/docs/labor-api/migrate-to-teams) and on inventory changes
 * (2022-02-16), team member wages, the inventory endpoints' new paths beside the deprecated ones
 * (https://developer.squareup.com/docs/inventory-api/migrate-to-updated-api-entities). Payouts
 * and gift cards changed only by addition in this span; the V1 endpoints are not versioned
 * (https://developer.squareup.com/docs/migrate-from-v1/general-guidance). Which webhook event
 * types a version offers is webhooks/event-types.ts; a subscription's notifications take the
 * shape of its own api_version through `olderEvent` below.
 */
export const VERSION_CHANGES: readonly VersionChange[] = [
  {
    version: "2019-03-13",
    area: "oauth",
    change:
      "ObtainToken no longer takes grant_type migration_token (legacy long-lived tokens); refresh tokens replace it",
    source: "https://developer.squareup.com/docs/changelog/sdk-logs/2019-03-13",
    newerRefuses: {
      ObtainToken: (b) =>
        b.grant_type === "migration_token"
          ? invalid(
              "API_VERSION_INCOMPATIBLE",
              "grant_type migration_token is accepted only with a Square-Version before 2019-03-13.",
              "grant_type",
            )
          : undefined,
    },
  },
  {
    version: "2019-11-20",
    area: "labor",
    change: "SearchShifts: ShiftFilter location_id and employee_id are renamed location_ids and employee_ids",
    source: "https://github.com/square/connect-javascript-sdk/blob/2.20191120.0/src/model/ShiftFilter.js",
    olderRequest: {
      SearchShifts: at("query.filter", renameKeys({ location_id: "location_ids", employee_id: "employee_ids" })),
    },
  },
  {
    version: "2021-04-21",
    area: "customers",
    change: "Customer.groups (CustomerGroupInfo: id and name) is retired; group_ids remains",
    source: "https://developer.squareup.com/docs/changelog/connect-logs/2021-04-21",
    ...onCustomers((c, s) => {
      const ids = Array.isArray(c.group_ids) ? (c.group_ids as string[]) : [];
      if (ids.length === 0 || s.merchantId === undefined) return;
      const merchant = s.merchantId;
      c.groups = ids.map((id) => ({ id, name: getGroup(s.db, merchant, id)?.name ?? "" }));
    }),
  },
  {
    version: "2022-03-16",
    area: "customers",
    change: "CreateCustomer and SearchCustomers refuse a request with a field they do not recognise (earlier: ignored)",
    source: "https://developer.squareup.com/docs/changelog/connect-logs/2022-03-16",
    newerRefuses: {
      CreateCustomer: refuseUnknown("CreateCustomerRequest"),
      SearchCustomers: refuseUnknown("SearchCustomersRequest"),
    },
  },
  {
    version: "2022-10-19",
    area: "customers",
    change:
      "Customer.birthday is written and read as YYYY-MM-DD (0000-MM-DD without a year; MM-DD accepted); earlier as RFC 3339 at midnight, 1998-09-21T00:00:00-00:00",
    source: "https://developer.squareup.com/docs/changelog/connect-logs/2022-10-19",
    olderRequest: each(["CreateCustomer", "UpdateCustomer"] as const, (b: Json) => {
      const m = typeof b.birthday === "string" ? OLD_BIRTHDAY.exec(b.birthday) : null;
      if (m) b.birthday = m[1];
    }),
    ...onCustomers((c) => {
      if (typeof c.birthday === "string" && /^\d{4}-\d{2}-\d{2}$/.test(c.birthday)) {
        c.birthday = `${c.birthday}T00:00:00-00:00`;
      }
    }),
  },
  {
    version: "2023-05-17",
    area: "cash-drawers",
    change:
      "CashDrawerShift employee_ids, opening_/ending_/closing_employee_id become team_member_ids, opening_/ending_/closing_team_member_id; CashDrawerShiftEvent.employee_id becomes team_member_id; the lists answer cash_drawer_shifts (was items) and cash_drawer_shift_events (was events)",
    source: "https://developer.squareup.com/docs/changelog/connect-logs/2023-05-17",
    olderAnswer: {
      ListCashDrawerShifts: renameKeys({ cash_drawer_shifts: "items" }),
      RetrieveCashDrawerShift: at("cash_drawer_shift", renameKeys(DRAWER_RENAMES)),
      ListCashDrawerShiftEvents: all(
        renameKeys({ cash_drawer_shift_events: "events" }),
        at("events[]", renameKeys({ team_member_id: "employee_id" })),
      ),
    },
  },
  {
    version: "2023-05-17",
    area: "inventory",
    change: "Quantities in transit between locations are in state IN_TRANSIT, which replaces IN_TRANSIT_TO",
    source: "https://developer.squareup.com/docs/changelog/connect-logs/2023-05-17",
    olderRequest: {
      ...each(
        [
          "BatchRetrieveInventoryCounts",
          "DeprecatedBatchRetrieveInventoryCounts",
          "BatchRetrieveInventoryChanges",
          "DeprecatedBatchRetrieveInventoryChanges",
        ] as const,
        mapValues(["states"], IN_TRANSIT.newer),
      ),
      ...each(["BatchChangeInventory", "DeprecatedBatchChangeInventory"] as const, changeStates(IN_TRANSIT.newer)),
    },
    olderAnswer: {
      ...each(
        ["BatchRetrieveInventoryCounts", "DeprecatedBatchRetrieveInventoryCounts", "RetrieveInventoryCount"] as const,
        countStates(IN_TRANSIT.older),
      ),
      ...each(
        [
          "BatchRetrieveInventoryChanges",
          "DeprecatedBatchRetrieveInventoryChanges",
          "RetrieveInventoryChanges",
        ] as const,
        changeStates(IN_TRANSIT.older),
      ),
      ...each(
        ["BatchChangeInventory", "DeprecatedBatchChangeInventory"] as const,
        all(countStates(IN_TRANSIT.older), changeStates(IN_TRANSIT.older)),
      ),
      ...each(
        ["RetrieveInventoryAdjustment", "DeprecatedRetrieveInventoryAdjustment"] as const,
        at("adjustment", mapValues(["from_state", "to_state"], IN_TRANSIT.older)),
      ),
      ...each(
        ["RetrieveInventoryPhysicalCount", "DeprecatedRetrieveInventoryPhysicalCount"] as const,
        at("count", mapValues(["state"], IN_TRANSIT.older)),
      ),
      RetrieveInventoryTransfer: at("transfer", mapValues(["state"], IN_TRANSIT.older)),
    },
    olderEvent: {
      "inventory.count.updated": at("inventory_counts[]", mapValues(["state"], IN_TRANSIT.older)),
    },
  },
];
