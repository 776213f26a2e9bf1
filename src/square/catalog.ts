import { operations as op } from "../spec/generated/operations.js";
import type * as T from "../spec/generated/types.js";
import type { RequestOptions, Transport } from "./transport.js";

/** Query of {@link catalogApi}'s `retrieveCatalogObject`. */
export interface RetrieveCatalogObjectQuery {
  include_related_objects?: boolean;
  catalog_version?: number;
  include_category_path_to_root?: boolean;
}

/** Catalog look-ups: items and variations by id, SKU or name, for stocktakes. */
export function catalogApi(t: Transport) {
  return {
    /** Lists catalog objects, optionally of some types (comma-separated); paged by query cursor. */
    listCatalog: (query: { types?: string; catalog_version?: number } = {}, o?: RequestOptions) =>
      t.page<T.ListCatalogResponse, T.CatalogObject>(op.ListCatalog, { query }, (p) => p.objects, o),
    /** Returns one catalog object, with its related objects when asked. */
    retrieveCatalogObject: (objectId: string, query: RetrieveCatalogObjectQuery = {}, o?: RequestOptions) =>
      t.call<T.RetrieveCatalogObjectResponse>(op.RetrieveCatalogObject, { path: { object_id: objectId }, query }, o),
    /** Returns several catalog objects by id in one call. */
    batchRetrieveCatalogObjects: (body: T.BatchRetrieveCatalogObjectsRequest, o?: RequestOptions) =>
      t.call<T.BatchRetrieveCatalogObjectsResponse>(op.BatchRetrieveCatalogObjects, { body }, o),
    /** Searches catalog objects by query (exact, prefix, text, ...); paged by body cursor. */
    searchCatalogObjects: (body: T.SearchCatalogObjectsRequest = {}, o?: RequestOptions) =>
      t.page<T.SearchCatalogObjectsResponse, T.CatalogObject>(op.SearchCatalogObjects, { body }, (p) => p.objects, o),
    /** Searches items by text, category, stock level and location; paged by body cursor. */
    searchCatalogItems: (body: T.SearchCatalogItemsRequest = {}, o?: RequestOptions) =>
      t.page<T.SearchCatalogItemsResponse, T.CatalogObject>(op.SearchCatalogItems, { body }, (p) => p.items, o),
  };
}
