import type { Location, WorkweekConfig } from "../spec/generated/types.js";
import { statusOfError } from "./errors.js";
import type { SliceCreator, StoreDeps } from "./store.js";
import { type EnvLabel, type Overlay, type Progress, SCREEN_ORDER, type Screen, type Status } from "./types.js";

/** The shell: screen, overlay, header data, status bar and the write guard. */
export interface ShellSlice {
  env: EnvLabel;
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
  signedIn: "checking" | "signed-in" | "signed-out";
  merchantId: string | undefined;
  workweek: WorkweekConfig | undefined;
  /** Keys of writes sent and not yet answered. */
  inFlight: readonly string[];
  /** Set once the user has asked to leave; the UI exits on it. */
  exited: boolean;

  /** Loads locations, token status and the first screen's data. */
  init(): Promise<void>;
  showScreen(kind: Screen["kind"]): void;
  /** Moves to the next (or previous) screen in number order. */
  cycleScreen(step: 1 | -1): void;
  openOverlay(overlay: Overlay): void;
  closeOverlay(): void;
  selectLocation(id: string): Promise<void>;
  setStatus(status: Status): void;
  /** Re-reads the clock; the header shows minutes, so only a new minute re-renders. */
  tick(): void;
  /** Quits, or asks first when writes are still on their way. */
  requestQuit(): void;
  quit(): void;
  /**
   * Runs one write unless a write with the same key is already on its way: a double key press
   * sends one request. Failures land in the status bar. Resolves with the write's result, or
   * undefined when it was skipped or failed.
   */
  runWrite<T>(key: string, label: string, write: () => Promise<T>): Promise<T | undefined>;
  /** Runs a read with the spinner on; failures land in the status bar. */
  runRead<T>(label: string, read: () => Promise<T>): Promise<T | undefined>;
}

/** Builds the shell slice. */
export function createShellSlice(
  set: Parameters<SliceCreator<ShellSlice>>[0],
  get: Parameters<SliceCreator<ShellSlice>>[1],
  deps: StoreDeps,
  initial: { env: EnvLabel; readOnly: boolean; notice: string | undefined },
): ShellSlice {
  let reads = 0;
  return {
    env: initial.env,
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
    signedIn: "checking",
    merchantId: undefined,
    workweek: undefined,
    inFlight: [],
    exited: false,

    async init() {
      const client = deps.client;
      const status = client.oauth
        ?.retrieveTokenStatus()
        .then((s) => set({ signedIn: "signed-in", merchantId: s.merchant_id }))
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
      const first = loaded.locations[0]?.id;
      if (first) await get().selectLocation(first);
      await status;
    },

    showScreen(kind) {
      set({ screen: { kind } as Screen, overlay: { kind: "none" } });
      if (kind === "review") void get().loadReviewIfStale();
      if (kind === "break-types") void get().loadBreakTypes();
    },

    cycleScreen(step) {
      const i = SCREEN_ORDER.indexOf(get().screen.kind);
      const next = SCREEN_ORDER[(i + step + SCREEN_ORDER.length) % SCREEN_ORDER.length];
      if (next) get().showScreen(next);
    },

    openOverlay(overlay) {
      set({ overlay });
    },

    closeOverlay() {
      set({ overlay: { kind: "none" } });
    },

    async selectLocation(id) {
      set({ locationId: id, overlay: { kind: "none" } });
      get().markReviewStale();
      await Promise.all([get().loadTimeClock(), get().loadBreakTypes()]);
      if (get().screen.kind === "review") await get().loadReviewIfStale();
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
        set({
          overlay: {
            kind: "confirm-quit",
            reason: `${pending} change${pending > 1 ? "s are" : " is"} still being sent.`,
          },
        });
        return;
      }
      get().quit();
    },

    quit() {
      set({ exited: true, overlay: { kind: "none" } });
    },

    async runWrite(key, label, write) {
      if (get().readOnly) {
        set({ status: { kind: "rule", text: "Read-only mode: changes are disabled." } });
        return undefined;
      }
      if (get().inFlight.includes(key)) return undefined;
      set((s) => ({ inFlight: [...s.inFlight, key], status: { kind: "info", text: `${label}…` } }));
      try {
        const result = await write();
        set({ status: { kind: "info", text: `${label}: done.` } });
        return result;
      } catch (err) {
        set({ status: statusOfError(err) });
        return undefined;
      } finally {
        set((s) => ({ inFlight: s.inFlight.filter((k) => k !== key) }));
      }
    },

    async runRead(label, read) {
      reads += 1;
      set({ loading: label });
      try {
        return await read();
      } catch (err) {
        set({ status: statusOfError(err) });
        return undefined;
      } finally {
        reads -= 1;
        if (reads === 0) set({ loading: undefined });
      }
    },
  };
}
