import { render } from "ink";
import { type Clock, createStore, deferredClient, type EnvLabel, type StoreClient } from "../state/index.js";
import { AppRoot } from "./App.js";

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
  storeLabel?: "DEMO" | "SANDBOX" | "PRODUCTION" | "LOCAL";
  /** The service's address when the app works on one over HTTP (absent for the demo store). */
  baseUrl?: string;
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
}

const ENTER_ALT = "\u001b[?1049h\u001b[H";
const LEAVE_ALT = "\u001b[?1049l";

/**
 * Runs the full-screen app in the terminal's alternate screen (so the user's scrollback
 * survives) and resolves when the user quits. SIGINT, SIGTERM and SIGHUP quit cleanly too.
 */
export async function runApp(options: RunAppOptions): Promise<void> {
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
    env: options.envLabel,
    readOnly: options.readOnly ?? false,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.notice ? { notice: options.notice } : {}),
  });
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
    setTimeout(() => {
      leave();
      process.exit(1);
    }, 2000).unref();
  };
  process.on("SIGINT", quit);
  process.on("SIGTERM", quit);
  process.on("SIGHUP", quit);
  // If the process dies some other way, still give the user their screen back.
  process.on("exit", leave);
  const onFirstFrame = () => {
    options.onFirstFrame?.();
    startClient();
  };
  const instance = render(<AppRoot store={store} color={color} onFirstFrame={onFirstFrame} />, {
    stdout,
    stdin,
    exitOnCtrlC: false,
    patchConsole: true,
  });
  try {
    await instance.waitUntilExit();
  } finally {
    instance.cleanup();
    process.off("SIGINT", quit);
    process.off("SIGTERM", quit);
    process.off("SIGHUP", quit);
    process.off("exit", leave);
    leave();
  }
}
