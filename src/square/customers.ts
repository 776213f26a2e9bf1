import { operations as op } from "../spec/generated/operations.js";
import type * as T from "../spec/generated/types.js";
import type { RequestOptions, Transport } from "./transport.js";

/** Query of {@link customersApi}'s `listCustomers`. */
export interface ListCustomersQuery {
  /** Where a page begins: the `cursor` of the page before (kept to go on after a restart). */
  cursor?: string;
  limit?: number;
  sort_field?: T.CustomerSortField;
  sort_order?: T.SortOrder;
  count?: boolean;
}

/**
 * An updateCustomer body: a value sets a field, `null` removes it (the interface's own rule:
 * "To remove a field, specify null"), a field left out is left alone.
 */
export type CustomerUpdateBody = {
  [K in Exclude<keyof T.UpdateCustomerRequest, "address">]?: T.UpdateCustomerRequest[K] | null;
} & { address?: { [K in keyof T.Address]?: T.Address[K] | null } | null };

/** Customers, their group memberships, customer groups, and cards on file. */
export function customersApi(t: Transport) {
  return {
    /** Lists customer profiles; paged by query cursor. */
    listCustomers: (query: ListCustomersQuery = {}, o?: RequestOptions) =>
      t.page<T.ListCustomersResponse, T.Customer>(op.ListCustomers, { query }, (p) => p.customers, o),
    /** Creates a customer profile. */
    createCustomer: (body: T.CreateCustomerRequest, o?: RequestOptions) =>
      t.call<T.CreateCustomerResponse>(op.CreateCustomer, { body }, o),
    /** Searches customer profiles by filter and sort; paged by body cursor. */
    searchCustomers: (body: T.SearchCustomersRequest = {}, o?: RequestOptions) =>
      t.page<T.SearchCustomersResponse, T.Customer>(op.SearchCustomers, { body }, (p) => p.customers, o),
    /** Deletes a customer profile; `version` guards against a stale delete. */
    deleteCustomer: (customerId: string, query: { version?: number } = {}, o?: RequestOptions) =>
      t.call<T.DeleteCustomerResponse>(op.DeleteCustomer, { path: { customer_id: customerId }, query }, o),
    /** Returns one customer profile. */
    retrieveCustomer: (customerId: string, o?: RequestOptions) =>
      t.call<T.RetrieveCustomerResponse>(op.RetrieveCustomer, { path: { customer_id: customerId } }, o),
    /** Updates a customer profile; it has no idempotency key, so it is never retried. */
    updateCustomer: (customerId: string, body: CustomerUpdateBody, o?: RequestOptions) =>
      t.call<T.UpdateCustomerResponse>(op.UpdateCustomer, { path: { customer_id: customerId }, body }, o),
    /** Adds a customer to a group. */
    addGroupToCustomer: (customerId: string, groupId: string, o?: RequestOptions) =>
      t.call<T.AddGroupToCustomerResponse>(
        op.AddGroupToCustomer,
        { path: { customer_id: customerId, group_id: groupId } },
        o,
      ),
    /** Removes a customer from a group. */
    removeGroupFromCustomer: (customerId: string, groupId: string, o?: RequestOptions) =>
      t.call<T.RemoveGroupFromCustomerResponse>(
        op.RemoveGroupFromCustomer,
        { path: { customer_id: customerId, group_id: groupId } },
        o,
      ),
    /** Lists customer groups; paged by query cursor. */
    listCustomerGroups: (query: { limit?: number } = {}, o?: RequestOptions) =>
      t.page<T.ListCustomerGroupsResponse, T.CustomerGroup>(op.ListCustomerGroups, { query }, (p) => p.groups, o),
    /** Returns one customer group. */
    retrieveCustomerGroup: (groupId: string, o?: RequestOptions) =>
      t.call<T.RetrieveCustomerGroupResponse>(op.RetrieveCustomerGroup, { path: { group_id: groupId } }, o),
    /** @deprecated Use the Cards API (`createCard`). Stores a card on file for a customer. */
    createCustomerCard: (customerId: string, body: T.CreateCustomerCardRequest, o?: RequestOptions) =>
      t.call<T.CreateCustomerCardResponse>(op.CreateCustomerCard, { path: { customer_id: customerId }, body }, o),
    /** @deprecated Use the Cards API (`disableCard`). Removes a card on file from a customer. */
    deleteCustomerCard: (customerId: string, cardId: string, o?: RequestOptions) =>
      t.call<T.DeleteCustomerCardResponse>(
        op.DeleteCustomerCard,
        { path: { customer_id: customerId, card_id: cardId } },
        o,
      ),
  };
}
