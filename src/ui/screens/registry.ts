// The screen registry: one entry per screen. The header's tabs, the number keys, the keymap's
// screen commands, help, hints, the palette and the App's body all read this list; a new screen
// is a folder under screens/ and one entry here.
import { BreakTypesScreen } from "./break-types/BreakTypesScreen.js";
import { BREAK_TYPES_KEYS } from "./break-types/keys.js";
import { CustomersScreen } from "./customers/CustomersScreen.js";
import { CUSTOMERS_KEYS } from "./customers/keys.js";
import { DrawersScreen } from "./drawers/DrawersScreen.js";
import { DRAWERS_KEYS } from "./drawers/keys.js";
import { REVIEW_KEYS } from "./review/keys.js";
import { ReviewScreen } from "./review/ReviewScreen.js";
import type { ScreenDef } from "./screen-def.js";
import { STOCKTAKE_KEYS } from "./stocktake/keys.js";
import { StocktakeScreen } from "./stocktake/StocktakeScreen.js";
import { TIMECLOCK_KEYS } from "./timeclock/keys.js";
import { TimeClockScreen } from "./timeclock/TimeClockScreen.js";

/** Every screen, in the order of its number key. */
export const SCREENS: readonly ScreenDef[] = [
  {
    kind: "timeclock",
    title: "Time clock",
    key: "1",
    component: TimeClockScreen,
    bindings: TIMECLOCK_KEYS,
    onLocationChange: (s) => Promise.all([s.loadTimeClock(), s.loadBreakTypes()]),
    refresh: (s) => s.loadTimeClock({ quiet: true }),
  },
  {
    kind: "review",
    title: "Review",
    key: "2",
    component: ReviewScreen,
    bindings: REVIEW_KEYS,
    onShow: (s) => s.loadReviewIfStale(),
    onLocationChange: (s, visible) => (visible ? s.loadReview() : undefined),
    refresh: (s) => s.refreshReview(),
    refreshSeconds: 30,
    help: "Overtime and the pay period follow the config file. A shift without a wage is costed at the member's wage for its job, or flagged no wage and left out of the cost. Every 30 s a range of over 200 shifts reads only what changed, and all of it every 5 minutes: a shift deleted or moved away elsewhere may stay until then (r reads it all now).",
  },
  {
    kind: "break-types",
    title: "Break types",
    key: "3",
    component: BreakTypesScreen,
    bindings: BREAK_TYPES_KEYS,
    onShow: (s) => s.loadBreakTypes(),
    refresh: (s) => s.loadBreakTypes({ quiet: true }),
    refreshSeconds: 30,
  },
  {
    kind: "stocktake",
    title: "Stocktake",
    key: "4",
    component: StocktakeScreen,
    bindings: STOCKTAKE_KEYS,
    onShow: (s) => s.loadStocktakeHome(),
    onLocationChange: (s) => s.stocktakeLocationChanged(),
    refresh: (s) => s.stocktakeRefreshExpected({ quiet: true }),
    refreshSeconds: 30,
    help: "Counts are journaled line by line on this machine ($XDG_DATA_HOME/backroom/stocktake.db): a count survives the terminal closing, and a commit that stopped halfway finishes without counting anything twice.",
  },
  {
    kind: "customers",
    title: "Customers",
    key: "5",
    component: CustomersScreen,
    bindings: CUSTOMERS_KEYS,
    onShow: (s) => s.customersShow(),
    refresh: (s) => s.customersRefreshIndex(),
    refreshSeconds: 30,
    help: "Found from the customer index on this machine, refreshed every 30 s (r now); an opened profile is read from the service.",
  },
  {
    kind: "drawers",
    title: "Drawers",
    key: "6",
    component: DrawersScreen,
    bindings: DRAWERS_KEYS,
    onShow: (s) => s.loadDrawersIfStale(),
    onLocationChange: (s, visible) => (visible ? s.loadDrawers() : undefined),
    refresh: (s) =>
      s.drawers.view === "day" && s.drawers.form.kind === "none"
        ? s.loadDrawers(undefined, { quiet: true })
        : undefined,
    refreshSeconds: 60,
    help: "Over/short is counted − expected: + over, - short. ! needs attention (still open, or ended and not counted); ≠ the shift's events do not add up to its expected cash.",
  },
];
