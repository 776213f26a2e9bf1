/**
 * The shell slice: screen, overlay, header data, connection, status bar and the write guard. The
 * runners of reads and writes live in shell-connection.ts, the start and quit in shell-lifecycle.ts.
 */
import type { Location, WorkweekConfig } from "../spec/generated/types.js";
import type { WriteResult } from "./errors.js";
import { connectionActions, type ShellIo } from "./shell-connection.js";
import { lifecycleActions } from "./shell-lifecycle.js";
import { belongsTo, saidOn } from "./status.js";

import type { SliceCreator, StoreDeps } from "./store.js";
import type { Connection, EnvLabel, Overlay, Progress, Screen, ScreenKind, Status } from "./types.js";

export { countryOf, timeZoneOf } from "./shell-location.js";

/** The shell: screen, overlay, header data, connection, status bar and the write guard. */
export interface ShellSlice {
  env: EnvLabel;
  /** The service's address when it is not the demo store or a named environment's default. */
  baseUrl: string | undefined;
  readOnly: boolean;
  /** A standing warning the status bar keeps showing (e.g. no keychain). */
  notice: string | undefined;
  screen: Screen;
  overlay: Overlay;
  status: Status;
  /** Label of the read in progress (a spinner shows while set). */
  loading: string | undefined;
  progress: Progress | undefined;
  now: Date;
  locations: Location[];
  locationId: string | undefined;
  /**
   * The location picker's "All locations": screens that can show every store at once (the
   * review) do; the others keep showing `locationId`'s.
   */
  allLocations: boolean;
  signedIn: "checking" | "signed-in" | "signed-out";
  merchantId: string | undefined;
  /** The permissions the sign-in was given, as the service reports them; undefined until known. */
  grantedScopes: readonly string[] | undefined;
  workweek: WorkweekConfig | undefined;
  connection: Connection;
  /**
   * When each screen last had an answer to a read or write it started: what it shows was read
   * then. A screen missing here shows nothing the service answered.
   */
  readAt: Partial<Record<ScreenKind, Date>>;
  /** Keys of writes sent and not yet answered. */
  inFlight: readonly string[];
  /** Set once the user has asked to leave; the UI exits on it. */
  exited: boolean;

  /**
   * Loads locations, token status and the workweek; selects the default (or first) location.
   * Resolves true when the locations were read.
   */
  init(): Promise<boolean>;
  showScreen(kind: ScreenKind): void;
  openOverlay(overlay: Overlay): void;
  closeOverlay(): void;
  selectLocation(id: string): void;
  /** Chooses all locations, for the screens that can show every store at once. */
  selectAllLocations(): void;
  /** Says something in the status bar, as the screen in front unless the status names its screen. */
  setStatus(status: Status): void;
  /** Re-reads the clock; the header shows minutes, so only a new minute re-renders. */
  tick(): void;
  /** Quits, or asks first when writes are still on their way, or kept on this machine (saying how many). */
  requestQuit(): void;
  quit(): void;
  /**
   * Runs one write unless a write with the same key is already on its way (a double key press
   * sends one request) or the app is read-only. Failures land in the status bar too.
   */
  runWrite<T>(
    key: string,
    label: string,
    write: () => Promise<T>,
    options?: { triesTold?: boolean },
  ): Promise<WriteResult<T>>;
  /**
   * A try of a long write (a stocktake commit's request) ended: `error` undefined or a refusal says
   * the service answered (online); a failure to reach it puts the header offline at once. A write
   * run with `triesTold` tells every try so; its end then leaves the connection as the tries left it.
   */
  noteTry(error: unknown): void;
  /** Runs a read with the spinner on; failures land in the status bar and the connection state. */
  runRead<T>(label: string, read: () => Promise<T>, options?: { quiet?: boolean }): Promise<T | undefined>;
}

/** What the shell starts with. */
export interface ShellInit {
  env: EnvLabel;
  baseUrl?: string | undefined;
  readOnly: boolean;
  notice: string | undefined;
  /** The location to open on (config `defaultLocationId`); the first active one otherwise. */
  defaultLocationId?: string | undefined;
}

/** The shell's state before the first read. */
function initialShell(deps: StoreDeps, initial: ShellInit) {
  return {
    env: initial.env,
    baseUrl: initial.baseUrl,
    readOnly: initial.readOnly,
    notice: initial.notice,
    screen: { kind: "timeclock" },
    overlay: { kind: "none" },
    status: { kind: "idle" },
    loading: undefined,
    progress: undefined,
    now: deps.clock.now(),
    locations: [],
    locationId: undefined,
    allLocations: false,
    signedIn: "checking",
    merchantId: undefined,
    grantedScopes: undefined,
    workweek: undefined,
    connection: { state: "unknown" },
    readAt: {},
    inFlight: [],
    exited: false,
  } satisfies Partial<ShellSlice>;
}

/** The actions that move around the app: screens, overlays, the location (or all of them), the status bar. */
function navigationActions({ set, get, deps }: ShellIo) {
  return {
    showScreen(kind) {
      const s = get();
      if (s.screen.kind === kind && s.overlay.kind === "none") return;
      // A message belongs to the screen it was said on (the header says whether the service answers).
      const keep = belongsTo(s.status, kind);
      set({ screen: { kind } as Screen, overlay: { kind: "none" }, ...(keep ? {} : { status: { kind: "idle" } }) });
    },
    openOverlay: (overlay) => set({ overlay }),
    closeOverlay: () => set({ overlay: { kind: "none" } }),
    selectLocation(id) {
      const wasAll = get().allLocations;
      set({ locationId: id, allLocations: false, overlay: { kind: "none" } });
      deps.events.emit({ type: "location-changed", locationId: id });
      if (wasAll) deps.events.emit({ type: "all-locations-changed", all: false });
    },
    selectAllLocations() {
      const was = get().allLocations;
      set({ allLocations: true, overlay: { kind: "none" } });
      if (!was) deps.events.emit({ type: "all-locations-changed", all: true });
    },
    setStatus: (status) => set({ status: saidOn(status, get().screen.kind) }),
    tick() {
      const now = deps.clock.now();
      if (Math.floor(now.getTime() / 60_000) !== Math.floor(get().now.getTime() / 60_000)) set({ now });
    },
  } satisfies Partial<ShellSlice>;
}

/** Builds the shell slice. */
export function createShellSlice(
  set: Parameters<SliceCreator<ShellSlice>>[0],
  get: Parameters<SliceCreator<ShellSlice>>[1],
  deps: StoreDeps,
  initial: ShellInit,
): ShellSlice {
  const io: ShellIo = { set, get, deps };
  return {
    ...initialShell(deps, initial),
    ...lifecycleActions(io, initial),
    ...navigationActions(io),
    ...connectionActions(io),
  };
}

/**
 * Where a screen that can show every store reads (its registry entry says `allLocations`): "all"
 * when the location picker's All locations is chosen, else the selected location's id. It keys
 * what such a screen has read, so a read for one place is never shown for another.
 */
export function placeKey(s: Pick<ShellSlice, "allLocations" | "locationId">): string {
  return s.allLocations ? "all" : (s.locationId ?? "");
}

/** The locations such a screen covers: every one when All locations is chosen, else the selected one. */
export function coveredLocations(s: Pick<ShellSlice, "allLocations" | "locations" | "locationId">): Location[] {
  return s.allLocations ? s.locations : s.locations.filter((l) => l.id === s.locationId);
}
