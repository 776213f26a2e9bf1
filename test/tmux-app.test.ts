// Starts the built app the way a new user does (`npm start`) inside a real terminal (tmux), clocks
// a member in and out, resizes between 100×30 and 80×24, and reads the screen with capture-pane.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../src/square/client.js";
import { startProxy } from "./helpers/proxy.js";
import { startServe } from "./reliability/serve-process.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const socket = `backroom-test-${process.pid}`;
const tmux = (...args: string[]) => execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
/** The screen, or undefined once the app (and with it the tmux session) has gone. */
const screen = (): string | undefined => {
  const r = spawnSync("tmux", ["-L", socket, "capture-pane", "-p", "-t", "app"], { encoding: "utf8" });
  return r.status === 0 ? r.stdout : undefined;
};
const alive = () => spawnSync("tmux", ["-L", socket, "has-session", "-t", "app"]).status === 0;

/** Polls the screen until `test` holds, failing with the last screen after the deadline. */
async function until(test: (text: string) => boolean, what: string, ms = 20_000): Promise<string> {
  const deadline = Date.now() + ms;
  let last = "";
  while (Date.now() < deadline) {
    // The app may exit between two tmux calls: a capture that finds no session means it has.
    last = screen() ?? "(the app has exited)";
    if (test(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`waited ${ms} ms for ${what}; the screen was:\n${last}`);
}

// Folders of its own: the demo store is a file in the data folder, and no config file points elsewhere.
const data = mkdtempSync(join(tmpdir(), "backroom-tmux-"));

const keys = (...k: string[]) => tmux("send-keys", "-t", "app", ...k);

beforeAll(() => {
  execFileSync("npm", ["run", "build"], { cwd: root, stdio: "ignore" });
}, 120_000);

// A test that failed half way leaves its app running: the next one starts on a clean server.
afterEach(() => {
  spawnSync("tmux", ["-L", socket, "kill-session", "-t", "app"]);
});

afterAll(() => {
  spawnSync("tmux", ["-L", socket, "kill-server"]);
  rmSync(data, { recursive: true, force: true });
});

describe("the app in a real terminal", () => {
  it("clocks a member in and out through npm start, across a resize", async () => {
    const start = `env -u CI -u BACKROOM_ENV -u BACKROOM_BASE_URL XDG_DATA_HOME=${data} XDG_CONFIG_HOME=${data}/config npm start`;
    tmux("new-session", "-d", "-s", "app", "-x", "100", "-y", "30", "-c", root, start);
    let text = await until((t) => t.includes("Who is here") && t.includes("clocked out"), "the time clock");
    expect(text).toContain("DEMO");
    const line = text.split("\n").find((l) => l.includes("clocked out")) ?? "";
    const name = /^[›\s]*(.+?)\s{2,}clocked out/.exec(line)?.[1]?.trim() ?? "";
    expect(name).not.toBe("");

    keys("/");
    await until((t) => t.includes("esc again clears"), "the filter line");
    // The name and Enter in one write (tmux sends a send-keys as one read): typed text in the
    // filter of a screen that takes no scans, never a scan.
    keys(name, "Enter");
    await until((t) => t.includes(`filter "${name}"`), "the filter");
    keys("i");
    text = await until((t) => t.includes(`${name} clocked in at`), "the clock-in");
    expect(text).toMatch(new RegExp(`${name}\\s+on shift since \\d\\d:\\d\\d`));

    tmux("resize-window", "-t", "app", "-x", "80", "-y", "24");
    text = await until(
      (t) => t.split("\n").every((l) => l.length <= 80) && t.includes(`${name}`) && t.includes("DEMO"),
      "the 80×24 layout",
    );
    // One header after the resize: the old frame was cleared, not left behind.
    expect(text.split("\n").filter((l) => l.includes("DEMO"))).toHaveLength(1);
    expect(text.replace(/\n$/, "").split("\n")).toHaveLength(24);

    // Moments after clocking in, a clock-out looks like a mistaken press: the app asks first.
    keys("o");
    await until((t) => t.includes("Clock out anyway?"), "the question");
    keys("y");
    text = await until((t) => t.includes(`${name} clocked out at`), "the clock-out");
    expect(text).toMatch(new RegExp(`${name}\\s+clocked out`));

    tmux("resize-window", "-t", "app", "-x", "100", "-y", "30");
    await until(
      (t) => t.includes("1 Time clock") && t.split("\n").filter((l) => l.includes("DEMO")).length === 1,
      "the 100×30 layout",
    );

    keys("q");
    await until(() => !alive(), "the app to exit");
  }, 90_000);

  it("looks gift cards up from a scanner's burst at 80×24 and at 60×24, and activates one", async () => {
    const start = `env -u CI -u BACKROOM_ENV -u BACKROOM_BASE_URL XDG_DATA_HOME=${data} XDG_CONFIG_HOME=${data}/config npm start`;
    tmux("new-session", "-d", "-s", "app", "-x", "80", "-y", "24", "-c", root, start);
    await until((t) => t.includes("Who is here"), "the time clock");
    keys("8");
    await until((t) => t.includes("Scan a card, or press / and type its number or id."), "the gift cards screen");
    // A new card from the box: 7783 + 11 digits + its check digit. The scanner sends code and Enter in one write.
    const gan = "7783990000000018";
    keys("-l", `${gan}\r`);
    await until((t) => t.includes(`${gan} is not registered with the service yet`), "the unknown card");
    keys("a");
    await until((t) => t.includes("Activate card …0018"), "the activation form");
    keys("-l", "25");
    await until((t) => t.includes("Amount:    25"), "the amount typed");
    keys("Tab");
    // A person sees the next field take the cursor before typing (a tab inside one fast read is a paste's space).
    await until((t) => t.includes("› Paid with:"), "the next field");
    keys("-l", "cash");
    await until((t) => t.includes("Paid with: cash"), "the payment typed");
    keys("Enter");
    await until((t) => t.includes(`Register and activate card ${gan} with 25.00 USD?`), "the question");
    keys("y");
    await until((t) => t.includes(`Activated card ${gan} with 25.00 USD: balance 0.00 → 25.00 USD.`), "the message");
    let text = await until((t) => t.includes(" · physical · active · balance 25.00 USD"), "the card activated");

    tmux("resize-window", "-t", "app", "-x", "60", "-y", "24");
    await until((t) => t.split("\n").every((l) => l.length <= 60) && t.includes("balance 25.00 USD"), "60 columns");
    keys("v");
    text = await until((t) => /Liability [\d,]+\.\d\d USD on \d+ active cards/.test(t), "the activity view");
    expect(text).toContain(gan);
    // The scanner again, on the activity view: the card is looked up and shown.
    keys("-l", `${gan}\r`);
    text = await until(
      (t) => t.split("\n").every((l) => l.length <= 60) && t.includes("History, newest first (1)"),
      "the card at 60×24",
    );
    expect(text).toMatch(/sold\s+\+25\.00\s+25\.00/);
    expect(text.replace(/\n$/, "").split("\n")).toHaveLength(24);
    keys("q");
    await until(() => !alive(), "the app to exit");
  }, 90_000);

  it("keeps clock-ins while the service is away at 80×24: the header's count, the ◷ marks, To resolve", async () => {
    const token = "tmux-outbox-token";
    const serve = await startServe(join(root, "bin", "backroom.js"), [
      "--port",
      "0",
      "--db",
      join(data, "served.db"),
      "--access-token",
      token,
    ]);
    // The app reaches the service through a loopback proxy that the test switches off and on.
    const proxy = await startProxy(serve.url);
    const client = createClient({ baseUrl: serve.url, accessToken: token, maxRetries: 0 });
    try {
      const start = `env -u CI -u BACKROOM_ENV -u BACKROOM_BASE_URL BACKROOM_ACCESS_TOKEN=${token} XDG_DATA_HOME=${data}/outbox XDG_CONFIG_HOME=${data}/outbox-config npm start -- --env local --base-url ${proxy.url}`;
      tmux("new-session", "-d", "-s", "app", "-x", "80", "-y", "24", "-c", root, start);
      let text = await until((t) => t.includes("Who is here") && t.includes("clocked out"), "the time clock");
      const names = text
        .split("\n")
        .flatMap((l) => /^[›\s]*(.+?)\s{2,}clocked out/.exec(l)?.[1]?.trim() ?? [])
        .slice(0, 2);
      expect(names).toHaveLength(2);
      const [first, second] = names as [string, string];
      await proxy.down();
      for (const [i, name] of names.entries()) {
        keys("/");
        await until((t) => t.includes("esc again clears"), "the filter line");
        keys("C-u");
        keys("-l", name);
        await until((t) => t.includes(`/${name}`), "the typed name");
        keys("Enter");
        await until((t) => t.includes(`› ${name}`) && t.includes('filter "'), "the filter");
        keys("i");
        text = await until((t) => t.includes(`◷ ${i + 1} kept`), "the header's count");
        expect(text).toMatch(new RegExp(`${name}\\s+on shift since \\d\\d:\\d\\d ◷ kept, not yet sent`));
        expect(text).toContain("○ offline");
      }
      expect(text.split("\n").every((l) => l.length <= 80)).toBe(true);

      // Meanwhile the second member is clocked in from another terminal (an open shift since 30 minutes ago).
      const team = await client.team.searchTeamMembers({ limit: 200 }).all();
      const member = team.find((m) => `${m.given_name} ${m.family_name}` === second);
      const locationId = (await client.locations.listLocations()).locations?.[0]?.id ?? "";
      const now = Date.now();
      await client.labor.createShift({
        shift: {
          location_id: member?.assigned_locations?.location_ids?.[0] ?? locationId,
          team_member_id: member?.id ?? "",
          start_at: new Date(now - 30 * 60_000).toISOString(),
        },
      });
      await proxy.up();
      keys("r");
      text = await until((t) => t.includes("⚠ 1 to resolve (!)"), "the refusal in the header");
      expect(text).not.toContain("◷ 2 kept");
      keys("!");
      // The screen's title ("Kept on this machine · …"), not the status bar's "◷ Kept on this machine, …".
      text = await until((t) => t.includes("Kept on this machine ·") && t.includes(`Clock in ${second}`), "To resolve");
      // The refusal in words, wrapped over the two rows it has.
      expect(text.replace(/\s+/g, " ")).toContain("they were clocked in elsewhere meanwhile.");
      expect(text).toContain("t send again at another time · d discard · enter open");
      expect(text.split("\n").every((l) => l.length <= 80)).toBe(true);
      expect(text.replace(/\n$/, "").split("\n")).toHaveLength(24);
      keys("d");
      await until((t) => t.includes(`Discard "Clock in ${second}`), "the question");
      keys("y");
      text = await until((t) => t.includes("Nothing is kept: every change reached the service."), "nothing kept");
      expect(text).not.toContain("to resolve (!)");
      expect(text).toContain("● online");
      // The first clock-in was sent, once, at the time its key was pressed.
      const open = await client.labor.searchShifts({ query: { filter: { status: "OPEN" } }, limit: 200 }).all();
      const firstId = team.find((m) => `${m.given_name} ${m.family_name}` === first)?.id;
      expect(open.filter((x) => x.team_member_id === firstId)).toHaveLength(1);
      keys("q");
      await until(() => !alive(), "the app to exit");
    } finally {
      await client.close();
      await proxy.down().catch(() => {});
      await serve.kill("SIGTERM");
    }
  }, 120_000);

  it("the account (0) and webhooks (tab) screens at 80×24 and 60×24", async () => {
    const start = `env -u CI -u BACKROOM_ENV -u BACKROOM_BASE_URL XDG_DATA_HOME=${data} XDG_CONFIG_HOME=${data}/config npm start`;
    tmux("new-session", "-d", "-s", "app", "-x", "80", "-y", "24", "-c", root, start);
    await until((t) => t.includes("1 Time clock"), "the app");
    const fits = (t: string, width: number) => t.split("\n").every((l) => l.length <= width);
    keys("0");
    let text = await until(
      (t) => t.includes("Permissions: 15 of 15") && /^Service +The service accepts the token\./m.test(t),
      "the account screen",
    );
    // A fact too long for its line goes on under its label (12 columns in).
    expect(text.replace(/\n {12}/g, " ")).toMatch(
      /^Works on +DEMO: the demo store in this process \(\S+demo\.db\) · chosen by the default$/m,
    );
    expect(fits(text, 80)).toBe(true);
    keys("o");
    await until((t) => t.includes("The demo store signs itself in"), "the reason sign-out is not offered");

    keys("Tab");
    await until((t) => /Webhooks · \d+ subscriptions?/.test(t), "the webhooks screen");
    keys("n");
    await until((t) => t.includes("New webhook subscription"), "the form");
    // One write, as an auto-type sends it: the tab is a tab (next field), Enter submits.
    keys("Till", "Tab", "http://127.0.0.1:9/hook", "Enter");
    await until((t) => t.includes("[ ] inventory.count.updated"), "the event types");
    keys("Space");
    await until((t) => t.includes("[x] inventory.count.updated"), "the mark");
    keys("Enter");
    text = await until((t) => /Saved "Till": 1 event type to/.test(t), "the save");
    expect(text).toMatch(/› Till +yes +http:\/\/127\.0\.0\.1:9\/hook/);
    expect(fits(text, 80)).toBe(true);

    tmux("resize-window", "-t", "app", "-x", "60", "-y", "24");
    text = await until((t) => fits(t, 60) && t.includes("URL      http://127.0.0.1:9/hook"), "webhooks at 60×24");
    expect(text.replace(/\n$/, "").split("\n")).toHaveLength(24);
    keys("0");
    text = await until((t) => fits(t, 60) && t.includes("Permissions: 15 of 15"), "the account at 60×24");
    expect(text).toMatch(/^Token +personal access token …/m);

    keys("q");
    await until(() => !alive(), "the app to exit");
  }, 90_000);
  it("says again on the way out that its store could not be opened, and exits 1", async () => {
    const db = join(data, "not-a-store.db");
    writeFileSync(db, "this is not a database, it is a shopping list\n".repeat(100));
    const errors = join(data, "not-a-store-stderr.txt");
    const code = join(data, "not-a-store-code.txt");
    const start = `env -u CI -u BACKROOM_ENV -u BACKROOM_BASE_URL XDG_DATA_HOME=${data} XDG_CONFIG_HOME=${data}/config node bin/backroom.js --db ${db} 2>${errors}; echo $? >${code}; sleep 30`;
    tmux("new-session", "-d", "-s", "app", "-x", "80", "-y", "24", "-c", root, start);
    await until((t) => t.includes("cannot be opened"), "the app to say the store cannot be opened");
    keys("q");
    await until(() => existsSync(code), "the app to exit");
    expect(readFileSync(code, "utf8").trim()).toBe("1");
    // Its first line (the terminal's cursor is shown again after it).
    expect(readFileSync(errors, "utf8").split("\n")[0]).toBe(
      `backroom: the demo store at ${db} cannot be opened (file is not a database). \`backroom demo reset\` starts it over; --db :memory: runs on a throwaway one.`,
    );
  }, 60_000);

  it("goes away quietly when its terminal is closed (no process left, no error printed)", async () => {
    // A server of its own: killing it is the terminal window closing under the app.
    const hangup = `${socket}-hangup`;
    const db = join(data, "hangup.db");
    const errors = join(data, "hangup-stderr.txt");
    const start = `env -u CI -u BACKROOM_ENV -u BACKROOM_BASE_URL XDG_DATA_HOME=${data} XDG_CONFIG_HOME=${data}/config node bin/backroom.js --db ${db} 2>${errors}`;
    execFileSync("tmux", ["-L", hangup, "new-session", "-d", "-s", "app", "-x", "80", "-y", "24", "-c", root, start]);
    const running = () => spawnSync("pgrep", ["-f", `backroom.js --db ${db}`]).status === 0;
    const seen = () =>
      spawnSync("tmux", ["-L", hangup, "capture-pane", "-p", "-t", "app"], { encoding: "utf8" }).stdout ?? "";
    const deadline = Date.now() + 20_000;
    while (!seen().includes("Who is here") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(seen()).toContain("Who is here");
    spawnSync("tmux", ["-L", hangup, "kill-server"]);
    const gone = Date.now() + 10_000;
    while (running() && Date.now() < gone) await new Promise((r) => setTimeout(r, 100));
    expect(running()).toBe(false);
    expect(readFileSync(errors, "utf8")).toBe("");
  }, 60_000);
});
