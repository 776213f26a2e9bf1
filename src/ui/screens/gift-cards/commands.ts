import type { Key } from "ink";
import type { WriteKind } from "../../../domain/gift-cards.js";
import type { GiftCardActivity } from "../../../spec/generated/types.js";
import type { LoadedState } from "../../../state/index.js";
import { FILTER_CYCLE, giftCardWriteUnavailable } from "../../../state/screens.js";
import {
  type CommandDeps,
  ch,
  defineLoadedCommands,
  type KeySpec,
  type ListRows,
  type LoadedCommand,
  listCommands,
  moveFromField,
  named,
  openRowCommand,
  selectedRow,
} from "../../commands.js";

/** The look-up line: a card's number or id, typed. */
export const LOOKUP_FIELD = "lookup";
/** Where the look-up line's text is kept while it does not have the keys. */
export const LOOKUP_DRAFT = "gift-cards.lookup";
/** The lists of the two views. */
export const HISTORY_LIST = "gift-cards.history";
export const ACTIVITY_LIST = "gift-cards.activity";

const NO_IDS: readonly string[] = [];
const idsCache = new WeakMap<readonly GiftCardActivity[], readonly string[]>();
/** The rows' ids, the same array while the rows are (the list window and the selection read it). */
function idsOf(rows: readonly GiftCardActivity[]): readonly string[] {
  if (rows.length === 0) return NO_IDS;
  let ids = idsCache.get(rows);
  if (!ids) {
    ids = rows.map((a, i) => a.id ?? String(i));
    idsCache.set(rows, ids);
  }
  return ids;
}

/** The list the movement keys act on: the card's history, or the days' activity. */
export function giftCardRows(s: LoadedState): ListRows {
  const g = s.giftCards;
  if (g.view === "activity") return { list: ACTIVITY_LIST, ids: idsOf(g.activity.rows) };
  return { list: HISTORY_LIST, ids: g.card.kind === "found" ? idsOf(g.card.history) : NO_IDS };
}

/** The activity under the cursor of the activity view. */
function selectedActivity(s: LoadedState): GiftCardActivity | undefined {
  const id = selectedRow(s, giftCardRows(s));
  return s.giftCards.activity.rows.find((a, i) => (a.id ?? String(i)) === id);
}

const onCardView = (s: LoadedState) =>
  s.giftCards.view === "card"
    ? undefined
    : "Changes are made on the card's view: v shows it (or enter on an activity).";
const onActivityView = (s: LoadedState) =>
  s.giftCards.view === "activity" ? undefined : "The days belong to the activity view: v shows it.";

/** A write's command: opens its form on the card shown, or says why it cannot. */
function writeCommand(
  kind: WriteKind,
  keys: KeySpec[],
  label: string,
  description: string,
  hint?: number,
): LoadedCommand {
  return {
    keys,
    label,
    description,
    write: true,
    ...(hint === undefined ? {} : { hint }),
    run: (s) => s.giftCardsEvent({ type: "open-write", kind }),
    unavailable: (s) => onCardView(s) ?? giftCardWriteUnavailable(s, kind),
  };
}

/** Looks up what the look-up line holds, and gives the keys back to the history. */
function lookUpLine(s: LoadedState): Promise<void> {
  const text = s.drafts[LOOKUP_DRAFT] ?? "";
  s.focusField("gift-cards", undefined);
  s.setDraft(LOOKUP_DRAFT, "");
  return s.lookUpGiftCard(text);
}

const MOVES = listCommands(giftCardRows);

/** Keys the look-up line takes: enter looks the card up; ↑/↓ move the history under it. */
export function lookupLineKey(s: LoadedState, input: string, key: Key, deps: CommandDeps): boolean {
  if (key.return) {
    void lookUpLine(s);
    return true;
  }
  return moveFromField(MOVES)(s, input, key, deps);
}

/** A scan, whatever has the keys: the card is looked up (a form open for another card closes). */
export function scanGiftCard(s: LoadedState, code: string): Promise<void> {
  s.focusField("gift-cards", undefined);
  // The scanned card is the one looked up: a number half typed before it would stand above
  // another card's details, so it goes, as it does when Enter looks a typed number up.
  s.setDraft(LOOKUP_DRAFT, "");
  return s.lookUpGiftCard(code);
}

