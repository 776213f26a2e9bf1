// The screen registry: one entry per screen. The header's tabs, the number keys, the keyboard,
// help, hints, the palette and the App's body all read this list; a new screen is a folder under
// screens/ and one entry here (and, with its key, it gets the shell's focus tests for free).

import type { AppState } from "../../state/index.js";
import { V1_LIST_NAMES } from "../../state/v1-machine.js";
import { listCommands, moveFromField } from "../commands.js";
import { fieldPlace, focusedField, formPlace, listPlace, pickerPlace } from "../focus.js";
import { AccountScreen } from "./account/AccountScreen.js";
import { ACCOUNT_COMMANDS, ACCOUNT_LIST, TOKEN_FIELD } from "./account/commands.js";
import { BreakTypesScreen } from "./break-types/BreakTypesScreen.js";
import { BREAK_TYPES_COMMANDS } from "./break-types/commands.js";
import { CustomersScreen } from "./customers/CustomersScreen.js";
import { CUSTOMERS_COMMANDS, reloadCustomers, SEARCH_FIELD, searchLineKey } from "./customers/commands.js";
import { DRAWERS_COMMANDS, reloadDrawers } from "./drawers/commands.js";
import { DrawersScreen } from "./drawers/DrawersScreen.js";
import {
  GIFT_CARDS_COMMANDS,
  LOOKUP_FIELD,
  lookupLineKey,
  reloadGiftCards,
  scanGiftCard,
} from "./gift-cards/commands.js";
import { GiftCardsScreen } from "./gift-cards/GiftCardsScreen.js";
import { OUTBOX_COMMANDS } from "./outbox/commands.js";
import { OutboxScreen } from "./outbox/OutboxScreen.js";
import { FIND_FIELD, PAYOUTS_COMMANDS, payoutsRows } from "./payouts/commands.js";
import { PayoutsScreen } from "./payouts/PayoutsScreen.js";
import { REVIEW_COMMANDS } from "./review/commands.js";
import { ReviewScreen } from "./review/ReviewScreen.js";
import { type AnyScreenDef, defineScreen, whileShown } from "./screen-def.js";
import { COUNTING_LINE, reloadStocktake, STOCKTAKE_COMMANDS, scanIntoCount } from "./stocktake/commands.js";
import { StocktakeScreen } from "./stocktake/StocktakeScreen.js";
import { TIMECLOCK_COMMANDS } from "./timeclock/commands.js";
import { TimeClockScreen } from "./timeclock/TimeClockScreen.js";
import { reloadV1, V1_COMMANDS } from "./v1/commands.js";
import { V1Screen } from "./v1/V1Screen.js";
import { FILTER_FIELD, reloadWebhooks, WEBHOOK_MOVES, WEBHOOKS_COMMANDS, webhookRows } from "./webhooks/commands.js";
import { WebhooksScreen } from "./webhooks/WebhooksScreen.js";

const TIMECLOCK = defineScreen({
  kind: "timeclock",
  title: "Time clock",
  key: "1",
  component: TimeClockScreen,
  commands: TIMECLOCK_COMMANDS,
  focus: (s) => {
    const form = s.timeclock.form.kind;
    if (form === "filter")
      return fieldPlace("filter", (st) => st.openTimeClockForm({ kind: "none" }), { hint: "a name filters the list" });
    if (form === "pick-break") return pickerPlace("break picker");
    return form === "none" ? listPlace("who is here") : formPlace(form);
  },
  fields: { filter: "filter" },
  reload: (s) => s.loadTimeClock(),
  onLocationChange: (s) => Promise.all([s.loadTimeClock(), s.loadBreakTypes()]),
  refresh: (s) => s.loadTimeClock({ quiet: true }),
});

const REVIEW = defineScreen({
  kind: "review",
  title: "Review",
  key: "2",
  component: ReviewScreen,
  commands: REVIEW_COMMANDS,
  focus: (s) => {
    const form = s.review.form.kind;
    if (form === "filter")
      return fieldPlace("filter", (st) => st.openReviewForm({ kind: "none" }), { hint: "a name filters the members" });
    return form === "none" ? listPlace(s.review.view) : formPlace(form);
  },
  fields: { filter: "filter" },
  allLocations: true,
  reload: (s) => s.loadReview(undefined, { team: true }),
  onShow: (s) => s.loadReviewIfStale(),
  onLocationChange: whileShown((s) => s.loadReview()),
  refresh: (s) => s.refreshReview(),
  refreshSeconds: 30,
  help: "Overtime and the pay period follow the config file. A shift without a wage is costed at the member's wage for its job, or flagged no wage and left out of the cost. Every 30 s a range of over 200 shifts reads only what changed, and all of it every 5 minutes: a shift deleted or moved away elsewhere may stay until then (r reads it all now).",
});

