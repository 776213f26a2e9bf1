// The time clock flows driven with keys through the whole app, against the real local service.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { LocalService } from "../src/service/index.js";
import type { SquareClient, TeamMember } from "../src/square/index.js";
import { type DrivenApp as Driven, KEYS, startApp } from "./helpers/app.js";

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
  let t = NOW;
  const clock = {
    now: () => new Date(t),
    set: (at: Date) => {
      t = at.getTime();
    },
    advance: (seconds: number) => {
      t += seconds * 1000;
    },
  };
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
    await h.app.waitFor(/on break: \w+ since 16:00 \((paid|unpaid)\)/);

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

  it("refuses a second clock-in in words and shows the service's own refusal", async () => {
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
    await h.app.press("o");
    // The headline is the service's words; its code and status follow on the details part.
    await h.app.waitFor(/✖ [A-Z].* \([A-Z_]+ · HTTP 4\d\d/);
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
    await h.app.press("f");
    await h.app.waitFor("Forgot to clock out:");
    await h.app.press("\u0015", ...endDate.split(""), KEYS.tab, ...endTime.split(""));
    await h.app.press(KEYS.enter);
    await h.app.waitFor(`${fullName(m)}'s shift now ends ${endDate} ${endTime}.`);
    await h.app.waitFor((f) => !f.includes("open shift from an earlier day"));
    const shift = (await h.client.labor.getShift(created.shift?.id ?? "")).shift;
    expect(shift?.status).toBe("CLOSED");
    expect(Date.parse(shift?.end_at ?? "")).toBe(Math.floor(endAt.getTime() / 60_000) * 60_000);
  });

  it("refuses a fourth break type in the form, before the service", async () => {
    const h = await start();
    const before = (await h.client.labor.listBreakTypes({ location_id: h.main })).break_types ?? [];
    expect(before).toHaveLength(3);
    await h.app.press("3");
    await h.app.waitFor("3 of 3 (the limit)");
    await h.app.press("a");
    await h.app.waitFor("already has 3 break types, the most allowed");
    await h.app.press(..."Nap".split(""), KEYS.enter);
    await h.app.waitFor("! This location already has 3 break types");
    expect((await h.client.labor.listBreakTypes({ location_id: h.main })).break_types).toHaveLength(3);
    // Delete one (with confirmation), then the add goes through.
    await h.app.press(KEYS.escape, "x");
    await h.app.waitFor("Delete the break type");
    await h.app.press("y");
    await h.app.waitFor("2 of 3");
    await h.app.press("a");
    await h.app.waitFor("1 left");
    await h.app.press(..."Nap".split(""), KEYS.enter);
    await h.app.waitFor("Added Nap.");
    expect(
      (await h.client.labor.listBreakTypes({ location_id: h.main })).break_types?.map((b) => b.break_name),
    ).toContain("Nap");
  });
});

/** Two closed shifts on a quiet day before the demo history, with known totals. */
async function seedReviewDay(h: Harness) {
  const [a, b] = h.members.filter((m) => !m.is_owner);
  if (!a?.id || !b?.id) throw new Error("need two members");
  const rate = (amount: number) => ({ hourly_rate: { amount, currency: "USD" as const } });
  const types = (await h.client.labor.listBreakTypes({ location_id: h.main })).break_types ?? [];
  const lunch = types.find((t) => !t.is_paid) ?? types[0];
  await h.client.labor.createShift({
    shift: {
      location_id: h.main,
      team_member_id: a.id,
      start_at: "2026-04-01T13:00:00Z",
      end_at: "2026-04-01T21:30:00Z",
      wage: rate(2000),
      breaks: [
        {
          start_at: "2026-04-01T17:00:00Z",
          end_at: "2026-04-01T17:30:00Z",
          break_type_id: lunch?.id ?? "",
          name: "Lunch",
          expected_duration: "PT30M",
          is_paid: false,
        },
      ],
    },
  });
  const two = await h.client.labor.createShift({
    shift: {
      location_id: h.main,
      team_member_id: b.id,
      start_at: "2026-04-01T12:00:00Z",
      end_at: "2026-04-01T22:00:00Z",
      wage: rate(1500),
    },
  });
  return { a, b, shiftB: two.shift?.id ?? "" };
}

