// The handles of this machine's files that only some screens use: the customer index and the
// stocktake journal. A handle is made at start (the store holds it) but opens its file, and loads
// the code that reads it, on first use: the first frame does not compile the index's search (with
// the phone number library) or the journal.
import { join } from "node:path";
import type { CustomerIndex } from "./customer-index.js";
import { LocalHandle } from "./db.js";
import type { StocktakeJournal } from "./stocktake-journal.js";

/** The index file of one store in a data folder: `customers-<store>.db`. */
export const customerIndexPath = (dataDir: string, store: string): string =>
  join(dataDir, `customers-${store.replaceAll(/[^A-Za-z0-9._-]/g, "_")}.db`);

/** The journal file in a data folder. */
export const journalPath = (dataDir: string): string => join(dataDir, "stocktake.db");

/** A store's customer index, opened when first needed and then kept open. */
export class CustomerIndexHandle extends LocalHandle<CustomerIndex> {
  constructor(path: string) {
    super(path, async (p) => (await import("./customer-index.js")).openCustomerIndex(p));
  }
}

/** The journal of a data folder, opened on first use and kept open; an open that failed is tried again next time. */
export class JournalHandle extends LocalHandle<StocktakeJournal> {
  constructor(path: string) {
    super(path, async (p) => (await import("./stocktake-journal.js")).openJournal(p));
  }
}