const BREAK_TYPES = defineScreen({
  kind: "break-types",
  title: "Break types",
  key: "3",
  component: BreakTypesScreen,
  commands: BREAK_TYPES_COMMANDS,
  focus: (s) => (s.breakTypes.form.kind === "none" ? listPlace("break types") : formPlace("break type")),
  reload: (s) => s.loadBreakTypes(),
  onShow: (s) => s.loadBreakTypes(),
  refresh: (s) => s.loadBreakTypes({ quiet: true }),
  refreshSeconds: 30,
});

const STOCKTAKE = defineScreen({
  kind: "stocktake",
  title: "Stocktake",
  key: "4",
  component: StocktakeScreen,
  commands: STOCKTAKE_COMMANDS,
  // A burst is a scan (counted) wherever the keys are, except in its forms: a quantity, a file's
  // path, the item an unknown code is (its SKU or UPC, scanned or typed, answers the form), and the
  // start's search words or SKUs (src/ui/focus.ts).
  focus: (s) => {
    const st = s.stocktake;
    if (st.form.kind !== "none") return formPlace(st.form.kind, { scans: "text" });
    if (st.view.kind === "start")
      return st.view.step === "search" || st.view.step === "skus"
        ? formPlace(st.view.step, { scans: "text" })
        : pickerPlace("start");
    if (st.view.kind !== "count") return listPlace(st.view.kind);
    if (st.prompt.kind === "pick") return pickerPlace("pick");
    if (!st.typing) return listPlace("count");
    // Typing is what this view is for: the line has the keys on arrival, and the hint bar says so.
    const leave = (x: AppState) => {
      if (x.stocktake.prompt.kind === "quantity") x.stocktakeCancelPrompt();
      x.stocktakeSetTyping(false);
    };
    return fieldPlace(COUNTING_LINE, leave, {
      onKey: moveFromField(STOCKTAKE_COMMANDS),
      hint: "a code, name or +N · enter counts",
    });
  },
  fields: { [COUNTING_LINE]: "type" },
  onScan: scanIntoCount,
  reload: reloadStocktake,
  onShow: (s) => s.loadStocktakeHome(),
  onLocationChange: (s) => s.stocktakeLocationChanged(),
  refresh: (s) => s.stocktakeRefreshExpected({ quiet: true }),
  refreshSeconds: 30,
  help: "On the counting line a quantity for an item already counted asks whether it adds or replaces; +N adds, =N replaces without asking (`stocktake import` always adds its rows up). A count far from the books (over 10× the expected, or 500 units over) is asked about once. Items from outside the count's scope are marked and get their expected quantity from the service (… until it arrives). A blind count (b) hides the expected while counting; the review shows it. Counts are journaled line by line on this machine ($XDG_DATA_HOME/backroom/stocktake.db): a count survives the terminal closing, and a commit that stopped halfway finishes without counting anything twice.",
});

const CUSTOMERS = defineScreen({
  kind: "customers",
  title: "Customers",
  key: "5",
  component: CustomersScreen,
  commands: CUSTOMERS_COMMANDS,
  focus: (s) => {
    const view = s.customers.view.kind;
    if (view === "filters" || view === "create" || view === "edit") return formPlace(view);
    if (view !== "list") return pickerPlace(view);
    const search = { onKey: searchLineKey, hint: "name, email, phone, ref id · enter opens" };
    return focusedField(s, "customers", SEARCH_FIELD, search) ?? listPlace("customers");
  },
  fields: { [SEARCH_FIELD]: "search" },
  reload: reloadCustomers,
  onShow: (s) => s.customersShow(),
  refresh: (s) => s.customersRefreshIndex(),
  refreshSeconds: 30,
  help: "Found from the customer index on this machine, refreshed every 30 s (r now); an opened profile is read from the service.",
});

