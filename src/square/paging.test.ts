import { describe, expect, it } from "vitest";
import { batchTokenFromLink, PageIterator } from "./paging.js";

describe("batchTokenFromLink", () => {
  it("reads the batch_token of the rel=next link, whatever the quoting", () => {
    expect(batchTokenFromLink("<https://h/v1/L/payments?batch_token=abc&order=ASC>;rel='next'")).toBe("abc");
    expect(batchTokenFromLink('<https://h/v1/L/payments?order=ASC&batch_token=x%2By>; rel="next"')).toBe("x+y");
    expect(batchTokenFromLink("<https://h/v1/L/orders?batch_token=t1>;rel=next")).toBe("t1");
  });

  it("picks the next link among several, in one header or many", () => {
    const prev = "<https://h/v1/L/refunds?batch_token=old>;rel='prev'";
    const next = "<https://h/v1/L/refunds?batch_token=new>;rel='next'";
    expect(batchTokenFromLink(`${prev}, ${next}`)).toBe("new");
    expect(batchTokenFromLink([prev, next])).toBe("new");
  });

  it("gives undefined when there is no next page", () => {
    expect(batchTokenFromLink(undefined)).toBeUndefined();
    expect(batchTokenFromLink("")).toBeUndefined();
    expect(batchTokenFromLink("<https://h/v1/L/refunds?batch_token=old>;rel='prev'")).toBeUndefined();
    expect(batchTokenFromLink("<https://h/v1/L/refunds?order=ASC>;rel='next'")).toBeUndefined();
  });
});

/** A fetcher over fixed pages keyed by cursor, recording what it was asked for. */
function fakePages(pages: Record<string, { items: number[]; next?: string }>) {
  const asked: (string | undefined)[] = [];
  const iterator = new PageIterator<{ items: number[] }, number>(
    async (cursor) => {
      asked.push(cursor);
      const page = pages[cursor ?? "first"];
      if (!page) throw new Error(`no page ${cursor}`);
      return { page: { items: page.items }, next: page.next };
    },
    (p) => p.items,
  );
  return { iterator, asked };
}

describe("PageIterator", () => {
  it("follows cursors to the end and stops collecting at max", async () => {
    const { iterator, asked } = fakePages({
      first: { items: [1, 2], next: "b" },
      b: { items: [3, 4], next: "c" },
      c: { items: [5] },
    });
    expect(await iterator.all()).toEqual([1, 2, 3, 4, 5]);
    expect(asked).toEqual([undefined, "b", "c"]);
    const again = fakePages({ first: { items: [1, 2], next: "b" }, b: { items: [3, 4], next: "c" } });
    expect(await again.iterator.all(3)).toEqual([1, 2, 3]);
    expect(again.asked).toEqual([undefined, "b"]);
  });

  it("stops when the service hands back a cursor it already gave", async () => {
    const { iterator, asked } = fakePages({ first: { items: [1], next: "a" }, a: { items: [2], next: "a" } });
    expect(await iterator.all()).toEqual([1, 2]);
    expect(asked).toEqual([undefined, "a"]);
  });

  it("is awaitable and catchable like a promise of the first page", async () => {
    const { iterator } = fakePages({ first: { items: [7], next: "x" } });
    expect(await iterator).toEqual({ items: [7] });
    const failing = fakePages({});
    const caught = await failing.iterator.catch((e: unknown) => (e as Error).message);
    expect(caught).toBe("no page undefined");
  });

  it("walks past empty pages, and fetches nothing more once a for-await loop is left", async () => {
    const { iterator, asked } = fakePages({
      first: { items: [], next: "b" },
      b: { items: [1, 2], next: "c" },
      c: { items: [], next: "d" },
      d: { items: [3] },
    });
    const seen: number[] = [];
    for await (const n of iterator) seen.push(n);
    expect(seen).toEqual([1, 2, 3]);
    expect(asked).toEqual([undefined, "b", "c", "d"]);

    const early = fakePages({ first: { items: [1, 2], next: "b" }, b: { items: [3] } });
    for await (const n of early.iterator) if (n === 1) break;
    expect(early.asked).toEqual([undefined]);
  });

  it("passes a failed page on to the loop", async () => {
    const { iterator } = fakePages({ first: { items: [1], next: "missing" } });
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const n of iterator) seen.push(n);
      })(),
    ).rejects.toThrow("no page missing");
    expect(seen).toEqual([1]);
  });
});
