import { laborApi } from "./labor.js";
import { Transport, type TransportOptions } from "./transport.js";

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
    labor: laborApi(transport),
    /** Closes keep-alive connections opened by the client. */
    close: () => transport.close(),
  };
}

/** The client's type, for injection into the store and the CLI. */
export type SquareClient = ReturnType<typeof createClient>;
