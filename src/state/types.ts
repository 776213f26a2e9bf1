import type { SquareClient } from "../square/index.js";

/** The part of the client the app uses; tests may pass any object of this shape. */
export interface StoreClient {
  labor: Pick<
    SquareClient["labor"],
    | "listBreakTypes"
    | "createBreakType"
    | "updateBreakType"
    | "deleteBreakType"
    | "createShift"
    | "searchShifts"
    | "updateShift"
    | "getShift"
    | "listTeamMemberWages"
    | "listWorkweekConfigs"
  >;
  team: Pick<SquareClient["team"], "searchTeamMembers">;
  locations: Pick<SquareClient["locations"], "listLocations">;
  oauth?: Pick<SquareClient["oauth"], "retrieveTokenStatus">;
}

/** Where "now" comes from; tests pin it. */
export interface Clock {
  now(): Date;
}

/** The environment the app talks to, shown in the header. */
export type EnvLabel = "LOCAL" | "SANDBOX" | "PRODUCTION";

/** The screen in the body: one union, switched exhaustively by the shell. */
export type Screen = { kind: "timeclock" } | { kind: "review" } | { kind: "break-types" };

/** The kinds of screen, in the order of their number keys. */
export const SCREEN_ORDER: readonly Screen["kind"][] = ["timeclock", "review", "break-types"];

/** Titles of the screens, for the tab bar and the palette. */
export const SCREEN_TITLES: Record<Screen["kind"], string> = {
  timeclock: "Time clock",
  review: "Review",
  "break-types": "Break types",
};

/** What sits over the body and owns the keyboard while open. */
export type Overlay =
  | { kind: "none" }
  | { kind: "help" }
  | { kind: "palette" }
  | { kind: "locations" }
  | { kind: "confirm-quit"; reason: string }
  | { kind: "confirm"; message: string; onYes: () => Promise<void> | void };

/** The status bar's message. */
export type Status =
  | { kind: "idle" }
  | { kind: "info"; text: string }
  | { kind: "rule"; text: string }
  | { kind: "error"; code: string; detail: string };

/** Long work with a known size. */
export interface Progress {
  label: string;
  done: number;
  total: number;
}

/** Writes files for the export; injected so tests need no disk. */
export type WriteFile = (path: string, text: string) => Promise<void>;
