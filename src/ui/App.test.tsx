import { afterEach, describe, expect, it } from "vitest";
import { createFakeClient, fakeDemoData } from "../state/fake-client.js";
import { createStore } from "../state/index.js";
import { type Driven, drive, KEYS } from "./testing.js";

const NOW = new Date("2026-05-06T19:00:00Z");
let app: Driven | undefined;
afterEach(() => app?.unmount());

function start(opts: { readOnly?: boolean; rows?: number } = {}) {
  let now = NOW;
  const data = fakeDemoData(NOW);
  const client = createFakeClient(data, () => now);
  const store = createStore({ client, clock: { now: () => now }, readOnly: opts.readOnly ?? false });
  app = drive(store, { rows: opts.rows ?? 30 });
  const advance = (minutes: number) => {
    now = new Date(now.getTime() + minutes * 60_000);
  };
  return { store, client, data, app, advance };
}

describe("the shell", () => {
  it("shows header, who is here and key hints", async () => {
    const { app } = start();
    const f = await app.waitFor("Bo Li");
    expect(f).toContain("Corner Bakery");
    expect(f).toContain("Main Street");
    expect(f).toContain("LOCAL");
    expect(f).toContain("signed in");
    expect(f).toContain("on shift since 13:00");
    expect(f).toContain("i clock in");
  });

  it("clocks a member in with i", async () => {
    const { app, client, advance } = start();
    await app.waitFor("Ana Diaz");
    // Rows: Bo, Cy (on shift), Ana, Dev.
    await app.press("j", "j", "i");
    await app.waitFor("Ana Diaz clocked in at 15:00.");
    expect(client.calls.filter((c) => c.op === "createShift")).toHaveLength(1);
    // Ana moved up among those on shift; the cursor went with her, so o clocks her out.
    await app.waitFor(/› Ana Diaz\s+on shift since 15:00/);
    advance(30);
    await app.press("o");
    await app.waitFor("Ana Diaz clocked out at 15:30.");
  });

  it("switches screens with numbers and tab, and opens help", async () => {
    const { app } = start();
    await app.waitFor("Who is here");
    await app.press("3");
    await app.waitFor("Break types at Main Street");
    await app.press(KEYS.tab);
    await app.waitFor("Who is here");
    await app.press("?");
    await app.waitFor("esc or ? closes");
    await app.press(KEYS.escape);
    await app.waitFor((f) => !f.includes("esc or ? closes"));
  });

  it("says when the terminal is too small", async () => {
    const { app } = start({ rows: 10 });
    await app.waitFor("The terminal is too small.");
  });

  it("shows writes disabled in read-only mode", async () => {
    const { app, client } = start({ readOnly: true });
    await app.waitFor("READ-ONLY");
    await app.press("i");
    await app.waitFor("Read-only mode: clock in is disabled.");
    expect(client.calls).toHaveLength(0);
  });
});
