// The permissions `backroom login` asks for: only what the app's screens and commands use, each
// with the reason a store manager would be given. Nothing that moves money (payments, refunds,
// orders) is asked for by default: the old transactions (V1) screen, which can refund, needs the
// V1 scopes asked for by name (`--scopes default,v1`). Webhook subscriptions need no OAuth scope
// in the interface (they belong to the application, not to a seller's grant), so none is listed.

/** One permission asked for at sign-in, and why. */
export interface ScopeNeed {
  readonly scope: string;
  readonly why: string;
}

/** Every scope sign-in asks for, once, in the order the consent page lists them. */
export const LOGIN_SCOPES: readonly ScopeNeed[] = [
  { scope: "MERCHANT_PROFILE_READ", why: "the store's locations and their time zones, for every screen" },
  { scope: "EMPLOYEES_READ", why: "the team members on the time clock, and their hourly wages for the review" },
  { scope: "TIMECARDS_READ", why: "shifts and breaks: who is on shift, and the review of past weeks" },
  { scope: "TIMECARDS_WRITE", why: "clocking in and out, starting and ending breaks, correcting a shift" },
  { scope: "TIMECARDS_SETTINGS_READ", why: "break types and the workweek (when a workday starts)" },
  { scope: "TIMECARDS_SETTINGS_WRITE", why: "adding and editing break types" },
  { scope: "ITEMS_READ", why: "the stocktake finds items by SKU, barcode or name in the catalog" },
  { scope: "INVENTORY_READ", why: "stock on hand and its history, for the stocktake's variance" },
  { scope: "INVENTORY_WRITE", why: "committing a stocktake's counts" },
  { scope: "CUSTOMERS_READ", why: "customer lookup and groups" },
  { scope: "CUSTOMERS_WRITE", why: "fixing a customer's profile" },
  { scope: "CASH_DRAWER_READ", why: "the cash drawer review: shifts, events, over/short" },
  {
    scope: "PAYOUTS_READ",
    why: "payouts: when deposits arrive, what Square kept in fees, a bank statement reconciled",
  },
  {
    scope: "GIFTCARDS_READ",
    why: "gift cards looked up by scan or number, their history, the day's activity and the liability",
  },
  {
    scope: "GIFTCARDS_WRITE",
    why: "activating, loading and adjusting gift cards, clearing, blocking and deactivating them",
  },
];

/** The scope names, as `backroom login` sends them. */
export function loginScopes(): string[] {
  return LOGIN_SCOPES.map((s) => s.scope);
}

/** What the old transactions (V1) screen and `backroom v1` need: asked for only with `--scopes ...,v1`. */
export const V1_SCOPES: readonly ScopeNeed[] = [
  { scope: "PAYMENTS_READ", why: "old transactions: V1 payments and refunds" },
  { scope: "PAYMENTS_WRITE", why: "old transactions: refunding a V1 payment (a card refund cannot be reversed)" },
  { scope: "SETTLEMENTS_READ", why: "old transactions: V1 settlements (deposits) and their entries" },
  { scope: "ORDERS_READ", why: "old transactions: the online store's V1 orders" },
  { scope: "ORDERS_WRITE", why: "old transactions: completing, canceling or refunding an online-store order" },
];

/** Named sets `--scopes` takes besides scope names: `default` (what the screens use) and `v1`. */
const SCOPE_SETS: Readonly<Record<string, () => readonly string[]>> = {
  default: loginScopes,
  v1: () => V1_SCOPES.map((s) => s.scope),
};

/** Reads `--scopes A,B,...`: scope names in any case and the named sets `default` and `v1`, each once. */
export function readScopes(text: string): string[] {
  const out = new Set<string>();
  for (const word of text.split(/[\s,]+/).filter(Boolean)) {
    const set = SCOPE_SETS[word.toLowerCase()];
    for (const scope of set ? set() : [word.toUpperCase()]) out.add(scope);
  }
  return [...out];
}
