// The Gift cards screen's I/O: look-ups (a scan, a typed number or id), the card's history and
// linked customers, the activity of some days with the liability, and the writes — each planned
// once (checked, its requests built and its idempotency keys minted) and sent through runWrite as
// one action; a write not answered is kept with its keys and sent again exactly as it was. What
// the screen shows is the machine's (gift-cards-machine.ts); this file only reads and writes.
import { customerName } from "../domain/customers.js";
import { activityDays, dayBounds } from "../domain/gift-card-activity.js";
import { checkCardState, doneWords, parseCardQuery, type WriteKind } from "../domain/gift-cards.js";
import { addDays, localDate } from "../domain/time.js";
import { SquareApiError } from "../square/errors.js";
import { isUnreachable, type Problem, writeProblem } from "./errors.js";
import {
  cardActivities,
  type KnownCard,
  type LookedUp,
  lookUpCard,
  type PlannedWrite,
  planWrite,
  rangeActivities,
  readLiability,
  sendWrite,
} from "./gift-cards-io.js";
import {
  filterTypes,
  type GiftCardsEvent,
  type GiftCardsState,
  type GiftCardsView,
  giftCardsReducer,
  initialGiftCards,
  type LinkedCustomer,
  readWriteForm,
  type WriteForm,
} from "./gift-cards-machine.js";
import { timeZoneOf } from "./shell-slice.js";
import type { AppState, SliceCreator } from "./store.js";

/** The permission gift card writes need. */
export const GIFTCARDS_WRITE = "GIFTCARDS_WRITE";

/** The Gift cards slice. */
export interface GiftCardsSlice {
  giftCards: GiftCardsState;
  /** Applies one event to the screen's machine (typing into a form, picking a row, a view). */
  giftCardsEvent(event: GiftCardsEvent): void;
  /** Looks a card up by what was scanned or typed: its number (spaces and dashes allowed) or its id. */
  lookUpGiftCard(text: string): Promise<void>;
  /** Reads the card on screen again (after a write, or `r`). */
  reloadGiftCard(options?: { quiet?: boolean }): Promise<void>;
  /**
   * Checks the open write form against the card and plans the write (its keys minted here, once):
   * the confirmation's question, or the problem, which the form then shows.
   */
  planGiftCardWrite(): { ok: true; plan: PlannedWrite } | { ok: false; problem: string };
  /**
   * Sends a planned write — the one action a gift card write is — and reads the card back. A write
   * the service did not answer (unreachable, 5xx, 429) is kept with its keys for `retryGiftCardWrite`.
   */
  sendGiftCardWrite(plan: PlannedWrite): Promise<void>;
  /** Sends the kept write again, exactly as it was (same keys, same body). */
  retryGiftCardWrite(): Promise<void>;
  /** Forgets the kept write (the manager decided not to send it). */
  dropGiftCardWrite(): void;
  /** Reads the activity of the days shown (today by default) with the liability. */
  loadGiftCardActivity(options?: { quiet?: boolean }): Promise<void>;
  /** Sets the activity's days from a typed range; the problem in words when they cannot be read. */
  setGiftCardDays(from: string, to: string): Promise<string | undefined>;
  /** Moves the activity's days by whole days. */
  stepGiftCardDays(days: number): Promise<void>;
  /** Shows only one kind of activity ("" for every kind). */
  setGiftCardFilter(filter: string): Promise<void>;
  showGiftCardsView(view: GiftCardsView): Promise<void>;
}

/** Why the writes are unavailable to everyone now (read-only, no permission), or undefined. */
export function giftCardWritesUnavailable(s: Pick<AppState, "readOnly" | "grantedScopes">): string | undefined {
  if (s.readOnly) return "Read-only mode: changes are disabled.";
  if (s.grantedScopes && !s.grantedScopes.includes(GIFTCARDS_WRITE)) {
    return `This sign-in may not change gift cards (${GIFTCARDS_WRITE} was not granted); run \`backroom login\` again to grant it.`;
  }
  return undefined;
}

/** Why one kind of write cannot be made to the card on screen now, or undefined. */
export function giftCardWriteUnavailable(
  s: Pick<AppState, "readOnly" | "grantedScopes" | "giftCards" | "locations" | "locationId">,
  kind: WriteKind,
): string | undefined {
  const everyone = giftCardWritesUnavailable(s);
  if (everyone) return everyone;
  const g = s.giftCards;
  if (g.pending) {
    return g.pending.state === "sending"
      ? "A change to a card is still being sent."
      : "A change was not answered: send it again (R) or drop it first.";
  }
  if (g.card.kind === "unknown")
    return kind === "activate" ? undefined : "The service does not know this card number; activate it first.";
  if (g.card.kind !== "found") return "Look a card up first: scan it, or type its number.";
  const card = g.card.card;
  const currency = s.locations.find((l) => l.id === s.locationId)?.currency ?? card.balance_money?.currency ?? "USD";
  const state = checkCardState(
    { state: card.state ?? "PENDING", balance: card.balance_money?.amount ?? 0, currency },
    kind,
  );
  if (state) return state;
  if (kind === "clear" && (card.balance_money?.amount ?? 0) === 0) return "The card's balance is already zero.";
  if (kind === "adjust-down" && (card.balance_money?.amount ?? 0) === 0) return "The card's balance is zero.";
  return undefined;
}

