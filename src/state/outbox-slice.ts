// The outbox in the store: the writes this machine keeps for the service the app works on, the
// one way a keepable write is made (`outboxWrite`: sent now when the service answers, kept when it
// does not), and sending what is kept when it answers again — on the connection check that turns
// the header to `● online`, and every `OUTBOX_CHECK_SECONDS` while something is kept. The choices
// of To resolve are in outbox-resolve.ts.
import { describeKept, type KeptNames } from "../domain/kept-words.js";
import {
  baseVersionOf,
  chainOf,
  type KeptAnswer,
  type KeptEntry,
  type KeptWrite,
  madeBy,
  requestKey,
} from "../domain/kept-writes.js";
import { memberName } from "../domain/shifts.js";
import { localDate } from "../domain/time.js";
import type { Outbox } from "../local/outbox.js";
import { isUnanswered, type WriteError } from "./errors.js";
import { type FlushEvent, flushOutbox } from "./outbox-flush.js";
import { sendKept } from "./outbox-send.js";
import { timeZoneOf } from "./shell-slice.js";
import type { AppState, SliceCreator, StoreDeps } from "./store.js";

/** How often the app looks at the outbox while something is kept (and asks the service whether it answers). */
export const OUTBOX_CHECK_SECONDS = 15;

/** The form open on To resolve. */
export type OutboxForm = { kind: "none" } | { kind: "change-time"; seq: number; date: string; time: string };

/** The outbox as the screens see it. */
export interface OutboxData {
  /** This service's writes not settled yet (kept, being sent, refused), in the order made. */
  entries: KeptEntry[];
  /** The service's ids of what kept writes made, by the write's place: a later write's shift or profile. */
  made: Record<number, string>;
  sending: boolean;
  loaded: boolean;
  /** Why writes cannot be kept on this machine (the file could not be opened), in words. */
  problem: string | undefined;
  form: OutboxForm;
}

/** What `outboxWrite` did: made at the service (its answer), kept on this machine, or neither. */
export type KeptResult =
  | { kind: "sent"; answer: KeptAnswer }
  | { kind: "kept"; entry: KeptEntry }
  | { kind: "failed"; error: WriteError };

/** The outbox slice. */
export interface OutboxSlice {
  outbox: OutboxData;
  /** Reads this service's open writes from the file (another backroom may have sent some). */
  outboxLoad(): Promise<void>;
  /**
   * Makes a keepable write: sent now if the service answers and nothing of its chain is kept;
   * kept on this machine (fsync'd before this returns) when the service is offline, does not
   * answer, or an earlier write of the same person, profile or card is still kept.
   */
  outboxWrite(write: KeptWrite): Promise<KeptResult>;
  /** Sends the kept writes in order; refusals go to To resolve. */
  outboxFlush(): Promise<void>;
  /** The periodic check: reads the file again and, with writes kept, sends them or asks whether the service answers. */
  outboxCheck(): Promise<void>;
  outboxOpenForm(form: OutboxForm): void;
}

/**
 * Why a write that is not kept on this machine cannot be made now (the service does not answer),
 * or undefined while it answers. `why`: what makes this write one to make only with an answer.
 */
export function notKeptOffline(s: Pick<AppState, "connection">, why: string): string | undefined {
  return s.connection.state === "offline" ? `The service is not answering, and ${why}` : undefined;
}

/**
 * What the status bar says of a write just kept (`kept`) or sent without an answer (`sent`): in
 * full, and in fewer words for a narrow terminal, the write's own words last.
 */
export function keptSaid(label: string, state: "kept" | "sent"): { text: string; short: string } {
  return state === "sent"
    ? {
        text: `◷ No answer; kept on this machine: ${label}. It goes again, once, when the service answers.`,
        short: `◷ No answer; kept, to send again once it answers: ${label}.`,
      }
    : {
        text: `◷ Kept on this machine, not yet sent: ${label}. It goes, once, when the service answers.`,
        short: `◷ Kept, to send once the service answers: ${label}.`,
      };
}

