// The requests of a count's commit in the stocktake journal: planned with their keys and bodies
// in one transaction, then each marked sent and settled, so a commit that stopped resumes from
// what the file says without sending anything twice.

import { plural } from "../domain/plural.js";
import type { PlannedBatch } from "../domain/stocktake.js";
import { isUnsettled, type RequestLog } from "./request-log.js";
import type { Statements } from "./statements.js";
import { type BatchRow, batchOf } from "./stocktake-journal-schema.js";
import { CountStateError, type JournalBatch, type RefusedLine } from "./stocktake-journal-types.js";

/** The commit requests of the counts in one journal. */
export class CommitRequests {
  readonly #s: Statements;
  readonly #requireOpen: (countId: string) => void;

  /** `requireOpen` refuses a count that is no longer open (its lines are fixed once planned). */
  constructor(statements: Statements, requireOpen: (countId: string) => void) {
    this.#s = statements;
    this.#requireOpen = requireOpen;
  }

  /**
   * Fixes the commit: stores its requests (keys and bodies never change afterwards) and moves the
   * count to committing, in one transaction — so a crash leaves either an open count or a full
   * plan, never half of one.
   */
  plan(countId: string, batches: readonly PlannedBatch[], plannedAt: string): void {
    this.#s.transaction(() => {
      this.#requireOpen(countId);
      this.#insert(countId, batches);
      this.#s.get("UPDATE counts SET status = 'committing', planned_at = ? WHERE id = ?").run(plannedAt, countId);
    });
  }

  #insert(countId: string, batches: readonly PlannedBatch[]): void {
    const insert = this.#s.get(
      "INSERT INTO batches (count_id, seq, idempotency_key, variation_ids, body, state) VALUES (?, ?, ?, ?, ?, 'planned')",
    );
    for (const b of batches) {
      insert.run(countId, b.seq, b.idempotencyKey, JSON.stringify(b.variationIds), JSON.stringify(b.body));
    }
  }

  /** The commit's requests, in order. */
  list(countId: string): JournalBatch[] {
    return (this.#s.get("SELECT * FROM batches WHERE count_id = ? ORDER BY seq").all(countId) as BatchRow[]).map(
      batchOf,
    );
  }

  /** Notes that a request is on its way: its outcome is unknown until it is settled. */
  markSent(countId: string, seq: number, at: string): void {
    this.#s
      .get(
        "UPDATE batches SET state = CASE WHEN state = 'planned' THEN 'sent' ELSE state END, attempts = attempts + 1, sent_at = ? WHERE count_id = ? AND seq = ?",
      )
      .run(at, countId, seq);
  }

  /** Notes that the service accepted a request, with the ids of the changes it recorded. */
  markAccepted(countId: string, seq: number, changeIds: readonly string[], at: string): void {
    this.#s
      .get(
        "UPDATE batches SET state = 'accepted', settled_at = ?, change_ids = ?, problem = NULL WHERE count_id = ? AND seq = ?",
      )
      .run(at, JSON.stringify(changeIds), countId, seq);
  }

  /**
   * Sets aside a request the service refused because of one line: the line is marked refused
   * with the service's words, and the rest of the request is formed again as `replacement` (a new
   * key: the refused request changed nothing, and its key stays bound to its body).
   */
  supersede(
    countId: string,
    seq: number,
    refused: RefusedLine,
    replacement: PlannedBatch | undefined,
    at: string,
  ): void {
    this.#s.transaction(() => {
      this.#s
        .get("UPDATE batches SET state = 'superseded', settled_at = ?, problem = ? WHERE count_id = ? AND seq = ?")
        .run(at, refused.problem, countId, seq);
      this.#s
        .get("UPDATE lines SET refused = ? WHERE count_id = ? AND variation_id = ?")
        .run(refused.problem, countId, refused.variationId);
      if (replacement) this.#insert(countId, [replacement]);
    });
  }

  /** The next free request position of a count. */
  nextSeq(countId: string): number {
    const row = this.#s.get("SELECT COALESCE(MAX(seq), -1) + 1 AS n FROM batches WHERE count_id = ?").get(countId);
    return (row as { n: number }).n;
  }

  /** Marks a count committed once every request is settled. */
  finish(countId: string, at: string): void {
    this.#s.transaction(() => {
      const pending = this.#s
        .get("SELECT COUNT(*) AS n FROM batches WHERE count_id = ? AND state IN ('planned', 'sent')")
        .get(countId) as { n: number };
      if (pending.n > 0)
        throw new CountStateError(
          `${plural(pending.n, "request")} of this count ${pending.n === 1 ? "is" : "are"} not settled yet.`,
        );
      this.#s
        .get("UPDATE counts SET status = 'committed', committed_at = ? WHERE id = ? AND status = 'committing'")
        .run(at, countId);
    });
  }

  /** One count's requests as a log to replay: the accepted answer is the ids of the changes recorded. */
  log(countId: string): RequestLog<JournalBatch, readonly string[]> {
    return {
      unsettled: () => this.list(countId).filter((b) => isUnsettled(b.state)),
      markSent: (b, at) => this.markSent(countId, b.seq, at),
      markAccepted: (b, changeIds, at) => this.markAccepted(countId, b.seq, changeIds, at),
    };
  }
}
