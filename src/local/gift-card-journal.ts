// The gift card journal: a SQLite file in the data folder that holds every box of cards being
// activated — the run (where, how much, how paid), every card number of the file, and for each card
// the requests sent with their idempotency keys, written *before* each request goes out, and how it
// ended. A run killed at any moment is finished by running it again: the journal says which cards
// are settled, which were sent (and are sent again under the same keys), which are still to do.
import { join } from "node:path";
import type { Payment } from "../domain/gift-cards.js";
import type { CreateGiftCardActivityRequest, CreateGiftCardRequest } from "../spec/generated/types.js";
import { type LocalDb, type Migration, openLocalDb } from "./db.js";

/** The journal file in the data folder. */
export function giftCardJournalPath(dataDir: string): string {
  return join(dataDir, "giftcards.db");
}

/** A box of cards being activated. */
export interface BoxRun {
  id: string;
  merchantId: string;
  locationId: string;
  locationName: string;
  currency: string;
  /** Each card's starting balance, in minor units. */
  amount: number;
  payment: Payment;
  /** The file's name, for people. */
  file: string;
  /** The card numbers of the file, hashed: the same file run again finds its run. */
  cardsHash: string;
  startedAt: string;
  finishedAt: string | undefined;
}

/** Where a card of a run stands. `sent`: a request went out; the service may or may not have it. */
export type BoxCardState = "planned" | "sent" | "activated" | "left-alone" | "refused";

/** A card of a run. */
export interface BoxCard {
  seq: number;
  /** Its line in the file. */
  line: number;
  gan: string;
  state: BoxCardState;
  /** The keys of its two possible requests, minted when the run was planned. */
  registerKey: string;
  activateKey: string;
  /** The exact requests sent (set when first sent; sent again byte for byte). */
  register: CreateGiftCardRequest | undefined;
  activate: CreateGiftCardActivityRequest | undefined;
  attempts: number;
  cardId: string | undefined;
  /** Why it was refused or left alone, in words. */
  problem: string | undefined;
  settledAt: string | undefined;
}

/** A run as it starts. */
export type NewRun = Omit<BoxRun, "finishedAt">;

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "runs and their cards",
    up(db) {
      db.exec(`
        CREATE TABLE runs (
          id TEXT PRIMARY KEY,
          merchant_id TEXT NOT NULL,
          location_id TEXT NOT NULL,
          location_name TEXT NOT NULL,
          currency TEXT NOT NULL,
          amount INTEGER NOT NULL,
          payment TEXT NOT NULL,
          file TEXT NOT NULL,
          cards_hash TEXT NOT NULL,
          started_at TEXT NOT NULL,
          finished_at TEXT
        );
        CREATE INDEX runs_open ON runs (merchant_id, finished_at);
        CREATE TABLE cards (
          run_id TEXT NOT NULL REFERENCES runs (id),
          seq INTEGER NOT NULL,
          line INTEGER NOT NULL,
          gan TEXT NOT NULL,
          state TEXT NOT NULL,
          register_key TEXT NOT NULL,
          activate_key TEXT NOT NULL,
          register_body TEXT,
          activate_body TEXT,
          attempts INTEGER NOT NULL DEFAULT 0,
          card_id TEXT,
          problem TEXT,
          sent_at TEXT,
          settled_at TEXT,
          PRIMARY KEY (run_id, seq),
          UNIQUE (run_id, gan)
        );
      `);
    },
  },
];

interface RunRow {
  id: string;
  merchant_id: string;
  location_id: string;
  location_name: string;
  currency: string;
  amount: number;
  payment: string;
  file: string;
  cards_hash: string;
  started_at: string;
  finished_at: string | null;
}

interface CardRow {
  seq: number;
  line: number;
  gan: string;
  state: BoxCardState;
  register_key: string;
  activate_key: string;
  register_body: string | null;
  activate_body: string | null;
  attempts: number;
  card_id: string | null;
  problem: string | null;
  settled_at: string | null;
}

const runOf = (r: RunRow): BoxRun => ({
  id: r.id,
  merchantId: r.merchant_id,
  locationId: r.location_id,
  locationName: r.location_name,
  currency: r.currency,
  amount: r.amount,
  payment: JSON.parse(r.payment) as Payment,
  file: r.file,
  cardsHash: r.cards_hash,
  startedAt: r.started_at,
  finishedAt: r.finished_at ?? undefined,
});