/** The words a kept write is described with, from what the store knows now. */
export function keptNames(s: AppState, deps: Pick<StoreDeps, "clock">): KeptNames {
  const tz = timeZoneOf(s);
  return {
    member: (id) => {
      const m =
        s.timeclock.members.find((x) => x.id === id) ??
        (s.hasSlice("review") ? s.review.team?.members.find((x) => x.id === id) : undefined);
      return m ? memberName(m) : id;
    },
    timeZone: tz,
    today: localDate(deps.clock.now(), tz),
  };
}

/** Opens the outbox; a file that cannot be opened is said once, and writes are then not kept. */
async function openBox(get: () => AppState, set: (p: Partial<OutboxData>) => void, deps: StoreDeps) {
  try {
    return await deps.outbox.open();
  } catch (err) {
    if (!get().outbox.problem) {
      const why = err instanceof Error ? err.message : String(err);
      set({ problem: `The outbox (${deps.outbox.path}) cannot be opened, so nothing is kept offline: ${why}` });
    }
    return undefined;
  }
}

/** What the slice's actions share. */
interface Io {
  get: () => AppState;
  patch: (p: Partial<OutboxData>) => void;
  deps: StoreDeps;
}

/** A list of entries as a word: the same word, the same writes in the same states. */
const signature = (entries: readonly KeptEntry[]) =>
  entries.map((e) => `${e.seq}:${e.state}:${e.idempotencyKey}`).join(",");

/** Reads the open writes again; the screens that lay them over what they show hear of a change. */
function reload(io: Io, box: Outbox): void {
  const entries = box.open(io.deps.service);
  const changed = signature(entries) !== signature(io.get().outbox.entries);
  io.patch(changed ? { entries, loaded: true } : { loaded: true });
  if (changed) io.deps.events.emit({ type: "kept-changed" });
}

async function keep(io: Io, box: Outbox, write: KeptWrite, state: "kept" | "sent"): Promise<KeptResult> {
  const { get, deps } = io;
  const now = deps.clock.now();
  const label = describeKept(write, keptNames(get(), deps));
  const entry = box.add(
    {
      service: deps.service,
      idempotencyKey: requestKey(write) ?? deps.newIdempotencyKey(),
      write,
      label,
      baseVersion: baseVersionOf(write),
      actedAt: now.toISOString(),
      actor: deps.actor,
      locationId: get().locationId,
      state,
    },
    now.toISOString(),
  );
  reload(io, box);
  get().setStatus({ kind: "info", ...keptSaid(label, state) });
  // Kept behind an earlier write of its chain while the service answers: send them now. (A write
  // the service did not answer waits for the next check rather than being sent straight back.)
  if (state === "kept" && get().connection.state === "online") void get().outboxFlush();
  return { kind: "kept", entry };
}

async function write(io: Io, w: KeptWrite): Promise<KeptResult> {
  const { get, deps } = io;
  const s = get();
  if (s.readOnly) {
    s.setStatus({ kind: "rule", text: "Read-only mode: changes are disabled." });
    return { kind: "failed", error: { kind: "read-only" } };
  }
  // The file is made by the first write that has to be kept: while the service answers and
  // nothing was ever kept, a write goes straight out.
  const offline = s.connection.state === "offline";
  const box = offline || deps.outbox.exists() ? await openBox(get, io.patch, deps) : undefined;
  const open = box?.open(deps.service) ?? [];
  const chain = chainOf(w);
  const maker = madeBy(w);
  const behind = open.some((e) => chainOf(e.write) === chain || e.seq === maker);
  if (box && (offline || behind)) return keep(io, box, w, "kept");
  const earlier = box?.answersBefore(deps.service, Number.MAX_SAFE_INTEGER) ?? [];
  const label = describeKept(w, keptNames(s, deps));
  const res = await s.runWrite(chain, label, () => sendKept(w, { client: deps.client, earlier }));
  if (res.ok) return { kind: "sent", answer: res.value };
  if (res.error.kind === "failed" && isUnanswered(res.error.cause)) {
    const keeping = box ?? (await openBox(get, io.patch, deps));
    if (keeping) return keep(io, keeping, w, "sent");
  }
  return { kind: "failed", error: res.error };
}

