import { afterEach, describe, expect, it, vi } from "vitest";
import { createFakeClient, fakeDemoData } from "../state/fake-client.js";
import { createStore } from "../state/index.js";
import { type Driven, drive, KEYS } from "./testing.js";

const NOW = new Date("2026-05-06T19:00:00Z");
let app: Driven | undefined;
afterEach(() => app?.unmount());

function start(opts: { readOnly?: boolean; rows?: number; notice?: string } = {}) {
  let now = NOW;
  const data = fakeDemoData(NOW);
  const client = createFakeClient(data, () => now);
  const store = createStore({
    client,
    clock: { now: () => now },
    readOnly: opts.readOnly ?? false,
    ...(opts.notice ? { notice: opts.notice } : {}),
  });
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
    const help = await app.waitFor("esc or ? closes");
    // Every key of the screen, each on its own line (a squeezed layout once drew rows over rows).
    expect(help).toMatch(/ctrl\+c\s+quit now/);
    expect(help).toMatch(/│ q\s+quit\s/);
    expect(help).toMatch(/i\s+clock in/);
    expect(help).toMatch(/f\s+set end of a forgotten shift/);
    await app.press(KEYS.escape);
    await app.waitFor((f) => !f.includes("esc or ? closes"));
  });

  it("says when the terminal is too small", async () => {
    const { app } = start({ rows: 10 });
    await app.waitFor("The terminal is too small.");
  });

  it("keeps a standing notice (no keychain) in the status bar while messages come and go", async () => {
    const { app } = start({ notice: "no keychain: signed in for this run only" });
    await app.waitFor("Bo Li");
    await app.waitFor("⚠ no keychain: signed in for this run only");
    await app.press("i");
    await app.waitFor("⚠ no keychain: signed in for this run only");
  });

  it("shows writes disabled in read-only mode", async () => {
    const { app, client } = start({ readOnly: true });
    await app.waitFor("READ-ONLY");
    await app.press("i");
    await app.waitFor("Read-only mode: clock in is disabled.");
    expect(client.calls).toHaveLength(0);
  });

  it("runs commands from the palette with completion", async () => {
    const { app } = start();
    await app.waitFor("Bo Li");
    await app.press(":", "b", "r", "e");
    await app.waitFor("› break-types");
    await app.press(KEYS.tab);
    await app.waitFor(":break-types");
    await app.press(KEYS.enter);
    await app.waitFor("Break types at Main Street");
  });

  it("switches location with L", async () => {
    const { app, store } = start();
    await app.waitFor("Bo Li");
    await app.press("L");
    await app.waitFor("West Pier");
    await app.press("j", KEYS.enter);
    await app.waitFor("Who is here at West Pier (America/Los_Angeles)");
    await app.waitFor("No team members at this location.");
    expect(store.getState().locationId).toBe("L-WEST");
  });

  it("asks before quitting while a change is still being sent, and ctrl+c always quits", async () => {
    const { app, client, store } = start();
    await app.waitFor("Ana Diaz");
    let release: () => void = () => undefined;
    const real = client.labor.createShift;
    // The service takes its time with this one: the write stays on its way until released.
    client.labor.createShift = ((body: Parameters<typeof real>[0]) =>
      new Promise((ok) => {
        release = () => ok(real(body));
      })) as typeof real;
    await app.press("j", "j", "i");
    await app.waitFor("Clocking in Ana Diaz…");
    await app.press("q");
    await app.waitFor("1 change is still being sent. Quit anyway?");
    await app.press("n");
    await app.waitFor((f) => !f.includes("Quit anyway?"));
    expect(store.getState().exited).toBe(false);
    release();
    await app.waitFor("Ana Diaz clocked in at 15:00.");
    await app.press(KEYS.ctrlC);
    await vi.waitFor(() => expect(store.getState().exited).toBe(true));
  });

  it("moves through a long list with g, G and j, rendering only the rows that fit", async () => {
    const { app, data } = start({ rows: 20 });
    for (let i = 0; i < 300; i++) {
      data.members.push({
        id: `TM-X${i}`,
        given_name: "Extra",
        family_name: String(i).padStart(3, "0"),
        status: "ACTIVE",
        assigned_locations: { assignment_type: "EXPLICIT_LOCATIONS", location_ids: ["L-MAIN"] },
      });
    }
    await app.press("r");
    const f = await app.waitFor("of 304");
    expect(f.split("\n").length).toBeLessThanOrEqual(19);
    await app.press("G");
    await app.waitFor(/› Extra 299/);
    await app.press("g");
    await app.waitFor(/› Bo Li/);
  });
});
