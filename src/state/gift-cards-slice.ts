// The Gift cards screen's I/O: look-ups (a scan, a typed number or id), the card's history and
// linked customers, the activity of some days with the liability, and the writes — each planned
// once (checked, its requests built and its idempotency keys minted) and sent through runWrite as
// one action; a write not answered is kept with its keys and sent again exactly as it was. What
// the screen shows is the machine's (gift-cards-machine.ts); this file only reads and writes.
import { type FormProblem, problemOn } from "../domain/form-problem.js";
import { activityDays, onStoreDays, storesDayBounds } from "../domain/gift-card-activity.js";
import { type CardQuery, checkCardState, doneWords, parseCardQuery, type WriteKind } from "../domain/gift-cards.js";
import { cardWithKept } from "../domain/kept-overlay.js";
import { GIFT_CARD_KEPT_KINDS } from "../domain/kept-writes.js";
import { formatMoney } from "../domain/money.js";
import { addDays, localDate } from "../domain/time.js";
import type { Money } from "../spec/generated/types.js";
import { SquareApiError } from "../square/index.js";
import { isUnanswered, writeProblem } from "./errors.js";
import {
  cardActivities,
  type KnownCard,
  type LookedUp,
  linkedCustomers,
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
  readWriteForm,
  WRITE_PART_FIELDS,
  type WriteField,
  type WriteForm,
} from "./gift-cards-machine.js";
import { countryOf, coveredLocations, placeKey, timeZoneOf } from "./shell-slice.js";
import type { LoadedSliceCreator, LoadedState, StoreDeps } from "./store.js";

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
  planGiftCardWrite(
    values?: Partial<WriteFormValues>,
  ): { ok: true; plan: PlannedWrite } | { ok: false; problem: string; field?: WriteField };
  /**
   * The write form's enter: plans the write with the values typed, then asks the one confirmation
   * with the balance before → after; yes sends it. Returns the problem the form shows, if any,
   * naming the field it is about (amount, reason, how it was paid) when it is one.
   */
  submitGiftCardWrite(values: Partial<WriteFormValues>): FormProblem;
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
  loadGiftCardActivity(options?: ActivityRead): Promise<void>;
  /** Sets the activity's days from a typed range; the problem in words when they cannot be read. */
  /** A problem (naming the field a bad date was typed in) keeps the days form open. */
  setGiftCardDays(from: string, to: string): Promise<FormProblem>;
  /** Moves the activity's days by whole days. */
  stepGiftCardDays(days: number): Promise<void>;
  /** Shows only one kind of activity ("" for every kind). */
  setGiftCardFilter(filter: string): Promise<void>;
  showGiftCardsView(view: GiftCardsView): Promise<void>;
}

/** The typed values of a write form. */
export type WriteFormValues = Pick<WriteForm, "amount" | "reason" | "paidWith" | "orderId" | "lineItem">;

/** The confirmation's yes, per write. */
const YES: Readonly<Record<WriteKind, string>> = {
  activate: "Activate",
  load: "Load",
  "adjust-up": "Add",
  "adjust-down": "Take off",
  clear: "Clear",
  deactivate: "Deactivate",
  block: "Block",
  unblock: "Unblock",
};

/** Writes that cannot be undone by the manager: the confirmation's enter means no for them. */
const RISKY: ReadonlySet<WriteKind> = new Set(["adjust-down", "clear", "deactivate"]);

/** Why the writes are unavailable to everyone now (read-only, no permission), or undefined. */
export function giftCardWritesUnavailable(s: Pick<LoadedState, "readOnly" | "grantedScopes">): string | undefined {
  if (s.readOnly) return "Read-only mode: changes are disabled.";
  if (s.grantedScopes && !s.grantedScopes.includes(GIFTCARDS_WRITE)) {
    return `This sign-in may not change gift cards (${GIFTCARDS_WRITE} was not granted); run \`backroom login\` again to grant it.`;
  }
  return undefined;
}

/**
 * The card as it will be: its balance after the loads and adjustments kept on this machine (a
 * further change is checked against that balance), and how many are kept.
 */