const DRAWERS = defineScreen({
  kind: "drawers",
  title: "Drawers",
  key: "6",
  component: DrawersScreen,
  commands: DRAWERS_COMMANDS,
  focus: (s) => {
    const form = s.drawers.form.kind;
    if (form === "filter") return pickerPlace("event filter");
    return form === "none" ? listPlace(s.drawers.view) : formPlace(form);
  },
  reload: reloadDrawers,
  onShow: (s) => s.loadDrawersIfStale(),
  onLocationChange: whileShown((s) => s.loadDrawers()),
  refresh: (s) =>
    s.drawers.view === "day" && s.drawers.form.kind === "none" ? s.loadDrawers(undefined, { quiet: true }) : undefined,
  refreshSeconds: 60,
  help: "Over/short is counted − expected: + over, - short. ! needs attention (still open, or ended and not counted); ≠ the shift's events do not add up to its expected cash.",
});

const PAYOUTS = defineScreen({
  kind: "payouts",
  title: "Payouts",
  key: "7",
  component: PayoutsScreen,
  commands: PAYOUTS_COMMANDS,
  focus: (s) => {
    const form = s.payouts.form.kind;
    if (form !== "none") return formPlace(form);
    const find = { onKey: moveFromField(listCommands(payoutsRows)) };
    return focusedField(s, "payouts", FIND_FIELD, find) ?? listPlace(`payouts.${s.payouts.view}`);
  },
  fields: { [FIND_FIELD]: "find" },
  allLocations: true,
  reload: (s) => s.reloadPayouts(),
  onShow: (s) => s.loadPayoutsIfStale(),
  onLocationChange: whileShown((s) => s.loadPayouts()),
  // A payout sent this morning is paid by the afternoon: the list is read again now and then.
  refresh: (s) =>
    s.payouts.view === "list" && s.payouts.form.kind === "none" ? s.loadPayouts({ quiet: true }) : undefined,
  refreshSeconds: 120,
  help: "All locations (L, the location picker) lists every store's payouts, with a Location column. Fees are the entries' fees as the payouts guide adds them (a refund's fee counts back); the rate is fees over the gross of charges. The service keeps payouts from January 2021.",
});

const GIFT_CARDS = defineScreen({
  kind: "gift-cards",
  title: "Gift cards",
  key: "8",
  component: GiftCardsScreen,
  commands: GIFT_CARDS_COMMANDS,
  // A burst is a scan (the card looked up) from the list and the look-up line; in a change's form
  // (amounts, reasons, order ids) and the days form it is typed text (src/ui/focus.ts).
  focus: (s) => {
    const form = s.giftCards.form.kind;
    if (form === "write") return formPlace("gift card change", { scans: "text" });
    if (form === "range") return formPlace("days", { scans: "text" });
    return (
      focusedField(s, "gift-cards", LOOKUP_FIELD, { onKey: lookupLineKey }) ??
      listPlace(s.giftCards.view === "card" ? "history" : "activity")
    );
  },
  fields: { [LOOKUP_FIELD]: "find" },
  allLocations: true,
  onScan: scanGiftCard,
  reload: reloadGiftCards,
  // Back on the screen: the card shown is read again (it may have been spent meanwhile), quietly.
  onShow: (s) =>
    s.giftCards.view === "activity" ? s.showGiftCardsView("activity") : s.reloadGiftCard({ quiet: true }),
  onLocationChange: whileShown((s) => (s.giftCards.view === "activity" ? s.loadGiftCardActivity() : undefined)),
  // A card changed at the till or in another terminal shows its new balance without a key press.
  refresh: (s) => {
    const g = s.giftCards;
    if (g.form.kind !== "none" || g.pending) return undefined;
    return g.view === "card" ? s.reloadGiftCard({ quiet: true }) : s.loadGiftCardActivity({ quiet: true });
  },
  refreshSeconds: 30,
  help: "A scan looks the card up wherever the keys are. Changes ask first, with the balance before → after; one the service did not answer is kept and sent again as it was (R), never twice. The liability is the balance of every active card of the seller. All locations (L, the location picker) shows the activity of every store, each on its own clock, with where it happened.",
});