/** Whether a failed write may have not reached the service, so it is kept to be sent again as it is. */
function unanswered(cause: unknown): boolean {
  return isUnreachable(cause) || (cause instanceof SquareApiError && (cause.status >= 500 || cause.status === 429));
}

/** Builds the gift cards slice. */
export const createGiftCardsSlice: SliceCreator<GiftCardsSlice> = (set, get, deps) => {
  const dispatch = (event: GiftCardsEvent) => set((s) => ({ giftCards: giftCardsReducer(s.giftCards, event) }));
  const g = () => get().giftCards;
  const here = () => get().locations.find((l) => l.id === get().locationId);
  const currency = () => here()?.currency ?? "USD";
  // An answer that arrives after a newer look-up (or read of the days) began is dropped.
  let lookupTicket = 0;
  let activityTicket = 0;

  deps.events.on("location-changed", () => {
    activityTicket++;
    dispatch({ type: "location-changed" });
  });

  /** The linked customers' names; a profile that cannot be read shows its id. */
  const customersOf = (card: KnownCard): Promise<LinkedCustomer[]> =>
    Promise.all(
      (card.customer_ids ?? []).map(async (id) => {
        const c = await deps.client.customers.retrieveCustomer(id).catch(() => undefined);
        return { id, name: c?.customer ? customerName(c.customer) : undefined };
      }),
    );

  /** Reads what a look-up shows: the card, its history and its customers (or that there is none). */
  const readCard = async (query: Parameters<typeof lookUpCard>[1]) => {
    const result: LookedUp = await lookUpCard(deps.client.giftCards, query);
    if (result.kind !== "found") return { result, history: [], customers: [] };
    const [history, customers] = await Promise.all([
      cardActivities(deps.client.giftCards, result.card),
      customersOf(result.card),
    ]);
    return { result, history, customers };
  };

  const show = async (query: Parameters<typeof lookUpCard>[1], label: string, quiet: boolean) => {
    const ticket = ++lookupTicket;
    let problem: Problem | undefined;
    const read = await get().runRead(label, () => readCard(query), { quiet });
    if (ticket !== lookupTicket) return;
    if (!read) {
      const status = get().status;
      problem = { headline: status.kind === "idle" ? "The card could not be read." : status.text };
      dispatch({
        type: "lookup-failed",
        query: query.kind === "gan" ? query.gan : query.id,
        problem: problem.headline,
      });
      return;
    }
    dispatch({ type: "lookup-done", ...read, at: deps.clock.now().toISOString() });
  };

  return {
    giftCards: initialGiftCards,

    giftCardsEvent: dispatch,

    async lookUpGiftCard(text) {
      const query = parseCardQuery(text);
      if (!query.ok) {
        get().setStatus({ kind: "rule", text: query.problem });
        return;
      }
      dispatch({ type: "lookup-started", query: text.trim() });
      await show(query.value, "Looking the card up", false);
    },

    async reloadGiftCard(options = {}) {
      const c = g().card;
      const query =
        c.kind === "found"
          ? ({ kind: "id", id: c.card.id } as const)
          : c.kind === "unknown"
            ? ({ kind: "gan", gan: c.gan } as const)
            : undefined;
      if (query) await show(query, "Reading the card", options.quiet === true);
    },

    planGiftCardWrite() {
      const s = get();
      const f = s.giftCards.form;
      if (f.kind !== "write") return { ok: false, problem: "No change is being made." };
      const unavailable = giftCardWriteUnavailable(s, f.form.kind);
      const fail = (problem: string) => {
        dispatch({ type: "form-problem", problem });
        return { ok: false as const, problem };
      };
      if (unavailable) return fail(unavailable);
      const read = readWriteForm(f.form as WriteForm, currency());
      if (!read.ok) return fail(read.problem);
      const c = s.giftCards.card;
      const found = c.kind === "found" ? { card: c.card } : c.kind === "unknown" ? { gan: c.gan } : undefined;
      const locationId = s.locationId;
      if (!found || !locationId) return fail("Look a card up first, at a location.");
      const planned = planWrite(found, read.write, {
        locationId,
        currency: currency(),
        newKey: deps.newIdempotencyKey,
      });
      return planned.ok ? planned : fail(planned.problem);
    },

    async sendGiftCardWrite(plan) {
      dispatch({ type: "write-sending", plan });
      const label = `Sending the change to card ${plan.gan}`;
      const res = await get().runWrite(`gift-card:${plan.gan}`, label, () => sendWrite(deps.client.giftCards, plan));
      if (!res.ok) {
        const problem = writeProblem(res.error);
        if (res.error.kind === "failed" && unanswered(res.error.cause)) {
          dispatch({ type: "write-unanswered", problem: problem ?? "The service did not answer." });
          get().setStatus({
            kind: "error",
            text: `Not answered: ${problem ?? "the service did not answer"} R sends the same change again (it is never made twice); x drops it.`,
          });
          return;
        }
        if (res.error.kind === "in-flight") return;
        dispatch({ type: "write-refused" });
        await get().reloadGiftCard({ quiet: true });
        return;
      }
      dispatch({ type: "write-done" });
      await get().reloadGiftCard({ quiet: true });
      const c = g().card;
      const after =
        c.kind === "found" && c.card.balance_money?.amount !== undefined
          ? { amount: c.card.balance_money.amount, currency: c.card.balance_money.currency ?? plan.currency }
          : {
              amount: res.value.gift_card_balance_money?.amount ?? plan.change.after.amount,
              currency: plan.change.after.currency,
            };
      get().setStatus({ kind: "info", text: doneWords(plan.gan, plan.write, plan.change.before, after) });
      if (g().view === "activity" || g().activity.readFor) await get().loadGiftCardActivity({ quiet: true });
    },

    async retryGiftCardWrite() {
      const kept = g().pending;
      if (!kept || kept.state !== "unanswered") return;
      await get().sendGiftCardWrite(kept.plan);
    },

    dropGiftCardWrite() {
      if (g().pending?.state !== "unanswered") return;
      dispatch({ type: "write-dropped" });
      get().setStatus({
        kind: "info",
        text: "Dropped: the change was not sent again. Read the card (r) to see if it was made.",
      });
    },

    async loadGiftCardActivity(options = {}) {
      const locationId = get().locationId;
      if (!locationId) return;
      const tz = timeZoneOf(get());
      let { from, to } = g().activity;
      if (g().activity.followToday || !from) {
        from = localDate(deps.clock.now(), tz);
        to = from;
        dispatch({ type: "days", from, to, followToday: true });
      }
      const filter = g().activity.filter;
      const ticket = ++activityTicket;
      dispatch({ type: "activity-loading" });
      const read = await get().runRead(
        "Reading the gift card activity",
        () =>
          Promise.all([
            rangeActivities(deps.client.giftCards, {
              locationId,
              ...dayBounds(from, to, tz),
              types: filterTypes(filter),
            }),
            readLiability(deps.client.giftCards, currency()),
          ]),
        options,
      );
      if (ticket !== activityTicket) return;
      if (!read) {
        dispatch({ type: "activity-failed" });
        return;
      }
      dispatch({
        type: "activity-loaded",
        rows: read[0],
        liability: read[1],
        readFor: `${locationId}|${from}|${to}|${filter}`,
      });
    },

    async setGiftCardDays(fromText, toText) {
      const today = localDate(deps.clock.now(), timeZoneOf(get()));
      const days = activityDays({ from: fromText.trim() || undefined, to: toText.trim() || undefined }, today);
      if (!days.ok) {
        dispatch({ type: "form-problem", problem: days.problem });
        return days.problem;
      }
      dispatch({ type: "days", from: days.from, to: days.to, followToday: days.from === today && days.to === today });
      await get().loadGiftCardActivity();
      return undefined;
    },

    async stepGiftCardDays(n) {
      const a = g().activity;
      if (!a.from) return;
      const today = localDate(deps.clock.now(), timeZoneOf(get()));
      const from = addDays(a.from, n);
      const to = addDays(a.to, n);
      dispatch({ type: "days", from, to, followToday: from === today && to === today });
      await get().loadGiftCardActivity();
    },

    async setGiftCardFilter(filter) {
      dispatch({ type: "filter", filter });
      await get().loadGiftCardActivity();
    },

    async showGiftCardsView(view) {
      dispatch({ type: "show", view });
      const a = g().activity;
      const today = localDate(deps.clock.now(), timeZoneOf(get()));
      const stale = !a.readFor || (a.followToday && a.from !== today);
      if (view === "activity" && stale) await get().loadGiftCardActivity();
    },
  };
};
