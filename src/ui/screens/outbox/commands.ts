// The Kept screen's commands: the writes this machine keeps for the service, those the service
// refused first (To resolve), and the ways out of a refusal.
import { choicesOf, type ResolveChoice, refusalCodes } from "../../../domain/kept-words.js";
import { isPending, type KeptEntry } from "../../../domain/kept-writes.js";
import type { AppState } from "../../../state/index.js";
import { ch, defineCommands, type ListRows, listCommands, named, selectedRow } from "../../commands.js";

/** The list's name in the store's selection. */
export const KEPT_LIST = "outbox";

const ordered = new WeakMap<readonly KeptEntry[], { entries: KeptEntry[]; ids: string[] }>();

/** The writes as listed: To resolve first, then those waiting, each in the order made. */
export function keptOrder(entries: readonly KeptEntry[]): { entries: KeptEntry[]; ids: string[] } {
  let hit = ordered.get(entries);
  if (!hit) {
    const sorted = [...entries.filter((e) => e.state === "refused"), ...entries.filter((e) => e.state !== "refused")];
    hit = { entries: sorted, ids: sorted.map((e) => String(e.seq)) };
    ordered.set(entries, hit);
  }
  return hit;
}

/** The list the keys move on. */
export function keptRows(s: AppState): ListRows {
  return { list: KEPT_LIST, ids: keptOrder(s.outbox.entries).ids };
}

/** The write under the cursor. */
export function selectedKept(s: AppState): KeptEntry | undefined {
  const id = selectedRow(s, keptRows(s));
  return s.outbox.entries.find((e) => String(e.seq) === id);
}

/** The ways out the selected write offers: a refused one's, by its refusal. */
export function choicesHere(s: AppState): ResolveChoice[] {
  const e = selectedKept(s);
  if (!e) return [];
  if (e.state !== "refused") return isPending(e.state) ? ["discard", "open"] : [];
  return choicesOf(e.write, refusalCodes(e.details));
}

/** Runs `act` on the write under the cursor, if any. */
const onSelected = (act: (s: AppState, seq: number) => unknown) => (s: AppState) => {
  const e = selectedKept(s);
  return e ? act(s, e.seq) : undefined;
};

const offers = (choice: ResolveChoice, otherwise: string) => (s: AppState) => {
  if (!selectedKept(s)) return "Nothing is kept here.";
  return choicesHere(s).includes(choice) ? undefined : otherwise;
};

/** The Kept screen's commands. */
export const OUTBOX_COMMANDS = defineCommands({
  ...listCommands(keptRows),
  open: {
    keys: [named("return"), ch("o")],
    label: "enter",
    description: "open the shift, profile or card",
    short: "open",
    hint: 5,
    run: onSelected((s, seq) => s.outboxOpenTarget(seq)),
    unavailable: offers("open", "There is nothing to open for this change: it no longer exists at the service."),
  },
  changeTime: {
    keys: [ch("t")],
    label: "t",
    description: "send again at another time",
    short: "time",
    write: true,
    hint: 2,
    run: onSelected((s, seq) => s.outboxAskTime(seq)),
    unavailable: offers(
      "change-time",
      "Only a refused clock-in, break or clock-out can be sent again at another time.",
    ),
  },
  applyAgain: {
    keys: [ch("a")],
    label: "a",
    description: "send again over the newer version",
    short: "again",
    write: true,
    hint: 3,
    run: onSelected((s, seq) => s.outboxApplyAgain(seq)),
    unavailable: offers(
      "apply-again",
      "Only a change refused because someone changed it first can be sent over theirs.",
    ),
  },
  discard: {
    keys: [ch("d")],
    label: "d",
    description: "discard (asks first)",
    short: "discard",
    hint: 4,
    run: onSelected((s, seq) => s.outboxDiscard(seq)),
    unavailable: offers("discard", "This change is not kept any more."),
  },
  send: {
    keys: [ch("s")],
    label: "s",
    description: "send what is kept now",
    short: "send",
    write: true,
    hint: 1,
    run: (s) => s.outboxCheck(),
    unavailable: (s) =>
      s.outbox.sending
        ? "The kept changes are being sent."
        : s.outbox.entries.some((e) => isPending(e.state))
          ? undefined
          : "Nothing is waiting to be sent.",
  },
});
