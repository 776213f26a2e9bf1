// A cache for what Ink works out per text: the styled cells of a line, widths, measures. Ink keeps
// these in Maps that are emptied every frame or never; the bundle gives it these instead
// (scripts/bundle-options.mjs), which keep what recent frames used and forget the rest.

/**
 * A Map-like cache that holds at most two generations of `limit` entries. Entries go into the
 * current generation; when it is full it becomes the previous one and the one before is dropped.
 * A hit in the previous generation moves the entry back into the current one, so what every frame
 * uses stays, what scrolled away goes, and no frame starts from an empty cache.
 */
export class RecentMap<K, V> {
  readonly #limit: number;
  #current = new Map<K, V>();
  #previous = new Map<K, V>();

  constructor(limit: number) {
    if (!(limit >= 1)) throw new RangeError(`a RecentMap holds at least 1 entry, not ${limit}`);
    this.#limit = limit;
  }

  /** Entries held now, in both generations (at most twice the limit). */
  get size(): number {
    return this.#current.size + this.#previous.size;
  }

  get(key: K): V | undefined {
    const value = this.#current.get(key);
    if (value !== undefined) return value;
    const older = this.#previous.get(key);
    if (older !== undefined) {
      this.#previous.delete(key);
      this.set(key, older);
    }
    return older;
  }

  has(key: K): boolean {
    return this.#current.has(key) || this.#previous.has(key);
  }

  set(key: K, value: V): this {
    this.#previous.delete(key);
    if (!this.#current.has(key) && this.#current.size >= this.#limit) {
      this.#previous = this.#current;
      this.#current = new Map();
    }
    this.#current.set(key, value);
    return this;
  }

  clear(): void {
    this.#current.clear();
    this.#previous.clear();
  }
}
