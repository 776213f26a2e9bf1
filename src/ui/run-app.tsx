import { type Instance, render } from "ink";
import type { OvertimeRules } from "../domain/overtime.js";
import type { PayPeriodRule } from "../domain/time.js";
import {
  type AccountContext,
  type AppStore,
  type Clock,
  CustomerIndexHandle,
  createStore,
  deferredClient,
  type EnvLabel,
  type ScreenKind,
  type StoreClient,
  type Timers,
} from "../state/index.js";
import { AppRoot } from "./App.js";
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON } from "./bracketed-paste.js";
import { type KeySource, KeyStream } from "./key-stream.js";
import { createKeyboard } from "./keyboard.js";
import type { ScreenEntry } from "./screens/screen-def.js";

/** Options of {@link renderApp}. */
export interface RenderAppOptions {
  store: AppStore;
  stdin: KeySource;
  stdout: NodeJS.WriteStream;
  color: boolean;
  onFirstFrame?: () => void;
  /** The screen registry; tests may pass their own. */
  screens?: readonly ScreenEntry[];
  /** Ink's debug mode writes every frame whole (tests read frames that way). */
  debug?: boolean;
  /** The clock and timer the key stream tells scans from typing by; tests pass a virtual one. */
  keyTimers?: Timers;
}

/**
 * Renders the app on a terminal: keys come through a {@link KeyStream}, which hands over a chunk
 * of keys (a fast typist, a paste, a barcode scanner) one key at a time.
 */
export function renderApp(options: RenderAppOptions): { instance: Instance; keys: KeyStream } {
  const keyboard = createKeyboard();
  const keys = new KeyStream(options.stdin, {
    textMode: () => keyboard.textFields.size > 0,
    intercept: (key) => keyboard.textControl?.(key) ?? false,
    bursts: () => keyboard.bursts.current?.() ?? "scan",
    // A barcode read whole goes to the shell, which hands it to the screen's onScan (before the
    // shell is up, a scan is dropped: its digits must not run as number keys).
    onScan: (code) => keyboard.scan.current?.(code) ?? true,
    ...(options.keyTimers ? { timers: options.keyTimers } : {}),
    held: () => keyboard.held.current?.() ?? false,
    onDropped: (count) =>
      options.store.getState().setStatus({
        kind: "rule",
        text: "A paste arrived with no text field open; it was ignored.",
        details: `${count.toLocaleString("en-US")} characters`,
      }),
  });
  keyboard.release.current = () => keys.release();
  const instance = render(
    <AppRoot
      store={options.store}
      color={options.color}
      keyboard={keyboard}
      {...(options.onFirstFrame ? { onFirstFrame: options.onFirstFrame } : {})}
      {...(options.screens ? { screens: options.screens } : {})}
    />,
    {
      stdout: options.stdout,
      stdin: keys as unknown as NodeJS.ReadStream,
      exitOnCtrlC: false,
      patchConsole: !options.debug,
      debug: options.debug ?? false,
      // A key's frame is drawn at once; Ink's default throttle (30 a second) could hold it 33 ms.
      maxFps: 120,
    },
  );
  return { instance, keys };
}

/** Options of {@link runApp}. */
export interface RunAppOptions {
  /**
   * The client, a promise of it, or a function that makes it. With a function, it is called
   * once the first frame is on screen (build the local demo service there: the frame does not
   * wait for it); meanwhile calls wait for the client.
   */
  client: StoreClient | Promise<StoreClient> | (() => Promise<StoreClient>);
  envLabel: EnvLabel;
  /** Which store the app works on, for the header: the demo store, or a service's environment. */
  storeLabel?: EnvLabel;
  /** The service's address, shown in the header when it is not a named environment's own. */
  baseUrl?: string;
  /** The location to open on (config `defaultLocationId`). */
  defaultLocationId?: string;
  /** Config `overtime` and `payPeriod`, for the review. */
  overtime?: OvertimeRules;
  payPeriod?: PayPeriodRule;
  readOnly?: boolean;
  /** Turns colour off; NO_COLOR in the environment does too. */
  noColor?: boolean;
  clock?: Clock;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  /** A standing warning the status bar keeps showing (e.g. no keychain). */
  notice?: string;
  /** Called once the first frame is on screen (benchmarks). */
  onFirstFrame?: () => void;
  /** The sign-in for the account screen (a promise while the demo store starts). */
  account?: AccountContext | Promise<AccountContext>;
  /** The screen to open on (the account screen when nobody is signed in). */
  startOn?: ScreenKind;
  /** The customer index file of the store worked on (a data-folder file named after the store). */
  customerIndexPath?: string;
  /** Which service the outbox files kept writes under (the same one next time gets them). */
  service?: string;
}

// The alternate screen, and bracketed paste (src/ui/bracketed-paste.ts) while the app runs.
const ENTER_ALT = `\u001b[?1049h\u001b[H${BRACKETED_PASTE_ON}`;
const LEAVE_ALT = `${BRACKETED_PASTE_OFF}\u001b[?1049l`;

