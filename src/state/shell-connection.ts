/**
 * The shell's runners of reads and writes: the spinner and the write guard, and what every answer
 * or failure tells about the connection (online again, offline since when), said in the status bar.
 */
import { localTime } from "../domain/time.js";
import { isUnreachable, type Problem, problemOf } from "./errors.js";
import { askAgainLater, writesSettled } from "./shell-lifecycle.js";
import { timeZoneOf } from "./shell-location.js";
import type { ShellSlice } from "./shell-slice.js";
import type { AppState, SliceCreator, StoreDeps } from "./store.js";
import type { ScreenKind } from "./types.js";

/** What the shell's actions work with: zustand's set and get, the dependencies. */
export interface ShellIo {
  set: Parameters<SliceCreator<ShellSlice>>[0];
  get: () => AppState;
  deps: StoreDeps;
}

/** A status's details line, when there is one. */
function detailsOf(details: string | undefined): { details?: string } {
  return details ? { details } : {};
}

/**
 * The service answered (a read or write started on `screen`, or an outbox try): that screen's data
 * is fresh, the connection online, a message that it was down goes.
 */
function reached({ set, get, deps }: ShellIo, screen?: ScreenKind): void {
  const s = get();
  const patch: Partial<ShellSlice> = screen ? { readAt: { ...s.readAt, [screen]: deps.clock.now() } } : {};
  const back = s.connection.state !== "online";
  if (back) patch.connection = { state: "online" };
  // The message reported the service as unreachable; it answers again, so the message goes.
  if (s.status.kind === "error" && s.status.cause === "unreachable") patch.status = { kind: "idle" };
  set(patch);
  if (back) deps.events.emit({ type: "service-answered" });
}

/**
 * A read or write failed: unreachable marks the connection offline (saying when what is shown was
 * read); any other failure is an answer, so the service is online. Either way the status bar says it
 * — except a quiet (background) read that finds the service still offline: the header already says
 * so, and the status line keeps what the manager last did (a write kept on this machine, say). While
 * it does not answer, it is asked again now and then.
 */
function failed(io: ShellIo, err: unknown, screen: ScreenKind, quiet = false): Problem {
  const { set, get, deps } = io;
  const problem = problemOf(err);
  if (isUnreachable(err)) {
    const c = get().connection;
    // Only a screen that shows something read says when; one showing nothing says only why.
    const read = get().readAt[screen];
    if (read) problem.headline += ` What is shown was read at ${localTime(read, timeZoneOf(get()))}.`;
    const triedAt = deps.clock.now();
    if (c.state === "offline" && quiet) {
      set({ connection: { ...c, triedAt, retrying: false, problem: problem.headline } });
      askAgainLater(io);
      return problem;
    }
    set({
      connection:
        c.state === "offline"
          ? { ...c, triedAt, retrying: false, problem: problem.headline }
          : { state: "offline", since: triedAt, triedAt, retrying: false, problem: problem.headline },
      status: { kind: "error", text: problem.headline, cause: "unreachable", screen, ...detailsOf(problem.details) },
    });
    askAgainLater(io);
  } else {
    // Any answer, even a refusal, means the service is reachable.
    if (get().connection.state !== "online") {
      set({ connection: { state: "online" } });
      deps.events.emit({ type: "service-answered" });
    }
    set({ status: { kind: "error", text: problem.headline, screen, ...detailsOf(problem.details) } });
  }
  return problem;
}

/**
 * The runners every slice reads and writes through: `runWrite` (the one read-only guard, one
 * request per key at a time) and `runRead` (the spinner while any read runs). What they say belongs
 * to the screen the read or write was started on, even when the answer comes after a move.
 */
export function connectionActions(io: ShellIo): Pick<ShellSlice, "runWrite" | "runRead" | "noteTry"> {
  const { set, get, deps } = io;
  let reads = 0;
  return {
    noteTry(error) {
      if (error === undefined || !isUnreachable(error)) {
        reached(io);
        return;
      }
      // The header goes offline at once; the status line is the write's own to word.
      const c = get().connection;
      const triedAt = deps.clock.now();
      const problem = problemOf(error).headline;
      set({
        connection:
          c.state === "offline"
            ? { ...c, triedAt, retrying: false, problem }
            : { state: "offline", since: triedAt, triedAt, retrying: false, problem },
      });
      askAgainLater(io);
    },

    async runWrite(key, label, write, options = {}) {
      const screen = get().screen.kind;
      // The one read-only guard: every write of every screen passes here.
      if (get().readOnly) {
        set({ status: { kind: "rule", text: "Read-only mode: changes are disabled.", screen } });
        return { ok: false, error: { kind: "read-only" } };
      }
      if (get().inFlight.includes(key)) return { ok: false, error: { kind: "in-flight" } };
      set((s) => ({ inFlight: [...s.inFlight, key], status: { kind: "info", text: `${label}…`, screen } }));
      try {
        const value = await write();
        // A write that tells each of its tries (noteTry) has said whether the service answered.
        if (!options.triesTold) reached(io, screen);
        set({ status: { kind: "info", text: `${label}: done.`, screen } });
        return { ok: true, value };
      } catch (cause) {
        const problem = failed(io, cause, screen);
        return { ok: false, error: { kind: "failed", cause, problem } };
      } finally {
        set((s) => ({ inFlight: s.inFlight.filter((k) => k !== key) }));
        writesSettled(io);
      }
    },

    async runRead(label, read, options = {}) {
      const screen = get().screen.kind;
      reads += 1;
      if (!options.quiet) set({ loading: label });
      const c = get().connection;
      if (c.state === "offline" && !c.retrying) set({ connection: { ...c, retrying: true } });
      try {
        const value = await read();
        reached(io, screen);
        return value;
      } catch (err) {
        failed(io, err, screen, options.quiet === true);
        return undefined;
      } finally {
        reads -= 1;
        if (reads === 0 && get().loading !== undefined) set({ loading: undefined });
      }
    },
  };
}
