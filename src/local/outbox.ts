// The outbox: a SQLite file in the data folder holding the writes made while the service did not
// answer (a clock-in, a break, a customer's edit, a gift card load), each with its idempotency key,
// the time the manager acted, the version it was based on and who made it. Opened with
// `durability: "full"`: a write is fsync'd before the screen calls it kept, so a power cut right
// after does not lose it. Writes go out in the order made through the shared replay loop
// (state/replay.ts), this file being its RequestLog; a write is locked by the backroom sending it,
// so two backrooms on one machine never send the same write at once, and a lock left by a killed
// process is taken over.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  dependencyOf,
  isPending,
  type KeptAnswer,
  type KeptEntry,
  type KeptWrite,
  madeBy,
} from "../domain/kept-writes.js";
import { type LocalDb, LocalHandle, openLocalDb } from "./db.js";
import { entryOf, OUTBOX_MIGRATIONS, type WriteRow } from "./outbox-schema.js";
import type { LoggedRequest, RequestLog } from "./request-log.js";
import { Statements } from "./statements.js";

/** The outbox file in a data folder. */
export const outboxPath = (dataDir: string): string => join(dataDir, "outbox.db");

/** A write as it is kept. */
export interface NewKept {
  service: string;
  idempotencyKey: string;
  write: KeptWrite;
  /** What it does, in words. */
  label: string;
  baseVersion: number | undefined;
  actedAt: string;
  actor: string;
  locationId: string | undefined;
  /** `sent`: a try went out and was not answered (it may have reached the service). */
  state: "kept" | "sent";
}

/** A kept write changed before it is sent again. */
export type Revision = Pick<NewKept, "write" | "label" | "baseVersion" | "idempotencyKey">;

/** Who holds the locks this outbox takes: this process, one token per open outbox. */
export interface LockHolder {
  pid: number;
  token: string;
  /** Whether a process of this machine is still running (a lock of a dead one is free). */
  isAlive(pid: number): boolean;
  /** How long a lock holds without being renewed. */
  leaseMs: number;
}

/** Whether a process runs: signal 0 checks without sending anything. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A kept write as the replay loop reads it. */
export interface OutboxRequest extends LoggedRequest {
  entry: KeptEntry;
}

/** How many writes of a service are waiting. */
export interface OutboxCounts {
  /** Kept or sent, not yet answered. */
  pending: number;
  /** Refused by the service: in To resolve. */
  refused: number;
}

const OPEN_STATES = "('kept', 'sent', 'refused')";

/** The outbox's operations; every write is one transaction, fsync'd before it returns. */
export class Outbox {
  readonly path: string;
  readonly #s: Statements;
  readonly #db: LocalDb;
  readonly #lock: LockHolder;

  constructor(db: LocalDb, path: string, lock: LockHolder) {
    this.#db = db;
    this.#s = new Statements(db);
    this.path = path;
    this.#lock = lock;
  }

  close(): void {
    this.#db.close();
  }