const V1 = defineScreen({
  kind: "v1",
  title: "Old transactions (V1)",
  key: "9",
  component: V1Screen,
  commands: V1_COMMANDS,
  focus: (s) => {
    const form = s.v1.form.kind;
    if (form !== "none") return formPlace(form);
    return listPlace(s.v1.detail ? "v1.detail" : V1_LIST_NAMES[s.v1.view]);
  },
  allLocations: true,
  reload: reloadV1,
  onShow: (s) => s.loadV1(),
  onLocationChange: whileShown((s) => s.loadV1()),
  help: "Read through the service's V1 interface, which it has deprecated. All locations (L, the location picker) reads every store's records, with a Location column. Dates: at most one year, not before 2013-01-01; without dates the last 30 days (the service's own default is a year). A refund is checked against the interface's rules (60 days, split tender, what is left) before anything is sent.",
});

const WEBHOOKS = defineScreen({
  kind: "webhooks",
  title: "Webhooks",
  component: WebhooksScreen,
  commands: WEBHOOKS_COMMANDS,
  focus: (s) => {
    if (s.webhooks.form?.step === "fields") return formPlace("subscription");
    const filter = { onKey: moveFromField(WEBHOOK_MOVES) };
    return focusedField(s, "webhooks", FILTER_FIELD, filter) ?? listPlace(webhookRows(s)?.list ?? "webhooks");
  },
  fields: { [FILTER_FIELD]: "filter" },
  reload: reloadWebhooks,
  onShow: (s) => s.loadWebhooks(),
  // Changes made elsewhere (another terminal, the dashboard) show up; never over an open form, a
  // test being chosen, or a key shown once.
  refresh: (s) => {
    const w = s.webhooks;
    return w.form || w.testPick || w.revealed ? undefined : s.loadWebhooks({ quiet: true });
  },
  refreshSeconds: 30,
  help: "Subscriptions belong to the application, not to one seller: on the real service they are managed with the application's personal access token (backroom login --token). `backroom webhooks listen` receives and verifies the events on this machine.",
});

const ACCOUNT = defineScreen({
  kind: "account",
  title: "Account",
  key: "0",
  component: AccountScreen,
  commands: ACCOUNT_COMMANDS,
  focus: (s) =>
    s.field.account === TOKEN_FIELD && s.account.signIn.step === "token"
      ? // A masked field: esc closes it and forgets what was typed (a token is not kept half-typed).
        { kind: "field", name: TOKEN_FIELD, leave: (st) => st.accountCancelSignIn() }
      : listPlace(ACCOUNT_LIST),
  // The token field is not listed in `fields`: it shows only •, so the shell's field test (which
  // reads the typed text back) cannot apply; test/ui-account.test.tsx covers its esc and keys.
  // It takes no scans: a password manager's auto-type (the token and Enter, faster than a person)
  // into the token field is typed text and Enter (src/ui/focus.ts), and signs in.
  reload: (s) => s.loadAccount(),
  onShow: (s) => s.loadAccount({ quiet: true }),
  withoutLocation: true,
  help: "Tokens are never shown: only their last four characters. OAuth access tokens last 30 days and backroom refreshes one in its last week; an expired one can be renewed (deprecated RenewToken, with BACKROOM_CLIENT_SECRET) for 15 days. Signing out revokes every token of the account for the application when the secret is set.",
});

/** Every screen, in the order of its number key (a screen without one comes after, by tab). */
const OUTBOX = defineScreen({
  kind: "outbox",
  title: "Kept",
  component: OutboxScreen,
  commands: OUTBOX_COMMANDS,
  focus: (s) => (s.outbox.form.kind === "change-time" ? formPlace("change time") : listPlace("kept writes")),
  reload: (s) => s.outboxCheck(),
  onShow: (s) => s.outboxLoad(),
  help: "Changes made while the service did not answer are kept on this machine (the outbox, fsync'd) with their keys, and sent in the order made, once, when it answers again. A change the service then refused waits here, To resolve, with why: send it again at another time or over the newer version, discard it, or open what it is about.",
});

export const SCREENS: readonly AnyScreenDef[] = [
  TIMECLOCK,
  REVIEW,
  BREAK_TYPES,
  STOCKTAKE,
  CUSTOMERS,
  DRAWERS,
  PAYOUTS,
  GIFT_CARDS,
  V1,
  ACCOUNT,
  WEBHOOKS,
  OUTBOX,
];