/** What `r` reads again. */
export function reloadGiftCards(s: LoadedState): unknown {
  return s.giftCards.view === "card" ? s.reloadGiftCard() : s.loadGiftCardActivity();
}

/** The gift cards screen's commands. */
export const GIFT_CARDS_COMMANDS = defineLoadedCommands({
  ...MOVES,
  find: {
    keys: [ch("/")],
    label: "/",
    description: "find a card by number or id",
    hint: 1,
    run: (s) => {
      if (s.giftCards.view !== "card") void s.showGiftCardsView("card");
      s.focusField("gift-cards", LOOKUP_FIELD);
    },
  },
  view: {
    keys: [ch("v")],
    label: "v",
    description: "activity / card",
    hint: 2,
    run: (s) => s.showGiftCardsView(s.giftCards.view === "card" ? "activity" : "card"),
  },
  openCard: openRowCommand({
    description: "open its card",
    hint: 3,
    target: (s) => {
      const a = onActivityView(s) ? undefined : selectedActivity(s);
      return a?.gift_card_gan ?? a?.gift_card_id;
    },
    open: (s, ref) => s.lookUpGiftCard(ref),
    why: (s) => onActivityView(s) ?? "No activity here: the days have none.",
  }),
  retry: {
    keys: [ch("R")],
    label: "R",
    description: "send it again (never twice)",
    write: true,
    hint: 1,
    run: (s) => s.retryGiftCardWrite(),
    unavailable: (s) => (s.giftCards.pending?.state === "unanswered" ? undefined : "No change is waiting to be sent."),
  },
  drop: {
    keys: [ch("x")],
    label: "x",
    description: "drop it",
    hint: 2,
    run: (s) => s.dropGiftCardWrite(),
    unavailable: (s) => (s.giftCards.pending?.state === "unanswered" ? undefined : "No change is waiting to be sent."),
  },
  activate: writeCommand("activate", [ch("a")], "a", "activate", 3),
  load: writeCommand("load", [ch("l")], "l", "load", 3),
  adjustUp: writeCommand("adjust-up", [ch("+")], "+", "adjust up", 4),
  adjustDown: writeCommand("adjust-down", [ch("-")], "-", "adjust down", 4),
  clear: writeCommand("clear", [ch("c")], "c", "clear", 6),
  block: writeCommand("block", [ch("b")], "b", "block", 6),
  unblock: writeCommand("unblock", [ch("u")], "u", "unblock", 6),
  deactivate: writeCommand("deactivate", [ch("D")], "D", "deactivate", 7),
  prevDay: {
    keys: [ch("[")],
    label: "[",
    description: "previous day",
    hint: 4,
    run: (s) => s.stepGiftCardDays(-1),
    unavailable: onActivityView,
  },
  nextDay: {
    keys: [ch("]")],
    label: "]",
    description: "next day",
    hint: 4,
    run: (s) => s.stepGiftCardDays(1),
    unavailable: onActivityView,
  },
  today: {
    keys: [ch("t")],
    label: "t",
    description: "today",
    run: (s) => s.setGiftCardDays("", ""),
    unavailable: onActivityView,
  },
  days: {
    keys: [ch("d")],
    label: "d",
    description: "days",
    hint: 5,
    run: (s) => s.giftCardsEvent({ type: "open-range", from: s.giftCards.activity.from, to: s.giftCards.activity.to }),
    unavailable: onActivityView,
  },
  kind: {
    keys: [ch("f")],
    label: "f",
    description: "kind: sold, loaded, …",
    hint: 5,
    run: (s) => {
      const at = FILTER_CYCLE.indexOf(s.giftCards.activity.filter);
      return s.setGiftCardFilter(FILTER_CYCLE[(at + 1) % FILTER_CYCLE.length] ?? "");
    },
    unavailable: onActivityView,
  },
  back: {
    keys: [named("escape")],
    label: "esc",
    description: "back to the card",
    palette: false,
    run: (s) => s.showGiftCardsView("card"),
    unavailable: onActivityView,
  },
  clearLookup: {
    keys: [named("escape")],
    label: "esc",
    description: "clear the look-up line",
    palette: false,
    run: (s) => s.setDraft(LOOKUP_DRAFT, ""),
    unavailable: (s) => (s.drafts[LOOKUP_DRAFT] ? undefined : "The look-up line is empty."),
  },
});
