/**
 * A number of things as the manager reads it: `plural(1, "shift")` is "1 shift",
 * `plural(1204, "shift")` is "1,204 shifts", `plural(2, "entry", "entries")` is "2 entries".
 * The app speaks English: one is singular, every other number (0 too) plural.
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

/**
 * A part of a whole as the manager reads it, the noun agreeing with the whole: `partOf(0, 1,
 * "line")` is "0 of 1 line", `partOf(2, 1204, "line")` is "2 of 1,204 lines".
 */
export function partOf(done: number, total: number, one: string, many = `${one}s`): string {
  return `${done.toLocaleString("en-US")} of ${plural(total, one, many)}`;
}
