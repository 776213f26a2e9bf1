import type { SquareClient } from "../square/index.js";
import type { GiftCardsClient } from "./gift-cards-io.js";
import type { V1Client } from "./v1-load.js";

/** The part of the client the app uses; tests may pass any object of this shape. */
export interface StoreClient {
  labor: Pick<
    SquareClient["labor"],
    | "listBreakTypes"
    | "createBreakType"
    | "updateBreakType"
    | "deleteBreakType"
    | "createShift"
    | "deleteShift"
    | "searchShifts"
    | "updateShift"
    | "getShift"
    | "listTeamMemberWages"
    | "listWorkweekConfigs"
  >;
  team: Pick<SquareClient["team"], "searchTeamMembers">;
  catalog: Pick<SquareClient["catalog"], "searchCatalogObjects" | "searchCatalogItems">;
  inventory: Pick<
    SquareClient["inventory"],
    "batchRetrieveInventoryCounts" | "batchRetrieveInventoryChanges" | "batchChangeInventory"
  >;
  locations: Pick<SquareClient["locations"], "listLocations">;
  oauth?: Pick<SquareClient["oauth"], "retrieveTokenStatus">;
  webhooks: Pick<
    SquareClient["webhooks"],
    | "listWebhookSubscriptions"
    | "listWebhookEventTypes"
    | "createWebhookSubscription"
    | "updateWebhookSubscription"
    | "deleteWebhookSubscription"
    | "updateWebhookSubscriptionSignatureKey"
    | "testWebhookSubscription"
  >;
  cashDrawers: Pick<
    SquareClient["cashDrawers"],
    "listCashDrawerShifts" | "retrieveCashDrawerShift" | "listCashDrawerShiftEvents"
  >;
  payouts: Pick<SquareClient["payouts"], "listPayouts" | "getPayout" | "listPayoutEntries">;
  giftCards: GiftCardsClient;
  customers: Pick<
    SquareClient["customers"],
    | "listCustomers"
    | "searchCustomers"
    | "retrieveCustomer"
    | "createCustomer"
    | "updateCustomer"
    | "deleteCustomer"
    | "addGroupToCustomer"
    | "removeGroupFromCustomer"
    | "listCustomerGroups"
    | "deleteCustomerCard"
  >;
  /** The old transactions (V1) screen's calls. */
  v1: V1Client["v1"];
}

/** The folder the app keeps its local files in (the stocktake journal, exports by default). */
export type DataDir = string;

/** Where "now" comes from; tests pin it. */
export interface Clock {
  now(): Date;
}

/** Timers and the time between events, injected so that tests can move time by hand. */
export interface Timers {
  /** Runs `run` once, `ms` from now. */
  after(ms: number, run: () => void): void;
  /** Milliseconds on a clock that only goes forward (for the gaps between keys), not the time of day. */
  elapsed(): number;
}

/** Which store the app works on, shown in the header: the demo store, or a service by environment. */
export type EnvLabel = "DEMO" | "LOCAL" | "SANDBOX" | "PRODUCTION";

/**
 * The screen in the body: one union. The UI's screen registry (src/ui/screens/registry.ts) gives
 * each kind its title, number key, keys and component.
 */
export type Screen =
  | { kind: "timeclock" }
  | { kind: "review" }
  | { kind: "break-types" }
  | { kind: "stocktake" }
  | { kind: "customers" }
  | { kind: "drawers" }
  | { kind: "payouts" }
  | { kind: "gift-cards" }
  | { kind: "v1" }
  | { kind: "webhooks" }
  | { kind: "account" }
  /** Writes kept on this machine, not yet sent, and those the service refused (To resolve). */
  | { kind: "outbox" };

/** A kind of screen. */
export type ScreenKind = Screen["kind"];

/** Whether the service answers: unknown until the first call, then online, or offline since a time. */
export type Connection =
  | { state: "unknown" }
  | { state: "online" }
  /** `since`: when it stopped answering; `triedAt`: when it was last asked, and did not answer. */
  | { state: "offline"; since: Date; triedAt: Date; retrying: boolean; problem: string };

/**
 * A yes/no question, answered in the one confirmation (y yes, n or esc no, enter the highlighted
 * answer). `risky` marks anything destructive or irreversible (delete, discard, commit, replace a
 * file, quit with changes unsent): then the highlighted answer is no, and the prompt says so.
 */
export interface Question {
  /** The question in the manager's words, naming what it acts on. */
  message: string;
  risky: boolean;
  /**
   * A risky question whose "yes" can still be put right afterwards (a clock-out that looks
   * mistaken: the review edits it): enter is no to be sure, and the prompt does not claim that
   * yes cannot be undone.
   */
  reversible?: true;
  /** What "yes" does, in a word or two (`Delete`, `Replace`); "Yes" without it. */
  yes?: string;
  /** What "no" does, when it does something of its own (`Replace (→ 3)`); "No" without it. */
  no?: string;
  onYes: () => unknown;
  /** Runs after "no"; the keys go back where they were either way. */
  onNo?: () => unknown;
  /**
   * A choice between two things to do (add or replace): esc is neither, and runs this (it says
   * nothing was done). Without it esc is no.
   */
  onNeither?: () => unknown;
}

/** What sits over the body and owns the keyboard while open. */
export type Overlay =
  | { kind: "none" }
  | { kind: "help" }
  | { kind: "palette" }
  | { kind: "locations" }
  | { kind: "confirm"; question: Question };

/**
 * The status bar's message: the headline in the manager's words, and codes and ids in `details`.
 * `cause` says what condition it reports, so it clears when that condition is gone.
 */
export type Status =
  | { kind: "idle" }
  | ({ kind: "info" } & Said)
  | ({ kind: "rule" } & Said)
  | ({ kind: "error"; cause?: "unreachable" } & Said);

/** What a message says, and which screen said it. */
export interface Said {
  text: string;
  /**
   * The same in fewer words, said when `text` needs more than the status bar's two rows (a
   * narrow terminal): what matters stays whole rather than being cut.
   */
  short?: string;
  details?: string;
  /**
   * The screen that said it: it is shown there only, so moving to another screen does not carry a
   * "Saved …" or a failure along, even one that arrives after the move. Without it the message is
   * the whole app's (shown on every screen).
   */
  screen?: ScreenKind;
}

/** Long work with a known size. */
export interface Progress {
  label: string;
  done: number;
  total: number;
}
