import { randomBytes } from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** Makes object ids shaped like the service's (upper-case base-36, fixed length). */
export interface IdSource {
  next(length?: number): string;
}

/** Random ids from the OS's generator, for objects created at run time. */
export function randomIds(): IdSource {
  return {
    next(length = 26) {
      const bytes = randomBytes(length);
      let out = "";
      for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
      return out;
    },
  };
}

/** Ids from a seeded generator, for a demo store that is the same on every machine. */
export function seededIds(random: () => number): IdSource {
  return {
    next(length = 26) {
      let out = "";
      for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(random() * ALPHABET.length)];
      return out;
    },
  };
}
