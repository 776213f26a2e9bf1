// The client module's public face: everything above the square layer imports from here.
export type * from "../spec/generated/types.js";
export { type AreaName, type ClientOptions, createClient, type SquareClient } from "./client.js";
export type { ListCustomersQuery } from "./customers.js";
export {
  errorsOf,
  SquareApiError,
  SquareError,
  type SquareErrorDetail,
  SquareNetworkError,
  SquareRetiredError,
  SquareTimeoutError,
} from "./errors.js";
export { batchTokenFromLink, PageIterator } from "./paging.js";
export {
  DEFAULT_SQUARE_VERSION,
  ENVIRONMENTS,
  type KeyOptional,
  type RequestOptions,
  type TokenProvider,
  type TransportOptions,
} from "./transport.js";
