import { operations as op } from "../spec/generated/operations.js";
import type * as T from "../spec/generated/types.js";
import type { RequestOptions, Transport } from "./transport.js";

/** Locations: the seller's stores. */
export function locationsApi(t: Transport) {
  return {
    /** Lists every location of the seller (one page; the service does not page it). */
    listLocations: (o?: RequestOptions) => t.call<T.ListLocationsResponse>(op.ListLocations, {}, o),
    /** Returns one location; `main` names the seller's main location. */
    retrieveLocation: (locationId: string, o?: RequestOptions) =>
      t.call<T.RetrieveLocationResponse>(op.RetrieveLocation, { path: { location_id: locationId } }, o),
  };
}
