/**
 * One copy of each value that many records repeat. A page of shifts parsed from JSON, or a
 * count's rows read from SQLite, holds its own copy of every repeated string (a member ID, a time
 * zone, a category, a currency, a quantity); thousands of records kept for a long review or an
 * open count share them instead. Values handed out are shared: callers never change them.
 */
export class SharedValues {
  readonly #texts = new Map<string, string>();
  readonly #objects = new Map<string, unknown>();

  /** The one copy of a string. */
  text<T extends string | undefined>(value: T): T {
    if (value === undefined) return value;
    const known = this.#texts.get(value);
    if (known !== undefined) return known as T;
    this.#texts.set(value, value);
    return value;
  }

  /** The one copy of a plain JSON value (a wage, an empty list), by its content. */
  json<T>(value: T): T {
    if (value === undefined || value === null) return value;
    const key = JSON.stringify(value);
    const known = this.#objects.get(key);
    if (known !== undefined) return known as T;
    this.#objects.set(key, value);
    return value;
  }
}
