/**
 * The app's start and end: the first reads (sign-in, locations, the workweek) with the default
 * location chosen, started again when the service answers or a sign-in arrives; quitting, asked
 * first while changes are on their way or kept on this machine.
 */
import type { Location } from "../spec/generated/types.js";
import { isUnanswered } from "./errors.js";
import type { ShellIo } from "./shell-connection.js";
import type { ShellInit, ShellSlice } from "./shell-slice.js";
import type { Question } from "./types.js";

/**
 * Chooses the location to open on: the config's default when it is one of the seller's (said in
 * the status bar when it is not), the first otherwise.
 */
function openingLocation(io: ShellIo, locations: readonly Location[], wanted: string | undefined): string | undefined {
  const preferred = wanted ? locations.find((l) => l.id === wanted) : undefined;
  if (wanted && !preferred) {
    io.get().setStatus({
      kind: "rule",
      text: "The default location in the config file is not one of this seller's locations; showing the first.",
      details: `defaultLocationId ${wanted}`,
    });
  }
  return preferred?.id ?? locations[0]?.id;
}

/**
 * How often the app asks whether the service answers again while it does not (`r` asks at once):
 * the header then says online again, kept writes go, and a start that could not read starts.
 */
export const OFFLINE_RETRY_SECONDS = 10;

/** What the last start that could not read said in the status bar, so the next one can take it back. */
interface StartMemo {
  failedWith?: ShellSlice["status"];
}

/** The stores whose next question to the service waits on the timer: one at a time. */
const asking = new WeakSet<ShellIo["deps"]>();

/**
 * The service did not answer: asks again in {@link OFFLINE_RETRY_SECONDS} — the start again when
 * nothing was read yet, else a quiet read of the locations — and so on while it does not answer
 * (each failure asks for the next), unless the app has quit or the service answered meanwhile.
 */
export function askAgainLater(io: ShellIo): void {
  const { get, deps } = io;
  if (asking.has(deps) || get().connection.state !== "offline" || get().exited) return;
  asking.add(deps);
  deps.timers.after(OFFLINE_RETRY_SECONDS * 1000, () => {
    asking.delete(deps);
    const s = get();
    if (s.exited || s.connection.state !== "offline") return;
    if (s.locations.length === 0) void s.init();
    else
      void s.runRead("Asking whether the service answers", () => deps.client.locations.listLocations(), {
        quiet: true,
      });
  });
}

/** The first reads: sign-in, locations and the workweek; the default (or first) location chosen. */
async function start(io: ShellIo, initial: ShellInit, memo: StartMemo): Promise<boolean> {
  const { set, get, deps } = io;
  const client = deps.client;
  // What this machine keeps for the service is counted in the header from the first frame on.
  void get().outboxLoad();
  const status = client.oauth
    ?.retrieveTokenStatus()
    .then((s) => set({ signedIn: "signed-in", merchantId: s.merchant_id, grantedScopes: s.scopes }))
    // Only a refusal says the sign-in is gone; a service that did not answer says nothing of it.
    .catch((err) => {
      if (!isUnanswered(err)) set({ signedIn: "signed-out" });
    });
  const loaded = await get().runRead("Loading locations", async () => {
    const [locs, weeks] = await Promise.all([client.locations.listLocations(), client.labor.listWorkweekConfigs()]);
    return {
      locations: (locs.locations ?? []).filter((l) => l.status !== "INACTIVE"),
      workweek: weeks.workweek_configs?.[0],
    };
  });
  if (!loaded) {
    memo.failedWith = get().status;
    await status;
    return false;
  }
  set({
    locations: loaded.locations,
    workweek: loaded.workweek,
    signedIn: client.oauth ? get().signedIn : "signed-in",
    // A failed earlier start said why; the app has started now, so that message (and only that
    // one: not a message said since) is over.
    ...(memo.failedWith && get().status === memo.failedWith ? { status: { kind: "idle" as const } } : {}),
  });
  const first = openingLocation(io, loaded.locations, initial.defaultLocationId);
  if (first) get().selectLocation(first);
  await status;
  return true;
}

/** The "still being sent" questions of a quit while open: asked again once nothing is. */
const whileSending = new WeakSet<Question>();

/**
 * Quits, or asks first when writes are still on their way, or kept on this machine (saying how
 * many). `afterSending`: the last write of a "still being sent" question has just ended, so the
 * manager, who has not answered yet, is asked again — never quit unasked, with how it went on the
 * status line below the question.
 */
function requestQuit({ get }: ShellIo, afterSending = false): void {
  const pending = get().inFlight.length;
  if (pending > 0) {
    const question: Question = {
      message: `${pending} change${pending > 1 ? "s are" : " is"} still being sent. Quit anyway?`,
      risky: true,
      yes: "Quit",
      onYes: () => get().quit(),
    };
    whileSending.add(question);
    get().ask(question);
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
  if (afterSending) {
    get().ask({
      message: "Nothing is being sent any more; the line below says how it went. Quit?",
      risky: false,
      yes: "Quit",
      onYes: () => get().quit(),
    });
    return;
  }
  get().quit();
}

/** A write ended: a quit question that waited on writes is asked again once none is left. */
export function writesSettled(io: ShellIo): void {
  const overlay = io.get().overlay;
  if (io.get().inFlight.length > 0 || overlay.kind !== "confirm" || !whileSending.has(overlay.question)) return;
  requestQuit(io, true);
}

/**
 * The actions of starting and quitting. A start that could not read (the service down, signed
 * out) runs again when the service answers or a sign-in arrives.
 */
export function lifecycleActions(io: ShellIo, initial: ShellInit): Pick<ShellSlice, "init" | "requestQuit" | "quit"> {
  const { set, get, deps } = io;
  let starting: Promise<boolean> | undefined;
  const memo: StartMemo = {};
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
    init() {
      // One start at a time: the service answering again may ask for one while another runs.
      starting ??= start(io, initial, memo).finally(() => {
        starting = undefined;
      });
      return starting;
    },
    requestQuit: () => requestQuit(io),
    quit: () => set({ exited: true, overlay: { kind: "none" } }),
  };
}
