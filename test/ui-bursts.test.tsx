// Keys that arrive faster than a person types — `tmux send-keys "2026-11-20" Enter`, a password
// manager's auto-type, a paste — are typed text wherever a screen takes no scans, and are never
// lost (the rule in src/ui/focus.ts). Each read below is one `press`: one read of the terminal.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type DrivenApp, KEYS, startApp } from "./helpers/app.js";
import { startService, type TestService } from "./helpers/service.js";

let service: TestService;
let app: DrivenApp | undefined;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A bracketed paste, as a terminal sends one in the mode the app turns on. */
const paste = (text: string) => `\u001b[200~${text}\u001b[201~`;

async function open(screen: string, loaded: (a: DrivenApp) => Promise<unknown>): Promise<DrivenApp> {
  const a = await startApp({ shared: service, columns: 80, rows: 24 });
  app = a;
  await a.waitFor("1 Time clock");
  if (screen === "webhooks") {
    await a.press("0");
    await a.waitForStore((s) => s.screen.kind === "account");
    await a.press(KEYS.tab);
  } else await a.press(screen);
  await loaded(a);
  return a;
}

describe("a burst in a form of a screen that takes no scans", () => {
  it("fills the payouts range, tab moving between its fields, and Enter applies it — all one read", async () => {
    const a = await open("7", (x) => x.waitFor("Paid ", 15_000));
    await a.press("d");
    await a.waitFor("Payouts created on which days?");
    // ctrl+u, a date, tab, ctrl+u, a date and Enter: what `tmux send-keys` writes in one go.
    await a.press(`\u00152020-11-01${KEYS.tab}\u00152020-12-31${KEYS.enter}`);
    await a.waitFor("No payouts created 2020-11-01 → 2020-12-31.");
    expect(a.frame()).not.toContain("does not take scans");
  });

  it("fills the webhooks form: the tab after the name is a tab, not a space in the name", async () => {
    const a = await open("webhooks", (x) => x.waitFor(/Webhooks · \d+ subscriptions?/));
    await a.press("n");
    await a.waitFor("New webhook subscription");
    await a.press(`Till${KEYS.tab}http://127.0.0.1:9/hook${KEYS.enter}`);
    await a.waitFor("[ ] inventory.count.updated");
    await a.press(" ", KEYS.enter);
    const frame = await a.waitFor(/Saved "Till": 1 event type to/);
    expect(frame).toMatch(/› Till +yes +http:\/\/127\.0\.0\.1:9\/hook/);
  });
});

describe("esc and pastes", () => {
  it("customers: /, smit, esc, esc, 6 in one read leaves the search, clears it, and shows the drawers", async () => {
    const a = await open("5", (x) => x.waitForStore((s) => s.customers.index.phase === "ready", 20_000));
    await a.press("/");
    await a.waitForStore((s) => s.field.customers === "search");
    await a.press(`smit${KEYS.escape}${KEYS.escape}6`);
    await a.waitForStore((s) => s.screen.kind === "drawers");
    expect(a.store.getState().customers.line).toBe("");
    expect(a.store.getState().field.customers).toBeUndefined();
  });

  it("a bracketed paste goes into the field whole and presses no Enter; with no field open it runs nothing", async () => {
    const a = await open("5", (x) => x.waitForStore((s) => s.customers.index.phase === "ready", 20_000));
    await a.press("/");
    await a.waitForStore((s) => s.field.customers === "search");
    await a.press(paste("smith\r\n"));
    await a.waitForStore((s) => s.customers.line === "smith");
    expect(a.store.getState().field.customers).toBe("search");
    await a.press(KEYS.escape, KEYS.escape);
    await a.waitForStore((s) => s.customers.line === "" && s.field.customers === undefined);
    // On the list, a pasted `q1` neither quits nor shows the time clock.
    await a.press(paste("q1"));
    await a.waitFor("A paste arrived with no text field open; it was ignored.");
    expect(a.store.getState().screen.kind).toBe("customers");
    expect(a.store.getState().exited).toBe(false);
  });
});

describe("the palette", () => {
  it("takes a command's words and Enter in one read as typed text", async () => {
    const a = await open("6", (x) => x.waitForStore((s) => s.screen.kind === "drawers" && s.loading === undefined));
    await a.press(":");
    await a.waitForStore((s) => s.overlay.kind === "palette");
    await a.press(`help: every key${KEYS.enter}`);
    await a.waitForStore((s) => s.overlay.kind === "help");
    expect(a.frame()).not.toContain("does not take scans");
  });
});