  /** Keeps a write, after the unsettled writes of its chain; returns it as stored. */
  add(input: NewKept, at: string): KeptEntry {
    const seq = this.#db
      .transaction(() => {
        const dependsOn = dependencyOf(input.write, this.open(input.service));
        const info = this.#s
          .get(
            `INSERT INTO writes (service, idempotency_key, kind, write, label, depends_on, base_version, acted_at,
               actor, location_id, state, attempts, kept_at, sent_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            input.service,
            input.idempotencyKey,
            input.write.kind,
            JSON.stringify(input.write),
            input.label,
            dependsOn ?? null,
            input.baseVersion ?? null,
            input.actedAt,
            input.actor,
            input.locationId ?? null,
            input.state,
            input.state === "sent" ? 1 : 0,
            at,
            input.state === "sent" ? at : null,
          );
        return Number(info.lastInsertRowid);
      })
      .immediate();
    return this.get(seq) as KeptEntry;
  }

  /** One write, by its place. */
  get(seq: number): KeptEntry | undefined {
    const row = this.#s.get("SELECT * FROM writes WHERE seq = ?").get(seq) as WriteRow | undefined;
    return row ? entryOf(row) : undefined;
  }

  /** A service's writes not settled yet (kept, sent, or refused and waiting in To resolve), in order. */
  open(service: string): KeptEntry[] {
    const rows = this.#s
      .get(`SELECT * FROM writes WHERE service = ? AND state IN ${OPEN_STATES} ORDER BY seq`)
      .all(service) as WriteRow[];
    return rows.map(entryOf);
  }

  /**
   * The answers of a service's accepted writes before `seq`, newest first: the shift or profile a
   * later write changes is based on the newest copy of it an earlier write brought back.
   */
  answersBefore(service: string, seq: number): KeptEntry[] {
    const rows = this.#s
      .get("SELECT * FROM writes WHERE service = ? AND state = 'accepted' AND seq < ? ORDER BY seq DESC")
      .all(service, seq) as WriteRow[];
    return rows.map(entryOf);
  }

  /** Every service with writes not settled, and how many (for `backroom status`). */
  services(): { service: string; open: number }[] {
    return this.#s
      .get(`SELECT service, COUNT(*) AS open FROM writes WHERE state IN ${OPEN_STATES} GROUP BY service`)
      .all() as { service: string; open: number }[];
  }

  /** How many of a service's writes wait to be sent, and how many were refused. */
  counts(service: string): OutboxCounts {
    const row = this.#s
      .get(
        `SELECT SUM(state IN ('kept', 'sent')) AS pending, SUM(state = 'refused') AS refused
         FROM writes WHERE service = ?`,
      )
      .get(service) as { pending: number | null; refused: number | null };
    return { pending: row.pending ?? 0, refused: row.refused ?? 0 };
  }

  /**
   * Takes a write for this process: it must still wait to be sent, the write it depends on must be
   * settled, and no live backroom may hold it. One transaction, so two processes never both win.
   */
  claim(seq: number, now: Date): boolean {
    return this.#db
      .transaction(() => {
        const row = this.#s.get("SELECT * FROM writes WHERE seq = ?").get(seq) as WriteRow | undefined;
        if (!row || !isPending(row.state) || !this.#ready(row) || !this.#free(row, now)) return false;
        this.#s
          .get("UPDATE writes SET lock_token = ?, lock_pid = ?, lock_until = ? WHERE seq = ?")
          .run(this.#lock.token, this.#lock.pid, new Date(now.getTime() + this.#lock.leaseMs).toISOString(), seq);
        return true;
      })
      .immediate();
  }

  #ready(row: WriteRow): boolean {
    if (row.depends_on === null) return true;
    const dep = this.#s.get("SELECT state FROM writes WHERE seq = ?").get(row.depends_on) as
      | { state: string }
      | undefined;
    return dep === undefined || dep.state === "accepted" || dep.state === "discarded";
  }

  #free(row: WriteRow, now: Date): boolean {
    if (row.lock_token === null || row.lock_token === this.#lock.token) return true;
    if (row.lock_until !== null && Date.parse(row.lock_until) < now.getTime()) return true;
    return row.lock_pid !== null && row.lock_pid !== this.#lock.pid && !this.#lock.isAlive(row.lock_pid);
  }

  /** Lets go of a write this process holds. */
  release(seq: number): void {
    this.#s
      .get("UPDATE writes SET lock_token = NULL, lock_pid = NULL, lock_until = NULL WHERE seq = ? AND lock_token = ?")
      .run(seq, this.#lock.token);
  }

  /** Notes that a try is on its way: from now on its outcome is unknown until it is answered. */
  markSent(seq: number, at: string): void {
    this.#s
      .get(
        "UPDATE writes SET state = 'sent', attempts = attempts + 1, sent_at = ? WHERE seq = ? AND state IN ('kept', 'sent')",
      )
      .run(at, seq);
  }

  /** Notes that the service accepted the write, with what it answered. */
  markAccepted(seq: number, answer: KeptAnswer, at: string): void {
    this.#s
      .get(
        "UPDATE writes SET state = 'accepted', answer = ?, settled_at = ?, problem = NULL, details = NULL WHERE seq = ?",
      )
      .run(JSON.stringify(answer), at, seq);
  }

  /** Sets a write aside in To resolve with the service's refusal in words. */
  markRefused(seq: number, problem: string, details: string | undefined, at: string): void {
    this.#s
      .get("UPDATE writes SET state = 'refused', problem = ?, details = ?, settled_at = ? WHERE seq = ?")
      .run(problem, details ?? null, at, seq);
  }

  /**
   * Sends a write again, changed (another time, or over the object as it is now): back in line at
   * its place. `idempotencyKey` is a new key when the body changed for a write sent with a key
   * (the old key stays bound to the body the service refused).
   */
  revise(seq: number, change: Revision): void {
    this.#s
      .get(
        `UPDATE writes SET write = ?, label = ?, base_version = ?, idempotency_key = ?, state = 'kept',
           problem = NULL, details = NULL, settled_at = NULL WHERE seq = ? AND state IN ('refused', 'kept')`,
      )
      .run(JSON.stringify(change.write), change.label, change.baseVersion ?? null, change.idempotencyKey, seq);
  }

  /**
   * Discards a write that is not being sent, and every write that acts on what it would have made
   * (a break of a clock-in discarded). Returns the writes discarded; none if one is being sent.
   */
  discard(seq: number, at: string): number[] {
    return this.#db
      .transaction(() => {
        const gone = this.dependents(seq);
        for (const s of gone) {
          const row = this.#s.get("SELECT * FROM writes WHERE seq = ?").get(s) as WriteRow;
          if (row.lock_token !== null && !this.#free(row, new Date(at))) return [];
        }
        const mark = this.#s.get("UPDATE writes SET state = 'discarded', settled_at = ? WHERE seq = ?");
        for (const s of gone) mark.run(at, s);
        return gone;
      })
      .immediate();
  }

  /** A write and the open writes that act on what it makes, transitively, in order. */
  dependents(seq: number): number[] {
    const first = this.get(seq);
    if (!first || !(isPending(first.state) || first.state === "refused")) return [];
    const found = new Set([seq]);
    for (const e of this.open(first.service)) {
      const maker = madeBy(e.write);
      if (maker !== undefined && found.has(maker)) found.add(e.seq);
    }
    return [...found].sort((a, b) => a - b);
  }

  /** Forgets settled writes older than `before` (the outbox keeps a week of history). */
  prune(before: string): number {
    return this.#s
      .get(
        "DELETE FROM writes WHERE state IN ('accepted', 'discarded') AND settled_at < ? AND seq NOT IN (SELECT depends_on FROM writes WHERE depends_on IS NOT NULL AND state IN ('kept', 'sent', 'refused'))",
      )
      .run(before).changes;
  }

  /** A service's pending writes as a log for the replay loop. */
  log(service: string, now: () => Date): RequestLog<OutboxRequest, KeptAnswer> {
    const request = (entry: KeptEntry): OutboxRequest => ({
      seq: entry.seq,
      idempotencyKey: entry.idempotencyKey,
      state: entry.state === "sent" ? "sent" : "planned",
      attempts: entry.attempts,
      entry,
    });
    return {
      unsettled: () =>
        this.open(service)
          .filter((e) => isPending(e.state))
          .map(request),
      // Read again once claimed: another backroom may have revised it, or answers it depends on arrived.
      claim: (r) => {
        if (!this.claim(r.seq, now())) return false;
        const fresh = this.get(r.seq);
        if (fresh) r.entry = fresh;
        return fresh !== undefined;
      },
      release: (r) => this.release(r.seq),
      markSent: (r, at) => this.markSent(r.seq, at),
      markAccepted: (r, answer, at) => this.markAccepted(r.seq, answer, at),
    };
  }
}

/** This process as a lock holder. */
export function thisProcess(leaseMs = 120_000): LockHolder {
  return { pid: process.pid, token: randomUUID(), isAlive: processAlive, leaseMs };
}

/** Opens (or makes) an outbox file; `:memory:` for tests. */
export async function openOutbox(path: string, lock: LockHolder = thisProcess()): Promise<Outbox> {
  const db = await openLocalDb(path, { label: "the outbox", migrations: OUTBOX_MIGRATIONS, durability: "full" });
  return new Outbox(db, path, lock);
}

/** The outbox of the data folder, opened once on first use. */
export class OutboxHandle extends LocalHandle<Outbox> {
  constructor(path: string, lock?: LockHolder) {
    super(path, (p) => openOutbox(p, lock));
  }

  /** Whether the file is there (or open): without it, nothing was ever kept. */
  exists(): boolean {
    return this.opened() !== undefined || (this.path !== ":memory:" && existsSync(this.path));
  }
}
