import type { StoreClient } from "./types.js";

type Paged<T> = PromiseLike<T> &
  AsyncIterable<unknown> & { all(max?: number): Promise<unknown[]>; pages(): AsyncIterable<T> };

/** A list/search call whose client is not ready yet: the same shape, resolved on first use. */
function deferPage(make: () => Promise<{ it: Paged<unknown> }>): Paged<unknown> {
  // Boxed, because a promise of a thenable page call would resolve to its first page instead.
  let started: Promise<{ it: Paged<unknown> }> | undefined;
  const box = () => {
    started ??= make();
    return started;
  };
  return {
    // biome-ignore lint/suspicious/noThenProperty: mirrors the client's awaitable page calls.
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
 * service is still being built, and every call made meanwhile goes out once it is ready.
 */
export function deferredClient(ready: Promise<StoreClient>): StoreClient {
  const area = <K extends keyof StoreClient>(name: K, paged: readonly string[], plain: readonly string[]) => {
    const out: Record<string, unknown> = {};
    for (const m of paged) {
      out[m] = (...args: unknown[]) =>
        deferPage(async () => {
          const c = (await ready)[name] as unknown as Record<string, (...a: unknown[]) => Paged<unknown>>;
          const fn = c[m];
          if (!fn) throw new Error(`the client has no ${String(name)}.${m}`);
          return { it: fn(...args) };
        });
    }
    for (const m of plain) {
      out[m] = async (...args: unknown[]) => {
        const c = (await ready)[name] as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
        const fn = c[m];
        if (!fn) throw new Error(`the client has no ${String(name)}.${m}`);
        return fn(...args);
      };
    }
    return out;
  };
  return {
    labor: area(
      "labor",
      ["listBreakTypes", "searchShifts", "listTeamMemberWages", "listWorkweekConfigs"],
      ["createBreakType", "updateBreakType", "deleteBreakType", "createShift", "updateShift", "getShift"],
    ),
    team: area("team", ["searchTeamMembers"], []),
    locations: area("locations", [], ["listLocations"]),
    oauth: area("oauth", [], ["retrieveTokenStatus"]),
  } as unknown as StoreClient;
}
