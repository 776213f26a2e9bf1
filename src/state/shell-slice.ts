import { localTime } from "../domain/time.js";
import type { Location, WorkweekConfig } from "../spec/generated/types.js";
import { isUnreachable, problemOf, type WriteResult } from "./errors.js";
import type { SliceCreator, StoreDeps } from "./store.js";
import type { Connection, EnvLabel, Overlay, Progress, Screen, ScreenKind, Status } from "./types.js";

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
  /** When the data on screen was last read successfully (rows read before a failure are stale). */
  lastReadAt: Date | undefined;
  /** Keys of writes sent and not yet answered. */
  inFlight: readonly string[];
  /** Set once the user has asked to leave; the UI exits on it. */
  exited: boolean;

  /** Loads locations, token status and the workweek; selects the default (or first) location. */
  init(): Promise<void>;
  showScreen(kind: ScreenKind): void;
  openOverlay(overlay: Overlay): void;
  closeOverlay(): void;
  selectLocation(id: string): void;
  /** Chooses all locations, for the screens that can show every store at once. */
  selectAllLocations(): void;
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
  runWrite<T>(key: string, label: string, write: () => Promise<T>): Promise<WriteResult<T>>;
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

/** Builds the shell slice. */
export function createShellSlice(
  set: Parameters<SliceCreator<ShellSlice>>[0],
  get: Parameters<SliceCreator<ShellSlice>>[1],
  deps: StoreDeps,
  initial: ShellInit,
): ShellSlice {
  let reads = 0;
  let starting: Promise<void> | undefined;
  const reached = () => {
    const s = get();
    const patch: Partial<ShellSlice> = { lastReadAt: deps.clock.now() };
    const back = s.connection.state !== "online";
    if (back) patch.connection = { state: "online" };
    // The message reported the service as unreachable; it answers again, so the message goes.
    if (s.status.kind === "error" && s.status.cause === "unreachable") patch.status = { kind: "idle" };
    set(patch);
    if (back) deps.events.emit({ type: "service-answered" });
  };
  const failed = (err: unknown) => {
    const problem = problemOf(err);
    if (isUnreachable(err)) {
      const c = get().connection;
      const read = get().lastReadAt;
      if (read) problem.headline += ` What is shown was read at ${localTime(read, timeZoneOf(get()))}.`;
      set({
        connection:
          c.state === "offline"
            ? { ...c, retrying: false, problem: problem.headline }
            : { state: "offline", since: deps.clock.now(), retrying: false, problem: problem.headline },
        status: { kind: "error", text: problem.headline, cause: "unreachable", ...detailsOf(problem.details) },
      });
    } else {
      // Any answer, even a refusal, means the service is reachable.
      if (get().connection.state !== "online") {
        set({ connection: { state: "online" } });
        deps.events.emit({ type: "service-answered" });
      }
      set({ status: { kind: "error", text: problem.headline, ...detailsOf(problem.details) } });
    }
    return problem;
  };
  /** The first reads: sign-in, locations and the workweek; the default (or first) location chosen. */
  const start = async (): Promise<void> => {
    const client = deps.client;
    // What this machine keeps for the service is counted in the header from the first frame on.
    void get().outboxLoad();
    const status = client.oauth
      ?.retrieveTokenStatus()
      .then((s) => set({ signedIn: "signed-in", merchantId: s.merchant_id, grantedScopes: s.scopes }))
      .catch(() => set({ signedIn: "signed-out" }));
    const loaded = await get().runRead("Loading locations", async () => {
      const [locs, weeks] = await Promise.all([client.locations.listLocations(), client.labor.listWorkweekConfigs()]);
      return {
        locations: (locs.locations ?? []).filter((l) => l.status !== "INACTIVE"),
        workweek: weeks.workweek_configs?.[0],
      };
    });
    if (!loaded) {
      await status;
      return;
    }
    set({
      locations: loaded.locations,
      workweek: loaded.workweek,
      signedIn: client.oauth ? get().signedIn : "signed-in",
    });
    const wanted = initial.defaultLocationId;
    const preferred = wanted ? loaded.locations.find((l) => l.id === wanted) : undefined;
    if (wanted && !preferred) {
      get().setStatus({
        kind: "rule",
        text: "The default location in the config file is not one of this seller's locations; showing the first.",
        details: `defaultLocationId ${wanted}`,
      });
    }
    const first = preferred?.id ?? loaded.locations[0]?.id;
    if (first) get().selectLocation(first);
    await status;
  };
  // Started while the service did not answer: when it answers, the app starts for real.
  deps.events.on("service-answered", () => {
    if (get().locations.length === 0) void get().init();
  });
  deps.events.on("session-changed", (e) => {
    set({ signedIn: e.signedIn ? "signed-in" : "signed-out", merchantId: e.merchantId });
    // Signed in after starting signed out: read what the first start could not.
    if (e.signedIn && get().locations.length === 0 && !get().loading) void get().init();
  });
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
    lastReadAt: undefined,
    inFlight: [],
    exited: false,

    init() {
      // One start at a time: the service answering again may ask for one while another runs.
      starting ??= start().finally(() => {
        starting = undefined;
      });
      return starting;
    },

    showScreen(kind) {
      const s = get();
      if (s.screen.kind === kind && s.overlay.kind === "none") return;
      // A message belongs to the screen it was said on, unless it reports the service being down.
      const keep = s.status.kind === "error" && s.status.cause === "unreachable";
      set({ screen: { kind } as Screen, overlay: { kind: "none" }, ...(keep ? {} : { status: { kind: "idle" } }) });
    },

    openOverlay(overlay) {
      set({ overlay });
    },

    closeOverlay() {
      set({ overlay: { kind: "none" } });
    },

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

    setStatus(status) {
      set({ status });
    },

    tick() {
      const now = deps.clock.now();
      if (Math.floor(now.getTime() / 60_000) !== Math.floor(get().now.getTime() / 60_000)) set({ now });
    },

    requestQuit() {
      const pending = get().inFlight.length;
      if (pending > 0) {
        get().ask({
          message: `${pending} change${pending > 1 ? "s are" : " is"} still being sent. Quit anyway?`,
          risky: true,
          yes: "Quit",
          onYes: () => get().quit(),
        });
        return;
      }
      const kept = get().outbox.entries.length;
      if (kept > 0) {
        get().ask({
          message: `${kept} change${kept > 1 ? "s are" : " is"} kept on this machine, not yet sent; backroom sends ${kept > 1 ? "them" : "it"} the next time it starts against this service. Quit?`,
          risky: false,
          yes: "Quit",
          onYes: () => get().quit(),
        });
        return;
      }
      get().quit();
    },

    quit() {
      set({ exited: true, overlay: { kind: "none" } });
    },

    async runWrite(key, label, write) {
      // The one read-only guard: every write of every screen passes here.
      if (get().readOnly) {
        set({ status: { kind: "rule", text: "Read-only mode: changes are disabled." } });
        return { ok: false, error: { kind: "read-only" } };
      }
      if (get().inFlight.includes(key)) return { ok: false, error: { kind: "in-flight" } };
      set((s) => ({ inFlight: [...s.inFlight, key], status: { kind: "info", text: `${label}…` } }));
      try {
        const value = await write();
        reached();
        set({ status: { kind: "info", text: `${label}: done.` } });
        return { ok: true, value };
      } catch (cause) {
        const problem = failed(cause);
        return { ok: false, error: { kind: "failed", cause, problem } };
      } finally {
        set((s) => ({ inFlight: s.inFlight.filter((k) => k !== key) }));
      }
    },

    async runRead(label, read, options = {}) {
      reads += 1;
      if (!options.quiet) set({ loading: label });
      const c = get().connection;
      if (c.state === "offline" && !c.retrying) set({ connection: { ...c, retrying: true } });
      try {
        const value = await read();
        reached();
        return value;
      } catch (err) {
        failed(err);
        return undefined;
      } finally {
        reads -= 1;
        if (reads === 0 && get().loading !== undefined) set({ loading: undefined });
      }
    },
  };
}

/** The IANA time zone of the selected location (UTC when it has none). */
export function timeZoneOf(s: {
  locations: { id?: string; timezone?: string }[];
  locationId: string | undefined;
}): string {
  return s.locations.find((l) => l.id === s.locationId)?.timezone ?? "UTC";
}

function detailsOf(details: string | undefined): { details?: string } {
  return details ? { details } : {};
}

/**
 * The country of the selected location (phone numbers are read as its numbers), or of the first
 * location that names one; undefined when none does.
 */
export function countryOf(s: { locations: readonly Location[]; locationId: string | undefined }): string | undefined {
  return s.locations.find((l) => l.id === s.locationId)?.country ?? s.locations.find((l) => l.country)?.country;
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
