// The time clock flows driven with keys through the whole app, against the real local service.
import { afterEach, describe, expect, it } from "vitest";
import { formatDuration, localTimeSeconds, machineTimeZone } from "../src/domain/time.js";
import type { LocalService } from "../src/service/index.js";
import type { SquareClient, TeamMember } from "../src/square/index.js";
import { OFFLINE_RETRY_SECONDS } from "../src/state/index.js";
import { type DrivenApp as Driven, KEYS, startApp, startAppBehindProxy } from "./helpers/app.js";
import { pinnedClock } from "./helpers/service.js";

// Wednesday 2026-05-06, 15:00 in New York (the main location's time zone).
const NOW = Date.parse("2026-05-06T19:00:00Z");
const MAIN = "America/New_York";

interface Harness {
  svc: LocalService;
  client: SquareClient;
  app: Driven;
  advance(minutes: number): void;
  main: string;
  members: TeamMember[];
}

let current: Harness | undefined;
afterEach(async () => {
  await current?.app.close();
  current = undefined;
});

async function start(): Promise<Harness> {
  const clock = pinnedClock(NOW);
  const app = await startApp({ rows: 30, service: { clock }, store: { clock, env: "LOCAL" } });
  const svc = app.service.service;
  const client = app.client;
  const locations = (await client.locations.listLocations()).locations ?? [];
  const main = locations.find((l) => l.timezone === MAIN)?.id ?? "";
  const members = await client.team
    .searchTeamMembers({ query: { filter: { location_ids: [main], status: "ACTIVE" } } })
    .all();
  current = { svc, client, app, main, members, advance: (m) => clock.advance(m * 60) };
  await app.waitFor("Who is here");
  await app.waitFor((f) => /on shift since|clocked out/.test(f));
  return current;
}

const fullName = (m: TeamMember) => `${m.given_name} ${m.family_name}`;

async function openShifts(h: Harness) {
  return h.client.labor
    .searchShifts({ query: { filter: { location_ids: [h.main], team_member_ids: [], status: "OPEN" } } })
    .all();
}

/** A member of the main location without an open shift. */
async function clockedOutMember(h: Harness): Promise<TeamMember> {
  const open = new Set((await openShifts(h)).map((s) => s.team_member_id));
  const m = h.members.find((x) => !open.has(x.id));
  if (!m) throw new Error("every member is clocked in");
  return m;
}

async function filterTo(app: Driven, name: string) {
  await app.press("/", ...name.split(""));
  await app.press(KEYS.enter);
  await app.waitFor(`filter "${name}"`);
}

