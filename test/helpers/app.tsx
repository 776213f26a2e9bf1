// Drives the whole app against the in-process local service: render, type keys, wait for frames.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { vi } from "vitest";
import { CustomerIndexHandle } from "../../src/local/customer-index.js";
import { OutboxHandle } from "../../src/local/outbox.js";
import type { ServiceOptions } from "../../src/service/index.js";
import type { SquareClient } from "../../src/square/client.js";
import { createClient } from "../../src/square/client.js";
import { type CreateStoreOptions, createStore, type LoadedStore } from "../../src/state/index.js";
import { renderApp } from "../../src/ui/run-app.js";
import type { ScreenEntry } from "../../src/ui/screens/screen-def.js";
import { type NetProxy, startProxy } from "./proxy.js";
import { startService, type TestService } from "./service.js";
import { createFullStore } from "./store.js";
import { FakeStdin, FakeStdout } from "./terminal.js";
import { VirtualTimers } from "./virtual-timers.js";

export { FakeStdin, FakeStdout };

/** The pause after a read that `press` stands for: a person's next key, well past a scanner's gap. */
export const PERSON_GAP_MS = 200;

/** Named keys as terminals send them. */
export const KEYS = {
  enter: "\r",
  escape: "\u001b",
  tab: "\t",
  shiftTab: "\u001b[Z",
  up: "\u001b[A",
  down: "\u001b[B",
  right: "\u001b[C",
  left: "\u001b[D",
  pageDown: "\u001b[6~",
  backspace: "\u007f",
  ctrlC: "\u0003",
} as const;

/** A rendered app on a local service, with typing and waiting helpers. */
export interface DrivenApp {
  /**
   * The app's store, read as loaded: a test reads a screen's slice after showing the screen (a read
   * before would be undefined at run time, and the test fails there).
   */
  store: LoadedStore;
  service: TestService;
  client: SquareClient;
  stdout: FakeStdout;
  /** With `proxy: true`: the switchable proxy the app's client talks through. */
  proxy: NetProxy | undefined;
  frame(): string;
  /**
   * Types keys: each string is one read of the terminal, as a fast typist or a scanner sends it,
   * and a person's pause after each (the key clock moves {@link PERSON_GAP_MS} on), then waits
   * until every key has been handed over.
   */
  press(...chunks: string[]): Promise<void>;
  /**
   * Writes each chunk as its own read, `gapMs` apart on the key clock (a barcode scanner's pace is
   * 2 ms, a typist's 100 ms or more), without waiting for the app in between; then a person's
   * pause, and waits until every key has been handed over.
   */
  pressPaced(chunks: readonly string[], gapMs: number): Promise<void>;
  /** The virtual clock the key stream tells scans from typing by: it moves only when a test presses. */
  keyClock: VirtualTimers;
  /** Waits until the frame satisfies `test` (a string to contain, a pattern, or a predicate). */
  waitFor(test: string | RegExp | ((frame: string) => boolean), timeout?: number): Promise<string>;
  /** Waits until the store satisfies `test`. */
  waitForStore(test: (s: ReturnType<LoadedStore["getState"]>) => boolean, timeout?: number): Promise<void>;
  close(): Promise<void>;
}

/** Options of {@link startApp}. */
export interface StartAppOptions {
  columns?: number;
  rows?: number;
  service?: ServiceOptions;
  /** An already running service to share (then `close` leaves it running). */
  shared?: TestService;
  store?: Partial<Omit<CreateStoreOptions, "client">>;
  screens?: readonly ScreenEntry[];
  color?: boolean;
  /**
   * Puts a switchable proxy between the app and the service (to take the service away); an
   * existing proxy is shared as it stands (a second app on the same network, or a restart).
   */
  proxy?: boolean | NetProxy;
  /** The app talks to the service through this address instead (a fault proxy in front of it). */
  via?: string;
  /** The app signs in with this token rather than the service's own (one with fewer scopes). */
  accessToken?: string;
  /** The app's client instead of the service's own (one whose token provider is a session). */
  client?: SquareClient;
}