const cardOf = (r: CardRow): BoxCard => ({
  seq: r.seq,
  line: r.line,
  gan: r.gan,
  state: r.state,
  registerKey: r.register_key,
  activateKey: r.activate_key,
  register: r.register_body ? (JSON.parse(r.register_body) as CreateGiftCardRequest) : undefined,
  activate: r.activate_body ? (JSON.parse(r.activate_body) as CreateGiftCardActivityRequest) : undefined,
  attempts: r.attempts,
  cardId: r.card_id ?? undefined,
  problem: r.problem ?? undefined,
  settledAt: r.settled_at ?? undefined,
});

/** The journal's operations; each write is one SQLite transaction, on disk before it returns. */
export class GiftCardJournal {
  readonly #db: LocalDb;

  constructor(db: LocalDb) {
    this.#db = db;
  }

  /** Records a run and every card of it, each with its two keys, in one transaction. */
  startRun(run: NewRun, cards: readonly { line: number; gan: string }[], newKey: () => string): BoxRun {
    const insertRun = this.#db.prepare(
      `INSERT INTO runs (id, merchant_id, location_id, location_name, currency, amount, payment, file, cards_hash, started_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertCard = this.#db.prepare(
      "INSERT INTO cards (run_id, seq, line, gan, state, register_key, activate_key) VALUES (?, ?, ?, ?, 'planned', ?, ?)",
    );
    this.#db.transaction(() => {
      insertRun.run(
        run.id,
        run.merchantId,
        run.locationId,
        run.locationName,
        run.currency,
        run.amount,
        JSON.stringify(run.payment),
        run.file,
        run.cardsHash,
        run.startedAt,
      );
      cards.forEach((c, i) => {
        insertCard.run(run.id, i + 1, c.line, c.gan, newKey(), newKey());
      });
    })();
    return { ...run, finishedAt: undefined };
  }

  /** One run, or undefined. */
  run(id: string): BoxRun | undefined {
    const row = this.#db.prepare("SELECT * FROM runs WHERE id = ?").get(id) as RunRow | undefined;
    return row ? runOf(row) : undefined;
  }

  /** The seller's runs not finished yet, oldest first. */
  unfinished(merchantId: string): BoxRun[] {
    const rows = this.#db
      .prepare("SELECT * FROM runs WHERE merchant_id = ? AND finished_at IS NULL ORDER BY started_at, id")
      .all(merchantId) as RunRow[];
    return rows.map(runOf);
  }

  /** The seller's most recent runs, newest first. */
  recent(merchantId: string, limit: number): BoxRun[] {
    const rows = this.#db
      .prepare("SELECT * FROM runs WHERE merchant_id = ? ORDER BY started_at DESC, id DESC LIMIT ?")
      .all(merchantId, limit) as RunRow[];
    return rows.map(runOf);
  }

  /** Every card of a run, in file order. */
  cards(runId: string): BoxCard[] {
    const rows = this.#db.prepare("SELECT * FROM cards WHERE run_id = ? ORDER BY seq").all(runId) as CardRow[];
    return rows.map(cardOf);
  }

  /**
   * Records that a card's requests are about to go out, with their exact bodies: written before
   * they are sent, so a run killed meanwhile knows the service may have them.
   */
  markSent(
    runId: string,
    seq: number,
    requests: { register: CreateGiftCardRequest | undefined; activate: CreateGiftCardActivityRequest },
    at: string,
  ): void {
    this.#db
      .prepare(
        `UPDATE cards SET state = 'sent', attempts = attempts + 1, sent_at = ?,
           register_body = ?, activate_body = ? WHERE run_id = ? AND seq = ?`,
      )
      .run(
        at,
        requests.register ? JSON.stringify(requests.register) : null,
        JSON.stringify(requests.activate),
        runId,
        seq,
      );
  }

  /** Records how a card ended. */
  settle(
    runId: string,
    seq: number,
    outcome: {
      state: "activated" | "left-alone" | "refused";
      cardId?: string | undefined;
      problem?: string | undefined;
    },
    at: string,
  ): void {
    this.#db
      .prepare("UPDATE cards SET state = ?, card_id = ?, problem = ?, settled_at = ? WHERE run_id = ? AND seq = ?")
      .run(outcome.state, outcome.cardId ?? null, outcome.problem ?? null, at, runId, seq);
  }

  /** Marks a run finished: every card settled. */
  finish(runId: string, at: string): void {
    this.#db.prepare("UPDATE runs SET finished_at = ? WHERE id = ?").run(at, runId);
  }

  close(): void {
    this.#db.close();
  }
}

/** Opens (or makes) the gift card journal. */
export async function openGiftCardJournal(path: string): Promise<GiftCardJournal> {
  return new GiftCardJournal(await openLocalDb(path, { label: "the gift card journal", migrations: MIGRATIONS }));
}
