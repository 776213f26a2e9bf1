// The ways out of To resolve: a write the service refused is never dropped silently. It waits,
// with the refusal in words, until the manager sends it again at another time, sends it again
// over the object as it is now (someone changed it first), discards it (and what was made on it),
// or opens the shift, profile or card it is about.
import { parseLocalTime } from "../domain/clock-rules.js";
import { type FormProblem, onField } from "../domain/form-problem.js";
import { describeKept } from "../domain/kept-words.js";
import {
  baseVersionOf,
  type KeptEntry,
  type KeptWrite,
  keptId,
  requestKey,
  timeOf,
  withKey,
  withTime,
} from "../domain/kept-writes.js";
import { CLOCK_SKEW_MS } from "../domain/limits.js";
import { localDate, localTime } from "../domain/time.js";
import type { Outbox } from "../local/outbox.js";
import { keptNames } from "./outbox-slice.js";
import { timeZoneOf } from "./shell-slice.js";
import type { AppState, SliceCreator, StoreDeps } from "./store.js";

/** The To resolve actions. */
export interface OutboxResolveSlice {
  /** Opens the change-time form on a kept write, with its time as typed by the store's clock. */
  outboxAskTime(seq: number): void;
  /**
   * Sends a write again at another local date and time; the problem (naming the field, `date` or
   * `time`, when one cannot be read), or undefined.
   */
  outboxChangeTime(seq: number, date: string, time: string): Promise<FormProblem>;
  /** Sends a refused change again over the shift or profile as the service has it now. */
  outboxApplyAgain(seq: number): Promise<void>;
  /** Asks, then discards a kept write and what was made on it. */
  outboxDiscard(seq: number): void;
  /** Shows the shift, profile or card a kept write is about. */
  outboxOpenTarget(seq: number): Promise<void>;
}

/** The kept write of a sequence number, if it is still kept. */
const entryOf = (s: AppState, seq: number) => s.outbox.entries.find((e) => e.seq === seq);

/** What the To resolve actions work with: the store and the dependencies. */
interface ResolveIo {
  get: () => AppState;
  deps: StoreDeps;
}

/** Says something in the status bar (a rule unless told), and returns the same words. */
function say({ get }: ResolveIo, text: string, kind: "info" | "rule" = "rule"): string {
  get().setStatus({ screen: "outbox", kind, text });
  return text;
}

/** The outbox file, or undefined (said in the status bar) when it cannot be opened. */
async function openOutbox(io: ResolveIo): Promise<Outbox | undefined> {
  try {
    return await io.deps.outbox.open();
  } catch {
    say(io, "The outbox file cannot be opened.");
    return undefined;
  }
}

/** Puts a changed write back in line at its place and sends what is kept. */
async function revise(io: ResolveIo, entry: KeptEntry, write: KeptWrite, keyChanged: boolean): Promise<void> {
  const { get, deps } = io;
  const b = await openOutbox(io);
  if (!b) return;
  // A write sent with a key gets a new one when its body changed: the old key stays with the old body.
  const idempotencyKey = keyChanged ? deps.newIdempotencyKey() : entry.idempotencyKey;
  const sent = keyChanged && requestKey(write) !== undefined ? withKey(write, idempotencyKey) : write;
  const label = describeKept(sent, keptNames(get(), deps));
  b.revise(entry.seq, { write: sent, label, baseVersion: baseVersionOf(sent), idempotencyKey });
  await get().outboxLoad();
  get().outboxOpenForm({ kind: "none" });
  say(io, `${label}: kept again, to be sent now.`, "info");
  void get().outboxFlush();
}

/**
 * Sends a write again at another local date and time (not in the future); the problem, or undefined.
 * A date or time that cannot be read names its field; one in the future is about both, and names none.
 */
async function changeTime(io: ResolveIo, seq: number, date: string, time: string): Promise<FormProblem> {
  const { get, deps } = io;
  const e = entryOf(get(), seq);
  if (!e) return "That change is no longer kept.";
  const read = parseLocalTime(date, time, timeZoneOf(get()), "new");
  if (!read.ok) return onField(read.problem, read.part);
  if (read.at.getTime() > deps.clock.now().getTime() + CLOCK_SKEW_MS) {
    return `${localTime(read.at, timeZoneOf(get()))} is in the future; a time clock records what happened.`;
  }
  const moved = withTime(e.write, read.at);
  if (!moved) return "This change has no one time to change.";
  await revise(io, e, moved, true);
  return undefined;
}

/** Sends a refused change again over the shift or profile as the service has it now (read first). */
async function applyAgain(io: ResolveIo, seq: number): Promise<void> {
  const { get, deps } = io;
  const e = entryOf(get(), seq);
  if (!e) return;
  const w = e.write;
  if (w.kind === "shift-change" && w.shift.kind === "known") {
    const id = w.shift.id;
    const now = await get().runRead("Reading the shift as it is now", () => deps.client.labor.getShift(id));
    if (now?.shift) await revise(io, e, { ...w, shift: { kind: "known", id, base: now.shift } }, false);
    return;
  }
  if (w.kind === "update-customer" && w.customer.kind === "known") {
    const id = w.customer.id;
    const now = await get().runRead("Reading the profile as it is now", () =>
      deps.client.customers.retrieveCustomer(id),
    );
    if (now?.customer) await revise(io, e, { ...w, customer: { kind: "known", id, base: now.customer } }, false);
    return;
  }
  say(io, "This change cannot be sent again over a newer version; discard it or open what it is about.");
}