/**
 * How the app ended: `hungUp` when the terminal went away (SIGHUP, or a write failed with EIO);
 * `kept`, the writes kept on this machine for the service, not sent yet (refused ones included).
 */
export interface AppEnd {
  hungUp: boolean;
  kept: number;
}

/** Held after a hang-up until {@link exitByHangUp}: a second SIGHUP then does nothing. */
const ignoreHangUp = () => {};

/**
 * Ends the process the way a hang-up does, once the caller has closed what it opened: by SIGHUP's
 * default action. Node's own exit would try to restore the terminal's mode, and on a terminal that
 * is gone that fails an assertion in Node 20 (nodejs/node#51519) and prints a native stack trace.
 */
export function exitByHangUp(): void {
  process.removeAllListeners("SIGHUP");
  process.kill(process.pid, "SIGHUP");
}

/**
 * Ends an app that did not finish quitting within its moment. After a hang-up it ends as a hang-up
 * does ({@link exitByHangUp}): `process.exit` would run the exit handlers, and one of them (the
 * cursor's restore, from Ink's cli-cursor) writes to stderr, which a closed window leaves in a log.
 */
export function giveUp(hungUp: boolean, how: { leave: () => void; exit: () => void; hangUp: () => void }): void {
  if (hungUp) {
    how.hangUp();
    return;
  }
  how.leave();
  how.exit();
}

/**
 * Runs the full-screen app in the terminal's alternate screen (so the user's scrollback
 * survives) and resolves when the user quits. SIGINT, SIGTERM and SIGHUP quit cleanly too.
 */
export async function runApp(options: RunAppOptions): Promise<AppEnd> {
  const stdout = options.stdout ?? process.stdout;
  const stdin = options.stdin ?? process.stdin;
  const color = !options.noColor && !(process.env.NO_COLOR ?? "");
  let startClient = () => {};
  const given = options.client;
  const client =
    typeof given === "function"
      ? deferredClient(
          new Promise<StoreClient>((ok, fail) => {
            startClient = () => given().then(ok, fail);
          }),
        )
      : given instanceof Promise
        ? deferredClient(given)
        : given;
  const store = createStore({
    client,
    env: options.storeLabel ?? options.envLabel,
    readOnly: options.readOnly ?? false,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.notice ? { notice: options.notice } : {}),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    ...(options.defaultLocationId ? { defaultLocationId: options.defaultLocationId } : {}),
    ...(options.overtime ? { overtime: options.overtime } : {}),
    ...(options.payPeriod ? { payPeriod: options.payPeriod } : {}),
    ...(options.service ? { service: options.service } : {}),
    ...(options.account ? { account: options.account } : {}),
    ...(options.customerIndexPath ? { customerIndex: new CustomerIndexHandle(options.customerIndexPath) } : {}),
  });
  if (options.startOn) store.getState().showScreen(options.startOn);
  const alt = Boolean(stdout.isTTY);
  if (alt) stdout.write(ENTER_ALT);
  let left = false;
  const leave = () => {
    if (!alt || left) return;
    left = true;
    try {
      stdout.write(LEAVE_ALT);
    } catch {
      // The terminal hung up; there is no screen to give back.
    }
  };
  const quit = () => {
    store.getState().quit();
    // If the app cannot finish (the terminal is gone), do not linger: leave within a moment.
    setTimeout(() => giveUp(hungUpAt, { leave, exit: () => process.exit(1), hangUp: exitByHangUp }), 2000).unref();
  };
  // A terminal that hangs up (its window closed, ssh dropped) fails the next write with EIO (or
  // EPIPE) before or instead of SIGHUP arriving: that is a quit too, with no screen to give back,
  // not a crash on an unhandled 'error' event.
  let hungUpAt = false;
  const hungUp = () => {
    hungUpAt = true;
    left = true;
    quit();
  };
  const onSighup = () => {
    hungUpAt = true;
    quit();
  };
  stdout.on("error", hungUp);
  stdin.on("error", hungUp);
  process.on("SIGINT", quit);
  process.on("SIGTERM", quit);
  process.on("SIGHUP", onSighup);
  // If the process dies some other way, still give the user their screen back.
  process.on("exit", leave);
  const onFirstFrame = () => {
    options.onFirstFrame?.();
    startClient();
  };
  const { instance } = renderApp({ store, stdin: stdin as unknown as KeySource, stdout, color, onFirstFrame });
  try {
    await instance.waitUntilExit();
  } finally {
    instance.cleanup();
    process.off("SIGINT", quit);
    process.off("SIGTERM", quit);
    process.off("SIGHUP", onSighup);
    process.off("exit", leave);
    if (hungUpAt) {
      // Nothing is written to a terminal that is gone; its late write errors are expected.
      left = true;
      // A second hang-up while the caller closes what it opened is not an exit with handlers
      // (signal-exit's, which writes the cursor back to stderr): exitByHangUp ends the process.
      process.on("SIGHUP", ignoreHangUp);
    } else {
      stdout.off("error", hungUp);
      stdin.off("error", hungUp);
    }
    leave();
  }
  return { hungUp: hungUpAt, kept: store.getState().outbox.entries.length };
}
