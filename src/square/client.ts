import { cashDrawersApi } from "./cash-drawers.js";
import { catalogApi } from "./catalog.js";
import { customersApi } from "./customers.js";
import { giftCardsApi } from "./gift-cards.js";
import { inventoryApi } from "./inventory.js";
import { laborApi } from "./labor.js";
import { locationsApi } from "./locations.js";
import { oauthApi } from "./oauth.js";
import { payoutsApi } from "./payouts.js";
import { teamApi } from "./team.js";
import { Transport, type TransportOptions } from "./transport.js";
import { v1Api } from "./v1.js";
import { webhooksApi } from "./webhooks.js";

/** Options of {@link createClient}; see {@link TransportOptions} for the defaults. */
export type ClientOptions = TransportOptions;

/**
 * Builds the client: one transport, one object per area of the interface. Method names are the
 * interface's operation names (`client.labor.createShift`).
 */
export function createClient(options: ClientOptions) {
  const transport = new Transport(options);
  return {
    transport,
    oauth: oauthApi(transport),
    labor: laborApi(transport),
    inventory: inventoryApi(transport),
    customers: customersApi(transport),
    cashDrawers: cashDrawersApi(transport),
    payouts: payoutsApi(transport),
    giftCards: giftCardsApi(transport),
    webhooks: webhooksApi(transport),
    v1: v1Api(transport),
    locations: locationsApi(transport),
    team: teamApi(transport),
    catalog: catalogApi(transport),
    /** Closes keep-alive connections opened by the client. */
    close: () => transport.close(),
  };
}

/** The client's type, for injection into the store and the CLI. */
export type SquareClient = ReturnType<typeof createClient>;

/** The names of the client's areas (`labor`, `inventory`, ...). */
export type AreaName = Exclude<keyof SquareClient, "transport" | "close">;