export function cardAsItWillBe(s: Pick<LoadedState, "outbox">, card: KnownCard): { card: KnownCard; kept: number } {
  const kept = cardWithKept(card, s.outbox.entries);
  if (!kept) return { card, kept: 0 };
  return { card: { ...card, balance_money: kept.balance as NonNullable<KnownCard["balance_money"]> }, kept: kept.kept };
}

/** Why a card change other than a load or an adjustment waits while the service does not answer. */
export const GIFT_CARD_OFFLINE =
  "The service is not answering, and only loads and adjustments are kept until it answers; the rest waits.";
/** Why one kind of write cannot be made to the card on screen now, or undefined. */
export function giftCardWriteUnavailable(
  s: Pick<
    LoadedState,
    "readOnly" | "grantedScopes" | "giftCards" | "locations" | "locationId" | "outbox" | "connection"
  >,
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
  if (g.card.kind === "looking") return `Card ${g.card.query} is still being looked up; a moment.`;
  if (g.card.kind !== "found") return "Look a card up first: scan it, or type its number.";
  if (!KEPT_KINDS.has(kind) && s.connection.state === "offline") {
    return GIFT_CARD_OFFLINE;
  }
  const { card, kept } = cardAsItWillBe(s, g.card.card);
  if (kept > 0 && !KEPT_KINDS.has(kind)) {
    return "Loads or adjustments of this card are kept on this machine, not yet sent; only more of those can be kept until they are.";
  }
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

/** What the slice's actions share. */
interface Ctx {
  get: () => LoadedState;
  dispatch: (event: GiftCardsEvent) => void;
  deps: StoreDeps;
  /** An answer that arrives after a newer look-up (or read of the days) began is dropped. */
  tickets: { lookup: number; activity: number };
}

const currencyOf = (s: LoadedState) => s.locations.find((l) => l.id === s.locationId)?.currency ?? "USD";
const todayOf = (ctx: Ctx) => localDate(ctx.deps.clock.now(), timeZoneOf(ctx.get()));

/** Reads what a look-up shows: the card, its history and its customers (or that there is none). */
async function readCard(ctx: Ctx, query: CardQuery) {
  const client = ctx.deps.client.giftCards;
  const result: LookedUp = await lookUpCard(client, query);
  if (result.kind !== "found") return { result, history: [], customers: [] };
  const [history, customers] = await Promise.all([
    cardActivities(client, result.card),
    linkedCustomers(ctx.deps.client.customers, result.card, countryOf(ctx.get())),
  ]);
  return { result, history, customers };
}

async function showCard(ctx: Ctx, query: CardQuery, label: string, quiet: boolean): Promise<void> {
  const ticket = ++ctx.tickets.lookup;
  const read = await ctx.get().runRead(label, () => readCard(ctx, query), { quiet });
  if (ticket !== ctx.tickets.lookup) return;
  if (!read) {
    // The card on screen read again while the service does not answer: what was last read stays,
    // marked stale, as on every screen (the status bar says why).
    const shown = ctx.get().giftCards.card;
    if (shown.kind === "found" && query.kind === "id" && shown.card.id === query.id) return;
    // runRead put the failure in the status bar; the pane says it too.
    const status = ctx.get().status;
    const problem = status.kind === "idle" ? "The card could not be read." : status.text;
    ctx.dispatch({ type: "lookup-failed", query: query.kind === "gan" ? query.gan : query.id, problem });
    return;
  }
  ctx.dispatch({ type: "lookup-done", ...read, at: ctx.deps.clock.now().toISOString() });
}

/** The query that reads the card on screen again, if one is shown. */
function shownQuery(s: GiftCardsState): CardQuery | undefined {
  const c = s.card;
  if (c.kind === "found") return { kind: "id", id: c.card.id };
  if (c.kind === "unknown") return { kind: "gan", gan: c.gan };
  return undefined;
}

function planFromForm(
  ctx: Ctx,
  values: Partial<WriteFormValues> | undefined,
): { ok: true; plan: PlannedWrite } | { ok: false; problem: string; field?: WriteField } {
  if (values) ctx.dispatch({ type: "edit-write", patch: values });
  const s = ctx.get();
  const f = s.giftCards.form;
  if (f.kind !== "write") return { ok: false, problem: "No change is being made." };
  const fail = (problem: string, field?: WriteField) => {
    ctx.dispatch({ type: "form-problem", problem });
    return { ok: false as const, problem, ...(field ? { field } : {}) };
  };
  const unavailable = giftCardWriteUnavailable(s, f.form.kind);
  if (unavailable) return fail(unavailable);
  const read = readWriteForm(f.form, currencyOf(s));
  if (!read.ok) return fail(read.problem, read.field);
  const c = s.giftCards.card;
  const found =
    c.kind === "found" ? { card: cardAsItWillBe(s, c.card).card } : c.kind === "unknown" ? { gan: c.gan } : undefined;
  if (!found || !s.locationId) return fail("Look a card up first, at a location.");
  const planned = planWrite(found, read.write, {
    locationId: s.locationId,
    currency: currencyOf(s),
    newKey: ctx.deps.newIdempotencyKey,
  });
  return planned.ok ? planned : fail(planned.problem, planned.part && WRITE_PART_FIELDS[planned.part]);
}

/** Whether a write is a load or an adjustment of a card the service knows: those are kept offline. */
function keepable(plan: PlannedWrite): plan is PlannedWrite & { cardId: string } {
  return plan.cardId !== undefined && plan.register === undefined && KEPT_KINDS.has(plan.write.kind);
}

const KEPT_KINDS: ReadonlySet<WriteKind> = new Set(GIFT_CARD_KEPT_KINDS);

/**
 * A load or an adjustment goes through the outbox: made now when the service answers, kept on
 * this machine when it does not (the card then shows the balance it will have, marked kept).
 */
async function sendKeepable(ctx: Ctx, plan: PlannedWrite & { cardId: string }): Promise<void> {
  ctx.dispatch({ type: "write-sending", plan });
  const { before, after } = plan.change;
  const res = await ctx
    .get()
    .outboxWrite({ kind: "gift-card", gan: plan.gan, cardId: plan.cardId, request: plan.activity, before, after });
  if (res.kind === "failed") {
    if (res.error.kind === "in-flight") return;
    ctx.dispatch({ type: "write-refused" });
    await ctx.get().reloadGiftCard({ quiet: true });
    if (res.error.kind === "failed") spentMeanwhile(ctx, plan, res.error.cause, res.error.problem.details);
    return;
  }
  ctx.dispatch({ type: "write-done" });
  if (res.kind === "sent") await afterWrite(ctx, plan, res.answer.activity?.gift_card_balance_money);
}

/**
 * A decrement the service refused because the card holds less than it did when read (another
 * till redeemed it meanwhile): said in money, with the balance just read, instead of the
 * service's words in cents ("holds 500 and cannot give 2000").
 */
function spentMeanwhile(ctx: Ctx, plan: PlannedWrite, cause: unknown, details: string | undefined): void {
  if (!(cause instanceof SquareApiError && cause.hasCode("INSUFFICIENT_FUNDS"))) return;
  const c = ctx.get().giftCards.card;
  const now = c.kind === "found" ? c.card.balance_money : undefined;
  const wanted = { amount: plan.change.before.amount - plan.change.after.amount, currency: plan.currency };
  const holds = now ? `it holds ${formatMoney(now)} now, less than ${formatMoney(wanted)}` : "it holds less now";
  ctx.get().setStatus({
    screen: "gift-cards",
    kind: "error",
    text: `Nothing was taken off card ${plan.gan}: ${holds} (it was spent since it was read).`,
    ...(details ? { details } : {}),
  });
}

/** After a write the service made: the card read back, what changed said, the activity refreshed. */
async function afterWrite(ctx: Ctx, plan: PlannedWrite, answered: Money | undefined): Promise<void> {
  await ctx.get().reloadGiftCard({ quiet: true });
  const c = ctx.get().giftCards.card;
  const read = c.kind === "found" ? c.card.balance_money : answered;
  const after = { amount: read?.amount ?? plan.change.after.amount, currency: read?.currency ?? plan.currency };
  ctx.get().setStatus({
    screen: "gift-cards",
    kind: "info",
    text: doneWords(plan.gan, plan.write, plan.change.before, after),
  });
  const g = ctx.get().giftCards;
  if (g.view === "activity" || g.activity.readFor) await ctx.get().loadGiftCardActivity({ quiet: true });
}

async function sendPlanned(ctx: Ctx, plan: PlannedWrite): Promise<void> {
  if (keepable(plan)) return sendKeepable(ctx, plan);
  ctx.dispatch({ type: "write-sending", plan });
  const label = `Sending the change to card ${plan.gan}`;
  const res = await ctx
    .get()
    .runWrite(`gift-card:${plan.gan}`, label, () => sendWrite(ctx.deps.client.giftCards, plan));
  if (!res.ok) {
    if (res.error.kind === "in-flight") return;
    const problem = writeProblem(res.error) ?? "The service did not answer.";
    if (res.error.kind === "failed" && isUnanswered(res.error.cause)) {
      ctx.dispatch({ type: "write-unanswered", problem });
      ctx.get().setStatus({
        screen: "gift-cards",
        kind: "error",
        text: `Not answered: ${problem} R sends the same change again (it is never made twice); x drops it.`,
      });
      return;
    }
    ctx.dispatch({ type: "write-refused" });
    await ctx.get().reloadGiftCard({ quiet: true });
    return;
  }
  ctx.dispatch({ type: "write-done" });
  await afterWrite(ctx, plan, res.value.gift_card_balance_money);
}

/** How the activity is read: quietly (a refresh), and whether the liability is read again too. */
export interface ActivityRead {
  quiet?: boolean;
  /** The liability does not depend on the days or the kind shown: moving them does not read it again. */
  liability?: boolean;
}

/** The activity of the days at the selected location, or at every one (the picker's All locations). */
async function loadActivity(ctx: Ctx, options: ActivityRead): Promise<void> {
  const s = ctx.get();
  const locationId = s.locationId;
  if (!locationId) return;
  // Every store's days on its own clock: read the instants that cover them all, keep each store's.
  const zones = new Map(coveredLocations(s).map((l) => [l.id ?? "", l.timezone ?? timeZoneOf(s)]));
  const zoneOf = (id: string) => zones.get(id) ?? timeZoneOf(s);
  const where = s.allLocations ? {} : { locationId };
  let { from, to } = s.giftCards.activity;
  if (s.giftCards.activity.followToday || !from) {
    from = todayOf(ctx);
    to = from;
    ctx.dispatch({ type: "days", from, to, followToday: true });
  }
  const filter = s.giftCards.activity.filter;
  const client = ctx.deps.client.giftCards;
  const ticket = ++ctx.tickets.activity;
  ctx.dispatch({ type: "activity-loading" });
  const withLiability = options.liability !== false || !s.giftCards.activity.liability;
  const read = await s.runRead(
    "Reading the gift card activity",
    () =>
      Promise.all([
        rangeActivities(client, {
          ...where,
          ...storesDayBounds(from, to, [...zones.values()]),
          types: filterTypes(filter),
        }).then((rows) => (s.allLocations ? onStoreDays(rows, from, to, zoneOf) : rows)),
        withLiability ? readLiability(client, currencyOf(s)) : s.giftCards.activity.liability,
      ]),
    options.quiet ? { quiet: true } : {},
  );
  if (ticket !== ctx.tickets.activity) return;
  if (!read) {
    ctx.dispatch({ type: "activity-failed" });
    return;
  }
  const readFor = `${placeKey(s)}|${from}|${to}|${filter}`;
  ctx.dispatch({ type: "activity-loaded", rows: read[0], liability: read[1], readFor });
}

async function setDays(ctx: Ctx, fromText: string, toText: string): Promise<FormProblem> {
  const today = todayOf(ctx);
  const days = activityDays({ from: fromText.trim() || undefined, to: toText.trim() || undefined }, today);
  if (!days.ok) {
    ctx.dispatch({ type: "form-problem", problem: days.problem });
    return problemOn(days.problem, days.field);
  }
  ctx.dispatch({ type: "days", from: days.from, to: days.to, followToday: days.from === today && days.to === today });
  await ctx.get().loadGiftCardActivity({ liability: false });
  return undefined;
}

async function stepDays(ctx: Ctx, n: number): Promise<void> {
  const a = ctx.get().giftCards.activity;
  if (!a.from) return;
  const today = todayOf(ctx);
  const from = addDays(a.from, n);
  const to = addDays(a.to, n);
  ctx.dispatch({ type: "days", from, to, followToday: from === today && to === today });
  await ctx.get().loadGiftCardActivity({ liability: false });
}

async function showView(ctx: Ctx, view: GiftCardsView): Promise<void> {
  ctx.dispatch({ type: "show", view });
  const a = ctx.get().giftCards.activity;
  const stale = !a.readFor || (a.followToday && a.from !== todayOf(ctx));
  if (view === "activity" && stale) await ctx.get().loadGiftCardActivity();
}

/** Builds the gift cards slice. */
export const createGiftCardsSlice: LoadedSliceCreator<GiftCardsSlice> = (set, get, deps) => {
  const ctx: Ctx = {
    get,
    dispatch: (event) => set((s) => ({ giftCards: giftCardsReducer(s.giftCards, event) })),
    deps,
    tickets: { lookup: 0, activity: 0 },
  };
  // A load kept offline was made at the service: the card on screen is read again.
  deps.events.on("kept-gift-card-saved", (e) => {
    const c = get().giftCards.card;
    if (c.kind === "found" && c.card.id === e.cardId) void get().reloadGiftCard({ quiet: true });
  });
  // Another location, or all of them (or one again): the activity read is of another place.
  const moved = () => {
    ctx.tickets.activity++;
    ctx.dispatch({ type: "location-changed" });
  };
  deps.events.on("location-changed", moved);
  deps.events.on("all-locations-changed", moved);
  return {
    giftCards: initialGiftCards,
    giftCardsEvent: ctx.dispatch,
    async lookUpGiftCard(text) {
      const query = parseCardQuery(text);
      if (!query.ok) {
        get().setStatus({ screen: "gift-cards", kind: "rule", text: query.problem });
        return;
      }
      ctx.dispatch({ type: "lookup-started", query: text.trim() });
      await showCard(ctx, query.value, "Looking the card up", false);
    },
    async reloadGiftCard(options = {}) {
      const query = shownQuery(get().giftCards);
      if (query) await showCard(ctx, query, "Reading the card", options.quiet === true);
    },
    planGiftCardWrite: (values) => planFromForm(ctx, values),
    submitGiftCardWrite(values) {
      const planned = planFromForm(ctx, values);
      if (!planned.ok) return problemOn(planned.problem, planned.field);
      const plan = planned.plan;
      get().ask({
        message: plan.question,
        risky: RISKY.has(plan.write.kind),
        yes: YES[plan.write.kind],
        onYes: () => sendPlanned(ctx, plan),
      });
      return undefined;
    },
    sendGiftCardWrite: (plan) => sendPlanned(ctx, plan),
    async retryGiftCardWrite() {
      const kept = get().giftCards.pending;
      if (kept?.state === "unanswered") await sendPlanned(ctx, kept.plan);
    },
    dropGiftCardWrite() {
      if (get().giftCards.pending?.state !== "unanswered") return;
      ctx.dispatch({ type: "write-dropped" });
      get().setStatus({
        screen: "gift-cards",
        kind: "info",
        text: "Dropped: the change was not sent again. Read the card (r) to see whether it was made.",
      });
    },
    loadGiftCardActivity: (options = {}) => loadActivity(ctx, options),
    setGiftCardDays: (from, to) => setDays(ctx, from, to),
    stepGiftCardDays: (n) => stepDays(ctx, n),
    async setGiftCardFilter(filter) {
      ctx.dispatch({ type: "filter", filter });
      await get().loadGiftCardActivity({ liability: false });
    },
    showGiftCardsView: (view) => showView(ctx, view),
  };
};
