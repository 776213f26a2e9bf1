import { randomBytes } from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const CODES = Array.from(ALPHABET, (c) => c.charCodeAt(0));

/**
 * An id of `length` characters, each `ALPHABET[pick()]`. Built from character codes in one step:
 * appending a character at a time makes a chain of 26 string pieces per id, garbage a seed of
 * tens of thousands of ids pays for in collections.
 */
function idOf(length: number, pick: () => number): string {
  const codes = new Array<number>(length);
  for (let i = 0; i < length; i++) codes[i] = CODES[pick()] ?? 65;
  return String.fromCharCode(...codes);
}

/** Makes object ids shaped like the service's (upper-case base-36, fixed length). */
export interface IdSource {
  next(length?: number): string;
}

/**
 * Random ids from the OS's generator, for objects created at run time. Bytes are drawn from a
 * pooled buffer: one system call per 4 KiB instead of one per id (a 100-change batch mints 200).
 */
export function randomIds(): IdSource {
  let pool = randomBytes(4096);
  let at = 0;
  // 252 is the largest multiple of 36 below 256: bytes above it are skipped, so every
  // character is equally likely.
  const nextByte = (): number => {
    for (;;) {
      if (at >= pool.length) {
        pool = randomBytes(4096);
        at = 0;
      }
      const b = pool[at++] ?? 0;
      if (b < 252) return b;
    }
  };
  const pick = () => nextByte() % ALPHABET.length;
  return { next: (length = 26) => idOf(length, pick) };
}

/** Ids from a seeded generator, for a demo store that is the same on every machine. */
export function seededIds(random: () => number): IdSource {
  const pick = () => Math.floor(random() * ALPHABET.length);
  return { next: (length = 26) => idOf(length, pick) };
}

/** Characters of a time-ordered id's time prefix: base-36 milliseconds reach 9 digits in 5188. */
const TIME_DIGITS = 9;

/**
 * An id of the same shape whose first characters are the moment `at` (base-36 milliseconds) and
 * the rest random, so ids minted later sort after earlier ones (as ULIDs do). For rows written in
 * bulk: a unique index on such ids takes each new one at its end, where the pages are already in
 * memory, instead of at a random leaf of a large index.
 */
export function timeOrderedId(at: Date, ids: IdSource, length = 26): string {
  const ms = Math.max(0, Math.floor(at.getTime()));
  const prefix = ms.toString(36).toUpperCase().padStart(TIME_DIGITS, "0").slice(-TIME_DIGITS);
  return prefix + ids.next(length - TIME_DIGITS);
}
