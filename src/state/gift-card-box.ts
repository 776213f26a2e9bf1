// A box of gift cards activated at once, journaled on this machine like a stocktake's commit. Each
// card: looked up; a number the service does not know is registered (physical, that number); then
// activated with the run's amount and payment, its sale carrying the run's reference. Before any
// request goes out the journal holds it with its key, so a run killed at any moment is finished by
// running it again: sent cards are sent again under the same keys (the service answers what it did
// the first time), and a card found active is told apart — sold by this run, or already active
// before it (left alone) — by the reference its sale carries.
import { activityFor } from "../domain/gift-cards.js";
import type { BoxCard, BoxRun, GiftCardJournal } from "../local/gift-card-journal.js";
import type { CreateGiftCardActivityRequest, CreateGiftCardRequest } from "../spec/generated/types.js";
import { SquareApiError } from "../square/errors.js";
import { isUnreachable, type Problem, problemOf } from "./errors.js";
import {
  activatedWith,
  type GiftCardsClient,
  type KnownCard,
  lookUpCard,
  registerRequest,
  sendWrite,
} from "./gift-cards-io.js";

/** The reference every sale of a run carries: how a resumed run recognises its own work. */
export function boxReference(runId: string): string {
  return `backroom-box-${runId}`;
}

/** What a run needs. */
export interface BoxDeps {
  client: GiftCardsClient;
  journal: GiftCardJournal;
  now: () => Date;
  /** Cards worked on at once (default 4). */
  concurrency?: number;
  /** Told each card as it settles. */
  onCard?: (card: BoxCard) => void;
}

/** How a run ended: every card settled, or stopped (the rest journaled for the next run). */
export type BoxOutcome =
  | { kind: "finished"; cards: BoxCard[] }
  | { kind: "stopped"; problem: Problem; cards: BoxCard[] };

/** A failure that stops the run rather than refusing one card: no card could get through it. */
function stopsTheRun(err: unknown): boolean {
  if (isUnreachable(err)) return true;
  if (!(err instanceof SquareApiError)) return true;
  return err.status >= 500 || err.status === 429 || err.status === 401 || err.status === 403;
}

/** How a card that is no longer waiting to be sold ends: ours, already active, or refused. */
async function settledAlready(
  client: GiftCardsClient,
  run: BoxRun,
  card: KnownCard,
): Promise<{ state: "activated" | "left-alone" | "refused"; cardId: string; problem?: string }> {
  if (card.state === "ACTIVE" || card.state === "BLOCKED" || card.state === "DEACTIVATED") {
    if (await activatedWith(client, card, boxReference(run.id))) return { state: "activated", cardId: card.id };
  }
  if (card.state === "ACTIVE") return { state: "left-alone", cardId: card.id, problem: "already active" };
  const state = card.state === "BLOCKED" ? "blocked" : card.state === "DEACTIVATED" ? "deactivated" : "not active";
  return { state: "refused", cardId: card.id, problem: `the card is ${state} and cannot be activated` };
}

/** The requests of a card not yet sent: registration when the service does not know it, then the sale. */
export function boxRequests(
  run: BoxRun,
  card: BoxCard,
  known: boolean,
):
  | { ok: true; register: CreateGiftCardRequest | undefined; activate: CreateGiftCardActivityRequest }
  | { ok: false; problem: string } {
  let register: CreateGiftCardRequest | undefined;
  if (!known) {
    const made = registerRequest(card.gan, run.locationId, card.registerKey);
    if (!made.ok) return made;
    register = made.request;
  }
  const write = {
    kind: "activate" as const,
    amount: run.amount,
    payment: run.payment,
    referenceId: boxReference(run.id),
  };
  return {
    ok: true,
    register,
    activate: {
      idempotency_key: card.activateKey,
      gift_card_activity: activityFor(write, { gan: card.gan }, run.locationId, run.currency),
    },
  };
}

/** Works one card to its end; returns the problem that stops the run, if one did. */
async function workCard(run: BoxRun, card: BoxCard, deps: BoxDeps): Promise<Problem | undefined> {
  const { client, journal } = deps;
  const at = () => deps.now().toISOString();
  const settle = (outcome: Parameters<GiftCardJournal["settle"]>[2]) => {
    journal.settle(run.id, card.seq, outcome, at());
    deps.onCard?.({ ...card, state: outcome.state, cardId: outcome.cardId, problem: outcome.problem });
  };
  try {
    let requests = card.activate ? { register: card.register, activate: card.activate } : undefined;
    if (!requests) {
      const found = await lookUpCard(client, { kind: "gan", gan: card.gan });
      if (found.kind === "found" && found.card.state !== "PENDING") {
        settle(await settledAlready(client, run, found.card));
        return undefined;
      }
      const made = boxRequests(run, card, found.kind === "found");
      if (!made.ok) {
        settle({ state: "refused", problem: made.problem });
        return undefined;
      }
      requests = made;
    }
    journal.markSent(run.id, card.seq, requests, at());
    const activity = await sendWrite(client, {
      gan: card.gan,
      register: requests.register,
      activity: requests.activate,
    });
    settle({ state: "activated", cardId: activity.gift_card_id });
    return undefined;
  } catch (err) {
    if (stopsTheRun(err)) return problemOf(err);
    // Refused: perhaps this run sold it already, under a key the service has since forgotten.
    try {
      const now = await lookUpCard(client, { kind: "gan", gan: card.gan });
      if (now.kind === "found" && now.card.state !== "PENDING") {
        settle(await settledAlready(client, run, now.card));
        return undefined;
      }
    } catch (again) {
      if (stopsTheRun(again)) return problemOf(again);
    }
    settle({ state: "refused", problem: problemOf(err).headline });
    return undefined;
  }
}

/**
 * Works every unsettled card of a run, a few at once, until all are settled (the run is marked
 * finished) or a failure no card could get through stops it (the service unreachable, busy or
 * failing, the sign-in refused): the cards not reached stay journaled for the next run.
 */
export async function runBox(run: BoxRun, deps: BoxDeps): Promise<BoxOutcome> {
  const queue = deps.journal.cards(run.id).filter((c) => c.state === "planned" || c.state === "sent");
  let stopped: Problem | undefined;
  const worker = async () => {
    for (let card = queue.shift(); card && !stopped; card = queue.shift()) {
      const problem = await workCard(run, card, deps);
      if (problem) stopped ??= problem;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, deps.concurrency ?? 4) }, worker));
  const cards = deps.journal.cards(run.id);
  if (stopped || cards.some((c) => c.state === "planned" || c.state === "sent")) {
    return { kind: "stopped", problem: stopped ?? { headline: "The run stopped before every card was done." }, cards };
  }
  deps.journal.finish(run.id, deps.now().toISOString());
  return { kind: "finished", cards };
}