/** Tells the screens what a kept write made once the service accepted it. */
function settled(io: Io, e: Extract<FlushEvent, { kind: "accepted" }>): void {
  const { get, deps } = io;
  const w = e.entry.write;
  const made = e.answer.shift?.id ?? e.answer.customer?.id;
  if (made) io.patch({ made: { ...get().outbox.made, [e.entry.seq]: made } });
  if (e.answer.shift) deps.events.emit({ type: "shift-saved", shift: e.answer.shift });
  if (w.kind === "delete-shift") deps.events.emit({ type: "shift-deleted", shiftId: w.shiftId });
  if (e.answer.customer) {
    const created = w.kind === "create-customer";
    deps.events.emit({ type: "kept-customer-saved", seq: e.entry.seq, customer: e.answer.customer, created });
  }
  if (w.kind === "gift-card") deps.events.emit({ type: "kept-gift-card-saved", cardId: w.cardId });
}

async function flush(io: Io): Promise<void> {
  const { get, deps } = io;
  if (get().outbox.sending || get().readOnly) return;
  const box = await openBox(get, io.patch, deps);
  if (!box) return;
  reload(io, box);
  if (!get().outbox.entries.some((e) => e.state === "kept" || e.state === "sent")) return;
  io.patch({ sending: true });
  try {
    const result = await flushOutbox({
      outbox: box,
      service: deps.service,
      client: deps.client,
      now: () => deps.clock.now(),
      onEvent: (e) => {
        if (e.kind === "accepted") settled(io, e);
        reload(io, box);
      },
    });
    const parts: string[] = [];
    if (result.sent > 0) parts.push(`Sent ${result.sent} change${result.sent > 1 ? "s" : ""} kept on this machine.`);
    if (result.refused > 0) {
      parts.push(`${result.refused} ${result.refused > 1 ? "were" : "was"} refused: ! shows To resolve.`);
    }
    if (result.stop?.kind === "fatal") parts.push(result.stop.problem);
    if (parts.length > 0) {
      get().setStatus({ kind: result.refused > 0 || result.stop ? "rule" : "info", text: parts.join(" ") });
    }
  } finally {
    reload(io, box);
    io.patch({ sending: false });
  }
}

async function check(io: Io): Promise<void> {
  const { get, deps } = io;
  // No file: nothing was ever kept (the file is made by the first write kept).
  if (!deps.outbox.exists()) return;
  const box = await openBox(get, io.patch, deps);
  if (!box) return;
  reload(io, box);
  const s = get();
  if (s.outbox.sending || s.readOnly || !s.outbox.entries.some((e) => e.state === "kept" || e.state === "sent")) return;
  if (s.connection.state === "online") {
    await s.outboxFlush();
    return;
  }
  // Does the service answer? A quiet read says so; its answer starts the sending (service-answered).
  await s.runRead("Asking whether the service answers", () => deps.client.locations.listLocations(), { quiet: true });
}

/** Builds the outbox slice. */
export const createOutboxSlice: SliceCreator<OutboxSlice> = (set, get, deps) => {
  const patch = (p: Partial<OutboxData>) => set((s) => ({ outbox: { ...s.outbox, ...p } }));
  const io: Io = { get, patch, deps };
  deps.events.on("service-answered", () => void get().outboxFlush());
  return {
    outbox: { entries: [], made: {}, sending: false, loaded: false, problem: undefined, form: { kind: "none" } },
    async outboxLoad() {
      if (!deps.outbox.exists()) {
        patch({ loaded: true });
        return;
      }
      const box = await openBox(get, patch, deps);
      if (box) reload(io, box);
    },
    outboxWrite: (w) => write(io, w),
    outboxFlush: () => flush(io),
    outboxCheck: () => check(io),
    outboxOpenForm(form) {
      patch({ form });
    },
  };
};
