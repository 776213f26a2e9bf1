/**
 * An idempotency record keeps the request's body as it was sent (`request`), so that the same
 * bytes sent again are matched by a comparison of text: hashing a canonical copy of every keyed
 * body (keys sorted, then SHA-256) cost a batch of 100 inventory changes about 0.25 ms on each
 * write. A body sent again with other key order or white space is still the same request: it is
 * compared in canonical form, then, on that rare path only. Records made before keep their
 * `body_hash` of the canonical body, and `request` NULL.
 *
 * A rule whose answer is large may keep a note it writes the answer again from (`kept`), with
 * `response` empty: a batch of 100 inventory counts answers 58 kB, which stored with every batch
 * cost it about 0.15 ms.
 */
export const sql = `
ALTER TABLE idempotency ADD COLUMN request TEXT;
ALTER TABLE idempotency ADD COLUMN kept TEXT;
`;
