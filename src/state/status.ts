/**
 * Which screen a status message belongs to: a message is said by a screen and shown on it only
 * (`Said.screen` in types.ts); the shell stamps one said without an owner with the screen in front.
 */
import type { ShellSlice } from "./shell-slice.js";
import type { ScreenKind, Status } from "./types.js";

/** The message as said by `screen`, unless it already names its screen (or is no message). */
export function saidOn(status: Status, screen: ScreenKind): Status {
  return status.kind === "idle" || status.screen ? status : { ...status, screen };
}

/** Whether the message may be shown on `screen`: it is that screen's, or the whole app's. */
export function belongsTo(status: Status, screen: ScreenKind): boolean {
  return status.kind === "idle" || !status.screen || status.screen === screen;
}

/** The status bar's message on the screen in front: another screen's message is not shown here. */
export function shownStatus(s: Pick<ShellSlice, "status" | "screen">): Status {
  return belongsTo(s.status, s.screen.kind) ? s.status : IDLE;
}

const IDLE: Status = { kind: "idle" };
