// Helpers for tests that drive the app with keys: render it, type, and wait for a frame.
import { render } from "ink-testing-library";
import { vi } from "vitest";
import type { AppStore } from "../state/index.js";
import { AppRoot } from "./App.js";

/** A rendered app with typing and waiting helpers. */
export interface Driven {
  frame(): string;
  /** Types keys; each string is one write (Ink needs Enter as its own write). */
  press(...keys: string[]): Promise<void>;
  /** Waits until the frame satisfies `test` (a string to contain or a predicate). */
  waitFor(test: string | RegExp | ((frame: string) => boolean), timeout?: number): Promise<string>;
  unmount(): void;
  stdout: ReturnType<typeof render>["stdout"];
}

/** Named keys as terminals send them. */
export const KEYS = {
  enter: "\r",
  escape: "\u001b",
  tab: "\t",
  up: "\u001b[A",
  down: "\u001b[B",
  backspace: "\u007f",
  ctrlC: "\u0003",
} as const;

/** Renders the app around a store (colour off, so frames are plain text). */
export function drive(store: AppStore, opts: { rows?: number; color?: boolean } = {}): Driven {
  const instance = render(<AppRoot store={store} color={opts.color ?? false} />);
  // ink-testing-library reports 100 columns and no rows; give it a height like a real terminal.
  Object.defineProperty(instance.stdout, "rows", { value: opts.rows ?? 30, configurable: true });
  instance.stdout.emit("resize");
  const frame = () => instance.lastFrame() ?? "";
  return {
    frame,
    stdout: instance.stdout,
    async press(...keys) {
      for (const k of keys) {
        instance.stdin.write(k);
        // Let React commit the key's effects before the next write.
        await new Promise((r) => setImmediate(r));
      }
    },
    async waitFor(test, timeout = 5000) {
      const ok = (f: string) =>
        typeof test === "string" ? f.includes(test) : test instanceof RegExp ? test.test(f) : test(f);
      await vi.waitFor(
        () => {
          if (!ok(frame())) throw new Error(`frame never matched ${String(test)}; last frame:\n${frame()}`);
        },
        { timeout, interval: 10 },
      );
      return frame();
    },
    unmount: () => instance.unmount(),
  };
}
