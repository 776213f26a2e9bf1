// The permissions `backroom login` asks for: only what the app's screens and commands use, each
// with the reason a store manager would be given. Nothing that moves money (payments, refunds,
// orders) is asked for. Webhook subscriptions need no OAuth scope in the interface (they belong
// to the application, not to a seller's grant), so none is listed for them.

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
