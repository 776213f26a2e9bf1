// Every screen while the app started with the service out of reach (no store known yet): the same
// words as the time clock's, no screen's own empty lines, none of its keys, and the screen fills in
// by itself once the service answers.
import { describe, expect, it } from "vitest";
import { localTimeSeconds, machineTimeZone } from "../src/domain/time.js";
import { OFFLINE_RETRY_SECONDS } from "../src/state/index.js";
import { KEYS, startApp, startAppBehindProxy } from "./helpers/app.js";

interface Case {
  /** The keys that show it. */
  show: string[];
  title: string;
  what: string;
  /** What the screen used to show instead, as if there were nothing or it were still reading. */
  not: string[];
  /** A key of the screen's own, which must open nothing while the store is not read. */
  key?: string;
  /** Seen once the screen has filled in. */
  filled: RegExp;
}

const CASES: Case[] = [
  {
    show: ["2"],
    title: "Review",
    what: "The shifts",
    not: ["No shifts loaded", "No shifts in these"],
    key: "[",
    filled: /Total: \d+ shifts?\b/,
  },
  { show: ["3"], title: "Break types", what: "The break types", not: ["No break types"], key: "a", filled: /Coffee/ },
  {
    show: ["4"],
    title: "Stocktake",
    what: "The counts",
    not: ["No finished counts"],
    key: "n",
    filled: /Stocktake at Main Street/,
  },
  {
    show: ["5"],
    title: "Customers",
    what: "The customers",
    not: ["No profile matches"],
    key: "n",
    filled: /\d+ matches/,
  },
  {
    show: ["6"],
    title: "Drawers",
    what: "The drawers",
    not: ["Reading the drawers"],
    key: "d",
    filled: /Main Street · .* \(today\)/,
  },
  { show: ["7"], title: "Payouts", what: "The payouts", not: ["have not been read"], key: "d", filled: /Paid \d+ · / },
  {
    show: ["8"],
    title: "Gift cards",
    what: "The gift cards",
    not: ["Scan a card"],
    key: "v",
    filled: /Gift cards at Main Street/,
  },
  {
    show: ["9"],
    title: "Old transactions (V1)",
    what: "The old transactions",
    not: ["0 payments"],
    key: "d",
    filled: /V1\) · Main Street · the last 30 days/,
  },
  {
    show: ["0", KEYS.tab],
    title: "Webhooks",
    what: "The subscriptions",
    not: ["0 subscriptions"],
    key: "n",
    filled: /No enabled subscriptions/,
  },
  {
    show: [],
    title: "Time clock",
    what: "The team",
    not: ["Loading the team"],
    key: "/",
    filled: /Who is here at Main Street/,
  },
];

describe("every screen while the service cannot be reached and no store is known", () => {
  it.each(CASES)("$title says so, takes none of its keys, and fills in when it answers", async (c) => {
    let now = new Date("2026-11-27T07:00:05Z");
    const run = await startAppBehindProxy({ down: true, now: () => now });
    const { app, proxy, timers } = run;
    try {
      await app.waitFor("○ offline");
      await app.press(...c.show);
      const at = localTimeSeconds(now, machineTimeZone());
      let frame = await app.waitFor(`${c.what} cannot be read: the service cannot be reached.`);
      expect(frame).toContain(`Last tried ${at} · tries again every 10 s · r tries now`);
      expect(frame).toContain(c.title);
      for (const line of c.not) expect(frame).not.toContain(line);
      const before = frame;
      if (c.key) {
        await app.press(c.key);
        expect(app.frame()).toBe(before);
      }
      // A scanner's burst where no field has the keys: nothing is done, and it says so.
      await app.pressPaced(["0123456789", KEYS.enter], 2);
      frame = await app.waitFor("Scanned 0123456789 before the store was read: nothing was done.");
      // Still the words, and only the shell's keys (no form or picker the key could have opened).
      expect(frame).toContain(`${c.what} cannot be read`);
      expect(frame).toMatch(/q quit {2}\? help {2}: commands$/);
      await proxy.up();
      now = new Date("2026-11-27T07:00:15Z");
      timers.advance(OFFLINE_RETRY_SECONDS * 1000);
      frame = await app.waitFor((f) => c.filled.test(f) && f.includes("● online"));
      expect(frame).toContain("● online");
      expect(frame).not.toContain("cannot be read");
    } finally {
      await run.close();
    }
  });
});

interface FirstShown {
  keys: string[];
  title: string;
  what: string;
  /** What the screen said instead, as if it were still reading or there were nothing. */
  not: string[];
  filled: RegExp;
  /** Said in the list's one empty line, without the time of the last try. */
  oneLine?: true;
}

const FIRST_SHOWN: FirstShown[] = [
  { keys: ["6"], title: "Drawers", what: "The drawers", not: ["Reading the drawers"], filled: /Expected +Counted/ },
  {
    keys: ["2"],
    title: "Review",
    what: "The shifts",
    not: ["No shifts loaded", "No shifts in these"],
    // Early in the store's day (the real clock) its workday may hold one shift: "Total: 1 shift".
    filled: /Total: \d+ shifts?\b/,
  },
  {
    keys: ["9"],
    title: "Old transactions (V1)",
    what: "The payments",
    not: ["Reading payments"],
    filled: /\d+ payments · collected [1-9]/,
  },
  {
    keys: ["5"],
    title: "Customers",
    what: "The customers",
    not: ["No profile matches"],
    oneLine: true,
    filled: /\d+ matches/,
  },
  {
    keys: ["0", KEYS.tab],
    title: "Webhooks",
    what: "The subscriptions",
    not: ["Reading the subscriptions", "0 subscriptions"],
    oneLine: true,
    filled: /No enabled subscriptions/,
  },
];

describe("a screen first shown after the service stopped answering (the store known)", () => {
  it.each(FIRST_SHOWN)(
    "$title says its data cannot be read, and fills in by itself when the service answers",
    async (c) => {
      const now = new Date();
      const run = await startAppBehindProxy({ down: false, now: () => now });
      const { app, proxy, timers } = run;
      try {
        await app.waitFor("Who is here at Main Street");
        await proxy.down();
        await app.press(...c.keys);
        const frame = await app.waitFor(`${c.what} cannot be read: the service cannot be reached.`);
        expect(frame).toContain("○ offline");
        // In the store's time, as the header's "offline (since …)".
        const tried = localTimeSeconds(now, "America/New_York");
        // (Reads still on their way say "Trying again now…" until they fail.)
        if (!c.oneLine) await app.waitFor(`Last tried ${tried} · tries again every 10 s · r tries now`);
        for (const line of c.not) expect(frame).not.toContain(line);
        // Back: the app's next question finds it, and the screen on show reads again, no key pressed.
        await proxy.up();
        timers.advance(OFFLINE_RETRY_SECONDS * 1000);
        const filled = await app.waitFor((f) => c.filled.test(f) && f.includes("● online"));
        expect(filled).not.toContain("cannot be read");
      } finally {
        await run.close();
      }
    },
  );
});

describe("every screen while the token is refused and no store is known", () => {
  it("says the data cannot be read because nobody is signed in, and where to sign in", async () => {
    const app = await startApp({ columns: 80, rows: 24, accessToken: "EAAA-refused-token" });
    try {
      let frame = await app.waitFor("The team cannot be read: not signed in; 0 opens the account to sign in.");
      expect(frame).not.toContain("Loading the team");
      await app.press("6");
      frame = await app.waitFor("The drawers cannot be read: not signed in; 0 opens the account to sign in.");
      expect(frame).not.toContain("Reading the drawers");
    } finally {
      await app.close();
    }
  });
});
