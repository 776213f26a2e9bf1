// The screen registry: one entry per screen. The header's tabs, the number keys, the keymap's
// screen commands, help, hints, the palette and the App's body all read this list; a new screen
// is a folder under screens/ and one entry here.
import { BreakTypesScreen } from "./break-types/BreakTypesScreen.js";
import { BREAK_TYPES_KEYS } from "./break-types/keys.js";
import { CustomersScreen } from "./customers/CustomersScreen.js";
import { CUSTOMERS_KEYS } from "./customers/keys.js";
import { REVIEW_KEYS } from "./review/keys.js";
import { ReviewScreen } from "./review/ReviewScreen.js";
import type { ScreenDef } from "./screen-def.js";
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
    refresh: (s) => s.loadReview(undefined, { quiet: true }),
    refreshSeconds: 30,
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
    kind: "customers",
    title: "Customers",
    key: "4",
    component: CustomersScreen,
    bindings: CUSTOMERS_KEYS,
    onShow: (s) => s.customersShow(),
    // One line at 80 columns; that names are looked for in emails, the info line says as you type.
    help: "Search lags up to a minute behind changes made elsewhere: r searches again.",
  },
];
