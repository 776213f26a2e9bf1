/** Fetches one page; `cursor` is undefined for the first page. */
export type PageFetcher<TPage> = (cursor: string | undefined) => Promise<{ page: TPage; next: string | undefined }>;

/**
 * A list or search call. Awaiting it gives the first page, exactly as the service returned it;
 * iterating it with `for await` gives every record of every page; `pages()` gives the pages.
 * Each further page re-sends the original query with only the cursor changed. Nothing is sent
 * until it is awaited or iterated.
 */
export class PageIterator<TPage, TItem> implements PromiseLike<TPage>, AsyncIterable<TItem> {
  readonly #fetch: PageFetcher<TPage>;
  readonly #items: (page: TPage) => readonly TItem[];
  #first: Promise<{ page: TPage; next: string | undefined }> | undefined;

  constructor(fetch: PageFetcher<TPage>, items: (page: TPage) => readonly TItem[]) {
    this.#fetch = fetch;
    this.#items = items;
  }

  #firstPage(): Promise<{ page: TPage; next: string | undefined }> {
    this.#first ??= this.#fetch(undefined);
    return this.#first;
  }

  // biome-ignore lint/suspicious/noThenProperty: a page call is awaitable by design, like a promise.
  then<R1 = TPage, R2 = never>(
    onFulfilled?: ((page: TPage) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#firstPage()
      .then((r) => r.page)
      .then(onFulfilled, onRejected);
  }

  /** Like `Promise.catch`: the first page, or what `onRejected` makes of its failure. */
  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<TPage | R> {
    return this.then(undefined, onRejected);
  }

  /** Every page, in order, until the service gives no further cursor. */
  async *pages(): AsyncGenerator<TPage, void, undefined> {
    let result = await this.#firstPage();
    const seen = new Set<string>();
    for (;;) {
      yield result.page;
      const next = result.next;
      // A cursor seen twice would loop for ever; the service never does that on purpose.
      if (!next || seen.has(next)) return;
      seen.add(next);
      result = await this.#fetch(next);
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<TItem, void, undefined> {
    for await (const page of this.pages()) yield* this.#items(page);
  }

  /** Every record of every page, collected; stops early after `max` records when given. */
  async all(max = Number.POSITIVE_INFINITY): Promise<TItem[]> {
    const out: TItem[] = [];
    for await (const item of this) {
      if (out.length >= max) break;
      out.push(item);
    }
    return out;
  }
}

/**
 * Reads the next page's `batch_token` from a V1 `Link` header, e.g.
 * `<https://host/v1/me/payments?batch_token=abc&order=ASC>;rel='next'`.
 */
export function batchTokenFromLink(link: string | string[] | undefined): string | undefined {
  const value = Array.isArray(link) ? link.join(",") : link;
  if (!value) return undefined;
  for (const part of value.split(",")) {
    const m = /<([^>]+)>\s*;\s*rel\s*=\s*['"]?next['"]?/i.exec(part);
    if (!m?.[1]) continue;
    const query = m[1].includes("?") ? m[1].slice(m[1].indexOf("?") + 1) : "";
    const token = new URLSearchParams(query).get("batch_token");
    if (token) return token;
  }
  return undefined;
}