/** Starts a local service (unless shared), a store on its client, and the app on a fake terminal. */
export async function startApp(opts: StartAppOptions = {}): Promise<DrivenApp> {
  const service = opts.shared ?? (await startService(opts.service));
  const given = typeof opts.proxy === "object" ? opts.proxy : undefined;
  const proxy = given ?? (opts.proxy ? await startProxy(service.url) : undefined);
  const front = proxy?.url ?? opts.via;
  const token = opts.accessToken ?? service.service.accessToken;
  const client =
    front || opts.accessToken
      ? createClient({ baseUrl: front ?? service.url, accessToken: token, maxRetries: 0 })
      : (opts.client ?? service.client);
  // A data folder of its own (the stocktake journal is a file there; a shared one would mix the
  // schemas of every branch's tests), a customer index in memory, filled when the screen opens, and
  // an outbox in memory unless the test passes a file (kept writes never leak between tests).
  const ownDir = opts.store?.dataDir ? undefined : mkdtempSync(join(tmpdir(), "backroom-app-"));
  const storeOptions: CreateStoreOptions = {
    client,
    dataDir: ownDir ?? "",
    customerIndex: new CustomerIndexHandle(":memory:"),
    outbox: new OutboxHandle(":memory:"),
    ...opts.store,
  };
  // A registry of the test's own holds its screens loaded: their slices go in at once (the app
  // adds a lazy screen's slices when it first shows it).
  // Read as loaded (see DrivenApp.store): the tests show a screen before they read its slice.
  const store = (opts.screens ? await createFullStore(storeOptions) : createStore(storeOptions)) as LoadedStore;
  const stdout = new FakeStdout(opts.columns ?? 100, opts.rows ?? 30);
  const stdin = new FakeStdin();
  const keyClock = new VirtualTimers();
  const { instance, keys } = renderApp({
    keyTimers: keyClock,
    store,
    stdin,
    stdout: stdout as unknown as NodeJS.WriteStream,
    color: opts.color ?? false,
    debug: true,
    ...(opts.screens ? { screens: opts.screens } : {}),
  });
  const frame = () => stdout.last;
  // The key stream hands keys over one per settled render: wait until it has let go of all.
  const handedOver = () =>
    vi.waitFor(
      () => {
        if (!keys.idle()) throw new Error("keys still being handed over");
      },
      { timeout: 10_000, interval: 2 },
    );
  const waitFor: DrivenApp["waitFor"] = async (test, timeout = 8000) => {
    const ok = (f: string) =>
      typeof test === "string" ? f.includes(test) : test instanceof RegExp ? test.test(f) : test(f);
    await vi.waitFor(
      () => {
        if (!ok(frame())) throw new Error(`the frame never matched ${String(test)}; last frame:\n${frame()}`);
      },
      { timeout, interval: 10 },
    );
    return frame();
  };
  return {
    store,
    service,
    client: service.client,
    stdout,
    proxy,
    frame,
    keyClock,
    async press(...chunks) {
      for (const chunk of chunks) {
        stdin.write(chunk);
        keyClock.advance(PERSON_GAP_MS);
        await handedOver();
      }
    },
    async pressPaced(chunks, gapMs) {
      for (const [i, chunk] of chunks.entries()) {
        if (i > 0) keyClock.advance(gapMs);
        stdin.write(chunk);
      }
      keyClock.advance(PERSON_GAP_MS);
      await handedOver();
    },
    waitFor,
    async waitForStore(test, timeout = 8000) {
      await vi.waitFor(
        () => {
          if (!test(store.getState())) throw new Error("the store never reached the state");
        },
        { timeout, interval: 10 },
      );
    },
    async close() {
      instance.unmount();
      instance.cleanup();
      // A client the test passed in is the test's to close.
      if (client !== service.client && client !== opts.client) await client.close();
      // A shared proxy belongs to the test that made it.
      if (proxy && !given) await proxy.down();
      if (!opts.shared) await service.close();
      if (ownDir) rmSync(ownDir, { recursive: true, force: true });
    },
  };
}

/** An app whose service can be taken away, on virtual timers (the app's retries) and a clock the test moves. */
export interface AppBehindProxy {
  svc: TestService;
  proxy: NetProxy;
  timers: VirtualTimers;
  app: DrivenApp;
  close(): Promise<void>;
}

/**
 * Starts a local service, a proxy in front of it (switched off first when `down`) and the app at
 * 80×24 through it, on virtual timers and the clock `now`.
 */
export async function startAppBehindProxy(opts: { down: boolean; now: () => Date }): Promise<AppBehindProxy> {
  const svc = await startService();
  const proxy = await startProxy(svc.url);
  if (opts.down) await proxy.down();
  const timers = new VirtualTimers();
  const app = await startApp({
    shared: svc,
    proxy,
    columns: 80,
    rows: 24,
    store: { timers, clock: { now: opts.now } },
  });
  return {
    svc,
    proxy,
    timers,
    app,
    async close() {
      await app.close();
      await proxy.down().catch(() => {});
      await svc.close();
    },
  };
}
