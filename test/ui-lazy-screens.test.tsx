// Screens load on first use (src/ui/screens/registry.ts): keys typed while one loads wait, and then
// reach it in order, neither lost nor run by the shell.
import { afterEach, describe, expect, it } from "vitest";
import { BREAK_TYPES } from "../src/ui/screens/break-types/screen.js";
import type { LazyScreen } from "../src/ui/screens/screen-def.js";
import { TIMECLOCK } from "../src/ui/screens/timeclock/screen.js";
import { type DrivenApp, startApp } from "./helpers/app.js";

let app: DrivenApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe("a screen loaded on first use", () => {
  it("keys typed with the screen's key, in one read, reach the screen once it is in", async () => {
    app = await startApp({ columns: 80, rows: 24 });
    await app.waitFor("Main Street");
    expect(app.store.getState().hasSlice("payouts")).toBe(false);
    // A fast typist: the screen's key, then its find key and an amount, before the screen has loaded.
    await app.press("7/915");
    await app.waitForStore((s) => s.screen.kind === "payouts" && s.field.payouts === "find");
    const frame = await app.waitFor("915");
    expect(frame).toContain("amount or reference");
    // `/`, `9`, `1`, `5` were not the shell's: no other screen was shown, nothing was refused.
    expect(app.store.getState().screen.kind).toBe("payouts");
    expect(app.store.getState().hasSlice("payouts")).toBe(true);
  });

  it("a screen's state is added to the store when it is first shown, and no other screen's", async () => {
    app = await startApp({ columns: 80, rows: 24 });
    await app.waitFor("Main Street");
    await app.press("2");
    await app.waitForStore((s) => s.hasSlice("review") && s.screen.kind === "review");
    await app.waitFor("Review");
    expect(app.store.getState().hasSlice("customers")).toBe(false);
  });

  it("one that cannot be loaded says so and lets the keys go; r tries again", async () => {
    let tries = 0;
    const flaky: LazyScreen = {
      kind: "break-types",
      title: "Break types",
      key: "3",
      slices: [],
      load: async () => {
        tries += 1;
        if (tries === 1) throw new Error("Cannot find module chunks/break-types.mjs");
        return BREAK_TYPES;
      },
    };
    app = await startApp({ columns: 80, rows: 24, screens: [TIMECLOCK, flaky] });
    await app.waitFor("Main Street");
    await app.press("3");
    const failed = await app.waitFor("could not be opened");
    expect(failed).toContain("The Break types screen could not be opened; r tries again.");
    expect(failed).toContain("Cannot find module");
    await app.press("r");
    await app.waitFor("3 of 3 (the limit)");
    expect(tries).toBe(2);
    // The keys were never held for good: the time clock is a key away.
    await app.press("1");
    await app.waitFor("Who is here");
  });
});