describe("time clock against the local service", () => {
  it("the title counts who is on shift at the store while a filter narrows the list", async () => {
    const h = await start();
    const onShift = new Set((await openShifts(h)).map((s) => s.team_member_id));
    const off = await clockedOutMember(h);
    expect(onShift.size).toBeGreaterThan(0);
    await h.app.waitFor(`${onShift.size} on shift`);
    // Filtered to someone who is clocked out: still the store's count, and how many rows are shown.
    await filterTo(h.app, fullName(off));
    const frame = await h.app.waitFor(`filter "${fullName(off)}": 1 of ${h.members.length} shown`);
    expect(frame).toContain(`· ${onShift.size} on shift ·`);
    // At 80 columns the time zone gives way; the counts stay whole.
    h.app.stdout.resize(80, 30);
    await h.app.waitFor(
      `at Main Street · ${onShift.size} on shift · filter "${fullName(off)}": 1 of ${h.members.length} shown`,
    );
    h.app.stdout.resize(60, 30);
    await h.app.waitFor(`Who is here · ${onShift.size} on shift · filter`);
  });

  it("clocks in, runs a break, ends it and clocks out", async () => {
    const h = await start();
    const m = await clockedOutMember(h);
    const name = fullName(m);
    await filterTo(h.app, name);
    await h.app.waitFor(`${name}`);

    await h.app.press("i");
    await h.app.waitFor(`${name} clocked in at 15:00.`);
    let shift = (await openShifts(h)).find((s) => s.team_member_id === m.id);
    const wage = (await h.client.labor.listTeamMemberWages({ team_member_id: m.id ?? "" })).team_member_wages?.[0];
    expect(shift?.wage?.hourly_rate).toEqual(wage?.hourly_rate);

    h.advance(60);
    await h.app.press("b");
    await h.app.waitFor("Start a break for");
    await h.app.press(KEYS.enter);
    await h.app.waitFor(/on break: \w+ since 16:00 .*\((paid|unpaid)\)/);

    // A second break while one runs is refused in words, before any request.
    await h.app.press("b");
    await h.app.waitFor("is still running since 16:00; end it first.");

    h.advance(15);
    await h.app.press("u");
    await h.app.waitFor(`${name} is back from`);
    await h.app.waitFor("on shift since 15:00");

    h.advance(120);
    await h.app.press("o");
    await h.app.waitFor(`${name} clocked out at 18:15.`);
    await h.app.waitFor("clocked out");
    shift = (await h.client.labor.getShift(shift?.id ?? "")).shift;
    expect(shift?.status).toBe("CLOSED");
    expect(new Date(shift?.end_at ?? "").toISOString()).toBe("2026-05-06T22:15:00.000Z");
    expect(
      shift?.breaks?.map((b) => [new Date(b.start_at).toISOString(), new Date(b.end_at ?? "").toISOString()]),
    ).toEqual([["2026-05-06T20:00:00.000Z", "2026-05-06T20:15:00.000Z"]]);
  });

  it("refuses a second clock-in in words, and explains a clock-out refused after a change elsewhere", async () => {
    const h = await start();
    const m = await clockedOutMember(h);
    await filterTo(h.app, fullName(m));
    await h.app.press("i");
    await h.app.waitFor("clocked in at 15:00.");
    await h.app.press("i");
    await h.app.waitFor(`${fullName(m)}: Already clocked in since 15:00; clock out first.`);
    // Someone else clocks the member out and in again elsewhere: the app's view is stale, and
    // the service refuses the overlapping shift; its code and detail reach the status bar.
    const shift = (await openShifts(h)).find((s) => s.team_member_id === m.id);
    await h.client.labor.updateShift(shift?.id ?? "", {
      shift: {
        ...shift,
        location_id: h.main,
        start_at: shift?.start_at ?? "",
        end_at: new Date(NOW + 60_000).toISOString(),
        status: "CLOSED",
      },
    });
    h.advance(2);
    await h.client.labor.createShift({
      shift: { location_id: h.main, team_member_id: m.id ?? "", start_at: new Date(NOW + 120_000).toISOString() },
    });
    await h.app.press("u");
    await h.app.waitFor("No break is running.");
    // Two minutes after clocking in: the app asks first.
    await h.app.press("o");
    await h.app.waitFor("Clock out anyway?");
    await h.app.press("y");
    // The refusal is explained in words, and the list is read again; the service's code goes to
    // the status's details.
    await h.app.waitFor(
      `! ${fullName(m)}'s shift was changed elsewhere meanwhile; the list is read again — try once more.`,
    );
    const status = h.app.store.getState().status;
    expect(status.kind === "rule" && status.details).toMatch(/^[A-Z_]+ · HTTP 4\d\d/);
    // With the list read again, the clock-out goes to the shift that is open now.
    h.advance(3);
    await h.app.press("o");
    await h.app.waitFor("Clock out anyway?");
    // Any other key (q, a number key) acts on nothing while the question is open, and says so.
    await h.app.press("q");
    await h.app.waitFor("q quits once the question is answered: y yes, n or esc no.");
    expect(h.app.store.getState().exited).toBe(false);
    await h.app.press("y");
    await h.app.waitFor(`${fullName(m)} clocked out at 15:05.`);
  });

  it("fixes a forgotten clock-out in one form", async () => {
    const h = await start();
    const m = await clockedOutMember(h);
    // Clocked in yesterday half an hour after their last shift ended, and never out.
    const theirs = await h.client.labor
      .searchShifts({ query: { filter: { location_ids: [], team_member_ids: [m.id ?? ""] } } })
      .all();
    const lastEnd = Math.max(
      Date.parse("2026-05-05T12:00:00Z"),
      ...theirs.map((s) => Date.parse(s.end_at ?? s.start_at)),
    );
    const startAt = new Date(lastEnd + 30 * 60_000);
    expect(NOW - startAt.getTime()).toBeGreaterThan(12 * 3_600_000);
    const created = await h.client.labor.createShift({
      shift: { location_id: h.main, team_member_id: m.id ?? "", start_at: startAt.toISOString() },
    });
    const local = (d: Date) =>
      new Intl.DateTimeFormat("en-CA", {
        timeZone: MAIN,
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
      })
        .format(d)
        .replace(",", "");
    const endAt = new Date(startAt.getTime() + 2 * 3_600_000);
    const [endDate = "", endTime = ""] = local(endAt).split(" ");
    await h.app.press("r");
    await h.app.waitFor("open shift from an earlier day");
    await filterTo(h.app, fullName(m));
    await h.app.waitFor("forgot to clock out?");
    // Its time on shift, over ten hours, is whole in its column.
    expect(h.app.frame()).toContain(formatDuration((NOW - startAt.getTime()) / 60_000));
    await h.app.press("f");
    await h.app.waitFor("Forgot to clock out:");
    await h.app.press("\u0015", ...endDate.split(""), KEYS.tab, ...endTime.split(""));
    await h.app.press(KEYS.enter);
    // At once: the frame that says the shift now ends no longer calls it forgotten (no refresh waited for).
    await h.app.waitFor(`${fullName(m)}'s shift now ends ${endDate} ${endTime}.`);
    expect(h.app.frame()).not.toContain("open shift from an earlier day");
    expect(h.app.frame()).not.toContain("forgot to clock out?");
    expect(h.app.frame()).toMatch(new RegExp(`${fullName(m)}\\s+clocked out`));
    const shift = (await h.client.labor.getShift(created.shift?.id ?? "")).shift;
    expect(shift?.status).toBe("CLOSED");
    expect(Date.parse(shift?.end_at ?? "")).toBe(Math.floor(endAt.getTime() / 60_000) * 60_000);
  });
});

