// The questions a count asks before it records a line, and what a commit leaves out — each rule
// a pure function, so the screen, the import and the tests read the same one.
import { formatQuantity, parseQuantity, type QuantityUnits } from "./quantity.js";

/** A count more than this many times the expected (when that is above zero) is far from it. */
export const FAR_FACTOR = 10;
/** A count more than this many units over the expected is far from it, whatever the expected. */
export const FAR_UNITS_OVER = 500;

const units = (q: string) => parseQuantity(q) ?? 0;
const ONE = units("1");

/**
 * Whether a count is far enough from the books to ask before keeping it: more than ten times
 * the expected quantity when that is above zero, or more than 500 units over it — a mistyped
 * quantity (5000 for 50), or a price scanned as a count.
 */
export function farFromExpected(counted: string, expected: string): boolean {
  const c = units(counted);
  const e = units(expected);
  return (e > 0 && c > FAR_FACTOR * e) || c - e > FAR_UNITS_OVER * ONE;
}

/** The question a far count asks: `Extension Cord 25 ft: 5000 counted, 50 expected — keep?`. */
export function farQuestion(name: string, counted: string, expected: string): string {
  return `${name}: ${counted} counted, ${expected} expected — keep?`;
}

/** What a bare quantity for an item already counted can mean: the totals either way. */
export interface AddOrReplace {
  /** The line's count if the quantity is added to it. */
  added: string;
  /** The line's count if the quantity replaces it. */
  replaced: string;
  /** `Claw Hammer: 3 counted so far. Add 3 (→ 6) or replace (→ 3)?` */
  question: string;
}

/** The question of a bare quantity typed for an item already counted. */
export function addOrReplace(name: string, current: string, typed: QuantityUnits): AddOrReplace {
  const added = formatQuantity(units(current) + typed);
  const replaced = formatQuantity(typed);
  const t = formatQuantity(typed);
  return {
    added,
    replaced,
    question: `${name}: ${current} counted so far. Add ${t} (→ ${added}) or replace (→ ${replaced})?`,
  };
}

/** What a commit does not send, for its confirmation. */
export interface LeftOut {
  /** Codes scanned or typed that matched no item, not resolved to one. */
  unknownCodes: number;
  /** Items of the count's scope nobody counted. */
  uncounted: number;
  /** What happens to those: left as they are, or set to zero. */
  uncountedChoice: "leave" | "zero";
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/**
 * The sentence of a commit's confirmation that names what it leaves out — unknown codes not
 * resolved, items of the scope not counted (left as they are) — or undefined when nothing is.
 * Uncounted items set to zero are not left out: the confirmation says that instead.
 */
export function leftOutText(l: LeftOut): string | undefined {
  const parts = [
    l.unknownCodes > 0 ? `${plural(l.unknownCodes, "unknown code", "unknown codes")} not resolved` : "",
    l.uncounted > 0 && l.uncountedChoice === "leave"
      ? `${plural(l.uncounted, "item", "items")} of the count not counted (left as they are)`
      : "",
  ].filter(Boolean);
  return parts.length ? `Left out: ${parts.join("; ")}.` : undefined;
}