async function openReviewDay(app: Driven) {
  await app.press("2");
  await app.waitFor("Workday");
  await app.press("d");
  await app.waitFor("Workdays to review");
  // ctrl+u empties a field.
  await app.press("\u0015", ..."2026-04-01".split(""), KEYS.tab, "\u0015", ..."2026-04-01".split(""));
  await app.press(KEYS.enter);
  await app.waitFor((f) => f.includes("Workday 2026-04-01") && !f.includes("Workdays to review"));
}

describe("review against the local service", () => {
  it("shows per-member totals and flags over 8 hours", async () => {
    const h = await start();
    const { a, b } = await seedReviewDay(h);
    await openReviewDay(h.app);
    const f = await h.app.waitFor("Total: 2 shifts");
    expect(f).toContain("paid 18.00 h · unpaid 0.50 h · cost 310.00 USD");
    const lineA = f.split("\n").find((l) => l.includes(fullName(a).slice(0, 19))) ?? "";
    const lineB = f.split("\n").find((l) => l.includes(fullName(b).slice(0, 19))) ?? "";
    expect(lineA).toMatch(/1\s+8\.00\s+0\.50\s+160\.00 USD\s*$/);
    expect(lineB).toMatch(/1\s+10\.00\s+0\.00\s+150\.00 USD\s+>8h 1d/);
  });

  it("tells about a version conflict and shows the new values", async () => {
    const h = await start();
    const { b, shiftB } = await seedReviewDay(h);
    await openReviewDay(h.app);
    await h.app.press("s");
    await h.app.waitFor("Start–End");
    // Rows sort by member name; move to b's shift.
    const lines = (await h.app.waitFor("08:00–18:00")).split("\n").filter((l) => /\d\d:\d\d–/.test(l));
    const index = lines.findIndex((l) => l.includes(fullName(b).slice(0, 15)));
    await h.app.press(...Array(index).fill("j"), KEYS.enter);
    await h.app.waitFor("Edit shift times");
    // Meanwhile someone else moves the end to 17:00.
    const theirs = (await h.client.labor.getShift(shiftB)).shift;
    await h.client.labor.updateShift(shiftB, {
      shift: { ...(theirs ?? { location_id: "", start_at: "" }), end_at: "2026-04-01T21:00:00Z" },
    });
    await h.app.press(KEYS.tab, "\u0015", ..."09:00".split(""), KEYS.enter);
    await h.app.waitFor("Someone else changed this shift. It now runs 08:00–17:00");
    await h.app.waitFor(/End time:\s+17:00/);
    // Saving again over the new version goes through.
    await h.app.press(KEYS.enter);
    await h.app.waitFor("Shift saved.");
  });

  it("exports the review as CSV to a confirmed path", async () => {
    const h = await start();
    const { a, b } = await seedReviewDay(h);
    await openReviewDay(h.app);
    await h.app.press("e");
    await h.app.waitFor("shifts-2026-04-01.csv");
    const out = join(mkdtempSync(join(tmpdir(), "backroom-")), "day.csv");
    await h.app.press("\u0015", out, KEYS.enter);
    await h.app.waitFor("Wrote 2 shifts to");
    const rows = [fullName(a), fullName(b)].sort();
    const byName: Record<string, string> = {
      [fullName(a)]: `${fullName(a)},2026-04-01,09:00,17:30,Lunch 30m (unpaid),8.00,20.00,160.00,USD`,
      [fullName(b)]: `${fullName(b)},2026-04-01,08:00,18:00,,10.00,15.00,150.00,USD`,
    };
    expect(readFileSync(out, "utf8")).toBe(
      `member,date,start,end,breaks,paid hours,wage,cost,currency\r\n${rows.map((n) => byName[n]).join("\r\n")}\r\n`,
    );
  });
});