describe("time clock started while the service cannot be reached", () => {
  it("says so in words with the time of the last try, tries again on its own, and fills in when it answers", async () => {
    let now = new Date("2026-11-27T07:00:05Z");
    const run = await startAppBehindProxy({ down: true, now: () => now });
    const { app, proxy, timers } = run;
    try {
      const at = (d: Date) => localTimeSeconds(d, machineTimeZone());
      let frame = await app.waitFor("cannot be reached");
      expect(frame).not.toContain("Loading the team");
      expect(frame).toContain("○ offline");
      expect(frame).toContain(`Last tried ${at(now)}`);
      expect(frame).toMatch(/Last tried [\d:]+ · tries again every 10 s · r tries now/);

      // Still down at the next try: the line says the new time.
      now = new Date("2026-11-27T07:00:15Z");
      timers.advance(OFFLINE_RETRY_SECONDS * 1000);
      frame = await app.waitFor(`Last tried ${at(now)}`);

      // Back: the next try fills the screen in, without a key.
      await proxy.up();
      now = new Date("2026-11-27T07:00:25Z");
      timers.advance(OFFLINE_RETRY_SECONDS * 1000);
      frame = await app.waitFor((f) => /on shift since|clocked out/.test(f));
      expect(frame).toContain("● online");
      expect(frame).not.toContain("cannot be reached");
    } finally {
      await run.close();
    }
  });

  it("r tries at once", async () => {
    const run = await startAppBehindProxy({ down: true, now: () => new Date() });
    const { app, proxy } = run;
    try {
      await app.waitFor("cannot be reached");
      await proxy.up();
      await app.press("r");
      await app.waitFor((f) => /on shift since|clocked out/.test(f));
    } finally {
      await run.close();
    }
  });
});
