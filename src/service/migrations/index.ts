import { sql as m001 } from "./001-core.js";
import { sql as m002 } from "./002-directory.js";
import { sql as m003 } from "./003-labor.js";
import { sql as m004 } from "./004-customers.js";
import { sql as m005 } from "./005-catalog.js";
import { sql as m006 } from "./006-inventory.js";
import { sql as m007 } from "./007-cash-drawers.js";
import { sql as m008 } from "./008-payouts.js";
import { sql as m009 } from "./009-gift-cards.js";
import { sql as m010 } from "./010-webhooks.js";
import { sql as m011 } from "./011-v1.js";
import { sql as m012 } from "./012-customer-search.js";
import { sql as m013 } from "./013-inventory-reads.js";
import { sql as m014 } from "./014-deferred-seeds.js";
import { sql as m015 } from "./015-labor-lookups.js";
import { sql as m016 } from "./016-customer-pages.js";
import { sql as m017 } from "./017-labor-overlap.js";
import { sql as m018 } from "./018-inventory-log.js";
import { sql as m019 } from "./019-idempotency-request.js";

/** One numbered schema change; applied once, in order, in its own transaction. */
export interface Migration {
  id: number;
  name: string;
  sql: string;
}

/** Every migration, in order. A released migration is never edited: add the next number. */
export const migrations: readonly Migration[] = [
  { id: 1, name: "core", sql: m001 },
  { id: 2, name: "directory", sql: m002 },
  { id: 3, name: "labor", sql: m003 },
  { id: 4, name: "customers", sql: m004 },
  { id: 5, name: "catalog", sql: m005 },
  { id: 6, name: "inventory", sql: m006 },
  { id: 7, name: "cash-drawers", sql: m007 },
  { id: 8, name: "payouts", sql: m008 },
  { id: 9, name: "gift-cards", sql: m009 },
  { id: 10, name: "webhooks", sql: m010 },
  { id: 11, name: "v1", sql: m011 },
  { id: 12, name: "customer-search", sql: m012 },
  { id: 13, name: "inventory-reads", sql: m013 },
  { id: 14, name: "deferred-seeds", sql: m014 },
  { id: 15, name: "labor-lookups", sql: m015 },
  { id: 16, name: "customer-pages", sql: m016 },
  { id: 17, name: "labor-overlap", sql: m017 },
  { id: 18, name: "inventory-log", sql: m018 },
  { id: 19, name: "idempotency-request", sql: m019 },
];