/** Discards a kept write and what was made on it (another backroom may be sending it: then nothing goes). */
async function discard(io: ResolveIo, b: Outbox, seq: number): Promise<void> {
  const { get, deps } = io;
  const before = get().outbox.entries;
  const gone = b.discard(seq, deps.clock.now().toISOString());
  await get().outboxLoad();
  forgetKeptProfiles(
    get(),
    before.filter((x) => gone.includes(x.seq)),
  );
  if (gone.length === 0) say(io, "That change is being sent right now by another backroom; it was not discarded.");
  else {
    const n = gone.length;
    say(io, `Discarded ${n} kept change${n > 1 ? "s" : ""}; nothing of ${n > 1 ? "them" : "it"} was sent.`, "info");
  }
}

/** Asks, naming how many changes were made on it, then discards a kept write. */
async function askDiscard(io: ResolveIo, seq: number): Promise<void> {
  const e = entryOf(io.get(), seq);
  if (!e) return;
  const b = await openOutbox(io);
  if (!b) return;
  const more = b.dependents(seq).length - 1;
  io.get().ask({
    message: `Discard "${e.label}"${more > 0 ? ` and the ${more} change${more > 1 ? "s" : ""} made on it` : ""}? ${more > 0 ? "They are" : "It is"} never sent.`,
    risky: true,
    yes: "Discard",
    onYes: () => discard(io, b, seq),
  });
}

/** Builds the To resolve actions. */
export const createOutboxResolveSlice: SliceCreator<OutboxResolveSlice> = (_set, get, deps) => {
  const io: ResolveIo = { get, deps };
  return {
    outboxAskTime(seq) {
      const e = entryOf(get(), seq);
      const at = e ? timeOf(e.write) : undefined;
      if (!e || !at) return;
      const tz = timeZoneOf(get());
      get().outboxOpenForm({ kind: "change-time", seq, date: localDate(at, tz), time: localTime(at, tz) });
    },
    outboxChangeTime: (seq, date, time) => changeTime(io, seq, date, time),
    outboxApplyAgain: (seq) => applyAgain(io, seq),
    outboxDiscard(seq) {
      void askDiscard(io, seq);
    },
    async outboxOpenTarget(seq) {
      const e = entryOf(get(), seq);
      if (e) await openTarget(get, e);
    },
  };
};

/**
 * Profiles shown as discarded writes would have left them go back to what was read: a profile
 * added offline leaves the list, an edit or a group change shows the copy it was based on.
 */
function forgetKeptProfiles(s: AppState, discarded: readonly KeptEntry[]): void {
  // Profiles are shown only once the customers screen has loaded its slice; before, nothing to restore.
  if (!s.hasSlice("customers")) return;
  const restored = new Set<string>();
  for (const e of discarded) {
    const w = e.write;
    if (w.kind === "create-customer") s.customersDispatch({ type: "profile-deleted", id: keptId(e.seq) });
    // The first discarded change of a profile was based on what was read; later ones on its overlay.
    if ((w.kind === "update-customer" || w.kind === "customer-group") && w.customer.kind === "known") {
      if (restored.has(w.customer.id)) continue;
      restored.add(w.customer.id);
      s.customersDispatch({ type: "profile-read", customer: w.customer.base });
    }
  }
}

/** Shows what a kept write is about: the shift's day in the review, the profile, the card. */
async function openTarget(get: () => AppState, e: KeptEntry): Promise<void> {
  const w = e.write;
  const tz = timeZoneOf(get());
  switch (w.kind) {
    case "clock-in":
    case "add-shift":
    case "shift-change":
    case "delete-shift": {
      const at =
        w.kind === "delete-shift"
          ? w.startAt
          : w.kind === "shift-change"
            ? (timeOf(w) ?? (w.change.op === "set-times" ? w.change.startAt : e.actedAt))
            : w.request.shift.start_at;
      const day = localDate(at, tz);
      get().showScreen("review");
      // The screen's slice loads on first use; the view is set once it is in the store.
      const s = await get().loadSlice("review");
      s.setReviewView("shifts", w.memberId);
      await s.loadReview({ from: day, to: day });
      return;
    }
    case "create-customer":
    case "update-customer":
    case "customer-group": {
      get().showScreen("customers");
      const s = await get().loadSlice("customers");
      const id = w.kind === "create-customer" ? undefined : w.customer.kind === "known" ? w.customer.id : undefined;
      if (id) await s.customersOpenProfile(id);
      return;
    }
    case "gift-card":
      get().showScreen("gift-cards");
      await (await get().loadSlice("giftCards")).lookUpGiftCard(w.gan);
      return;
  }
}
