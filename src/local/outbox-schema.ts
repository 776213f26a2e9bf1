// The outbox file's schema and how its rows read back. One table: a write per row, in the order
// made, with its state, its lock (which backroom of this machine is sending it) and its answer.
import type { KeptAnswer, KeptEntry, KeptState, KeptWrite } from "../domain/kept-writes.js";
import type { Migration } from "./db.js";

/** The outbox's numbered migrations. */
export const OUTBOX_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "kept writes",
    up(db) {
      db.exec(`
        CREATE TABLE writes (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          service TEXT NOT NULL,
          idempotency_key TEXT NOT NULL UNIQUE,
          kind TEXT NOT NULL,
          write TEXT NOT NULL,
          label TEXT NOT NULL,
          depends_on INTEGER REFERENCES writes (seq),
          base_version INTEGER,
          acted_at TEXT NOT NULL,
          actor TEXT NOT NULL,
          location_id TEXT,
          state TEXT NOT NULL CHECK (state IN ('kept', 'sent', 'accepted', 'refused', 'discarded')),
          attempts INTEGER NOT NULL DEFAULT 0,
          kept_at TEXT NOT NULL,
          sent_at TEXT,
          settled_at TEXT,
          answer TEXT,
          problem TEXT,
          details TEXT,
          lock_token TEXT,
          lock_pid INTEGER,
          lock_until TEXT
        );
        CREATE INDEX writes_open ON writes (service, state, seq);
      `);
    },
  },
];

/** A row of `writes` as SQLite returns it. */
export interface WriteRow {
  seq: number;
  service: string;
  idempotency_key: string;
  kind: string;
  write: string;
  label: string;
  depends_on: number | null;
  base_version: number | null;
  acted_at: string;
  actor: string;
  location_id: string | null;
  state: KeptState;
  attempts: number;
  kept_at: string;
  sent_at: string | null;
  settled_at: string | null;
  answer: string | null;
  problem: string | null;
  details: string | null;
  lock_token: string | null;
  lock_pid: number | null;
  lock_until: string | null;
}

/** A row as the entry the rest of the app reads. */
export function entryOf(row: WriteRow): KeptEntry {
  return {
    seq: row.seq,
    service: row.service,
    idempotencyKey: row.idempotency_key,
    write: JSON.parse(row.write) as KeptWrite,
    label: row.label,
    dependsOn: row.depends_on ?? undefined,
    baseVersion: row.base_version ?? undefined,
    actedAt: row.acted_at,
    actor: row.actor,
    locationId: row.location_id ?? undefined,
    state: row.state,
    attempts: row.attempts,
    answer: row.answer ? (JSON.parse(row.answer) as KeptAnswer) : undefined,
    problem: row.problem ?? undefined,
    details: row.details ?? undefined,
  };
}
