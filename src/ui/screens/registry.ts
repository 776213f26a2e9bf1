// The screen registry: one entry per screen. The header's tabs, the number keys, the keyboard,
// help, hints, the palette and the App's body all read this list; a new screen is a folder under
// screens/ (its `screen.ts` holds the rest of its entry) and one entry here (and, with its key, it
// gets the shell's focus tests for free).
//
// How a screen is loaded. The time clock, which the first frame shows, is imported here. Every
// other screen is loaded on first use: its entry here is only its name, key and title, the store
// slices it needs (src/state/store.ts `LAZY_SLICES`) and a dynamic import of its `screen.ts`, which
// the bundle splits into a chunk of its own with its components, commands, state and domain code.
// When it is first shown the shell (src/ui/shell.tsx) loads the module and the slices, shows
// "Loading …" meanwhile and holds the keys typed until it is in, then hands them over in order.
// test/first-frame.test.ts fails if a lazy screen's code is pulled into the first frame again.

import type { ScreenEntry } from "./screen-def.js";
import { TIMECLOCK } from "./timeclock/screen.js";

/** Every screen, in the order of its number key (a screen without one comes after, by tab). */
export const SCREENS: readonly ScreenEntry[] = [
  TIMECLOCK,
  {
    kind: "review",
    title: "Review",
    reads: "the shifts",
    key: "2",
    allLocations: true,
    slices: ["review"],
    load: async () => (await import("./review/screen.js")).REVIEW,
  },
  {
    kind: "break-types",
    title: "Break types",
    reads: "the break types",
    key: "3",
    slices: [],
    load: async () => (await import("./break-types/screen.js")).BREAK_TYPES,
  },
  {
    kind: "stocktake",
    title: "Stocktake",
    reads: "the counts",
    key: "4",
    slices: ["stocktake"],
    load: async () => (await import("./stocktake/screen.js")).STOCKTAKE,
  },
  {
    kind: "customers",
    title: "Customers",
    reads: "the customers",
    key: "5",
    slices: ["customers"],
    load: async () => (await import("./customers/screen.js")).CUSTOMERS,
  },
  {
    kind: "drawers",
    title: "Drawers",
    reads: "the drawers",
    key: "6",
    slices: ["drawers"],
    load: async () => (await import("./drawers/screen.js")).DRAWERS,
  },
  {
    kind: "payouts",
    title: "Payouts",
    reads: "the payouts",
    key: "7",
    allLocations: true,
    slices: ["payouts"],
    load: async () => (await import("./payouts/screen.js")).PAYOUTS,
  },
  {
    kind: "gift-cards",
    title: "Gift cards",
    reads: "the gift cards",
    key: "8",
    allLocations: true,
    slices: ["giftCards"],
    load: async () => (await import("./gift-cards/screen.js")).GIFT_CARDS,
  },
  {
    kind: "v1",
    title: "Old transactions (V1)",
    reads: "the old transactions",
    key: "9",
    allLocations: true,
    slices: ["v1"],
    load: async () => (await import("./v1/screen.js")).V1,
  },
  {
    kind: "account",
    title: "Account",
    key: "0",
    withoutLocation: true,
    slices: [],
    load: async () => (await import("./account/screen.js")).ACCOUNT,
  },
  {
    kind: "webhooks",
    title: "Webhooks",
    reads: "the subscriptions",
    slices: ["webhooks"],
    load: async () => (await import("./webhooks/screen.js")).WEBHOOKS,
  },
  {
    kind: "outbox",
    title: "Kept",
    // What it lists is kept on this machine: it is shown before the service has answered.
    withoutLocation: true,
    slices: [],
    load: async () => (await import("./outbox/screen.js")).OUTBOX,
  },
];
