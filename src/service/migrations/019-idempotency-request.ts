/**
 * An idempotency record keeps the request's body as it was sent (`request`), so that the same
 * bytes sent again are matched by a comparison of text: hashing a canonical copy of every keyed
 * body (keys sorted, then SHA-256) cost a batch of 100 inventory changes about 0.25 ms on each
 * write. A body sent again with other key order or white space is still the same request: it is
 * compared in canonical form, then, on that rare path only. Records made before keep their
 * `body_hash` of the canonical body, and `request` NULL.
 */
export const sql = `
ALTER TABLE idempotency ADD COLUMN request TEXT;
`;
