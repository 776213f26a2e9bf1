// Hostile terminal input: the app stays up, keeps what was typed, and says what it can.
import { afterEach, describe, expect, it } from "vitest";
import { type DrivenApp, KEYS, startApp } from "./helpers/app.js";

let app: DrivenApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function openFilter(a: DrivenApp) {
  await a.waitFor(/› \S/);
  await a.press("/");
  await a.waitFor("esc again clears");
}

describe("hostile terminal input", () => {
  it("a pasted escape sequence and control characters do not reach the screen or the text", async () => {
    app = await startApp();
    await openFilter(app);
    // A paste (bracketed, as the terminal sends one) with a colour sequence, a bell, a
    // clear-screen and a tab in it: the tab is a space, the rest is dropped.
    await app.press("\u001b[200~Ai\u001b[31msha\u0007\u001b[2J\tK\u001b[201~");
    await app.waitFor('filter "Aisha K"');
    expect(app.frame()).not.toContain("\u0007");
    // The same keys in one read without the brackets (a terminal that does not bracket pastes):
    // the sequences and the bell are dropped there too.
    await app.press("\u0015", "Ai\u001b[31msha\u0007\u001b[2JK");
    await app.waitFor('filter "AishaK"');
    const filter = app.store.getState().timeclock.filter;
    expect([...filter].filter((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)).toEqual([]);
    expect(app.frame()).not.toContain("\u0007");
    await app.press(KEYS.escape);
    await app.waitFor((f) => !f.includes("esc again clears"));
  });

  it("a 100 KB paste into a field is cut to the field's length, and the app keeps working", async () => {
    app = await startApp();
    await openFilter(app);
    await app.press("x".repeat(100_000));
    await app.waitFor(() => app?.store.getState().timeclock.filter.length === 1000);
    await app.press(KEYS.escape, "2");
    await app.waitFor("Workday");
  });

  it("a paste with no field open is ignored, with a message, and does not act as commands", async () => {
    app = await startApp();
    await app.waitFor(/› \S/);
    await app.press("z".repeat(100_000));
    await app.waitFor("A paste arrived with no text field open; it was ignored.");
    // A paste holding a q does not quit.
    await app.press("paste with a q and an x in it");
    expect(app.store.getState().exited).toBe(false);
    await app.press("2");
    await app.waitFor("Workday");
  });

  it("bytes that are not UTF-8 become replacement characters, not a crash", async () => {
    app = await startApp();
    await openFilter(app);
    await app.press(Buffer.from([0xff, 0xfe, 0x41, 0xc3]).toString("latin1"));
    await app.press(KEYS.enter);
    await app.waitFor(/filter "/);
    await app.press("2");
    await app.waitFor("Workday");
  });

  it("a 20×5 terminal says it is too small; growing it back during a form keeps what was typed", async () => {
    app = await startApp();
    await app.waitFor(/› \S/);
    await app.press("2", "d");
    await app.waitFor("Workdays to review");
    await app.press("\u0015", "2026-01-0");
    app.stdout.resize(20, 5);
    await app.waitFor("Too small: 20×5");
    app.stdout.resize(100, 30);
    await app.waitFor("Workdays to review");
    expect(app.frame()).toContain("From: 2026-01-0");
  });
});
