import type { StoreClient } from "./types.js";

type Paged = PromiseLike<unknown> &
  AsyncIterable<unknown> & { all(max?: number): Promise<unknown[]>; pages(): AsyncIterable<unknown> };

/**
 * A call whose client is not ready yet, with the shapes of both kinds of client call: awaitable
 * (a plain call, or a list call's first page), iterable, `.all()` and `.pages()` (list calls).
 */
function deferCall(make: () => Promise<{ it: Paged }>): Paged {
  // Boxed, because a promise of a thenable page call would resolve to its first page instead.
  let started: Promise<{ it: Paged }> | undefined;
  const box = () => {
    started ??= make();
    return started;
  };
  return {
    // biome-ignore lint/suspicious/noThenProperty: mirrors the client's awaitable calls.
    then: (ok, fail) =>
      box()
        .then((b) => new Promise((res, rej) => b.it.then(res, rej)))
        .then(ok, fail),
    async *[Symbol.asyncIterator]() {
      yield* (await box()).it;
    },
    all: async (max) => (await box()).it.all(max),
    async *pages() {
      yield* (await box()).it.pages();
    },
  };
}

/**
 * A client that waits for the real one: the app can draw its first frame while the local
 * service is still being built, and every call made meanwhile goes out once it is ready. Any
 * area and method of the real client works, so a new screen's calls need no change here.
 */
export function deferredClient(ready: Promise<StoreClient>): StoreClient {
  const areas = new Map<string, unknown>();
  const area = (name: string) =>
    new Proxy(
      {},
      {
        get: (_target, method) =>
          typeof method !== "string"
            ? undefined
            : (...args: unknown[]) =>
                deferCall(async () => {
                  const real = (await ready) as unknown as Record<string, Record<string, unknown> | undefined>;
                  const fn = real[name]?.[method];
                  if (typeof fn !== "function") throw new Error(`the client has no ${name}.${method}`);
                  return { it: fn.apply(real[name], args) as Paged };
                }),
      },
    );
  return new Proxy({} as StoreClient, {
    get: (_target, name) => {
      if (typeof name !== "string" || name === "then") return undefined;
      if (!areas.has(name)) areas.set(name, area(name));
      return areas.get(name);
    },
  });
}
