// What a store manager does at the time clock beyond the clock buttons: clock in or out at a
// time already past, add a whole shift someone forgot, be asked before a mistaken or mid-break
// clock-out, see who is at another location, and get rules broken elsewhere explained in words.
import { afterEach, describe, expect, it } from "vitest";
import { KEYS } from "./helpers/app.js";
import {
  clockedOutMember,
  filterTo,
  fullName,
  type LaborHarness,
  openShifts,
  startLaborApp,
  typed,
} from "./helpers/labor-app.js";

let current: LaborHarness | undefined;
afterEach(async () => {
  await current?.app.close();
  current = undefined;
});
async function start() {
  current = await startLaborApp();
  return current;
}

/** The app with the add-shift form open for a member who is clocked out. */
async function openAddShift() {
  const h = await start();
  const m = await clockedOutMember(h);
  await filterTo(h.app, fullName(m));
  await h.app.press("a");
  await h.app.waitFor(`Add a shift for ${fullName(m)}`);
  return { h, m };
}

describe("time clock: times already past", () => {
  it("clocks a member in at 14:40 when the manager records it at 15:00, refusing a future time in the form", async () => {
    const h = await start();
    const m = await clockedOutMember(h);
    await filterTo(h.app, fullName(m));
    await h.app.press("I");
    await h.app.waitFor(`Clock in ${fullName(m)} at an earlier time`);
    await h.app.press(KEYS.tab, ...typed("15:30"), KEYS.enter);
    await h.app.waitFor("! The start 15:30 is in the future; a shift cannot start later than now.");
    await h.app.press(...typed("14:40"), KEYS.enter);
    await h.app.waitFor(`${fullName(m)} clocked in at 14:40.`);
    await h.app.waitFor(/on shift since 14:40\s+20 min/);
    const shift = (await openShifts(h)).find((s) => s.team_member_id === m.id);
    expect(new Date(shift?.start_at ?? "").toISOString()).toBe("2026-05-06T18:40:00.000Z");

    // Clocking out at an earlier time too: 14:55, after the start.
    await h.app.press("O");
    await h.app.waitFor(`Clock out ${fullName(m)} at an earlier time`);
    await h.app.press(KEYS.tab, ...typed("14:30"), KEYS.enter);
    await h.app.waitFor("! The end 14:30 is not after the start 14:40.");
    await h.app.press(...typed("14:55"), KEYS.enter);
    await h.app.waitFor(`${fullName(m)} clocked out at 14:55.`);
    const closed = (await h.client.labor.getShift(shift?.id ?? "")).shift;
    expect(closed?.status).toBe("CLOSED");
    expect(new Date(closed?.end_at ?? "").toISOString()).toBe("2026-05-06T18:55:00.000Z");
  });

  it("refuses a past clock-in that overlaps a shift the member already has, before sending", async () => {
    const h = await start();
    const m = await clockedOutMember(h);
    // A shift from 13:00 to 14:00 today, recorded elsewhere after the app read the team.
    await h.client.labor.createShift({
      shift: {
        location_id: h.main,
        team_member_id: m.id ?? "",
        start_at: "2026-05-06T17:00:00Z",
        end_at: "2026-05-06T18:00:00Z",
      },
    });
    const before = (await h.client.labor.searchShifts({ query: { filter: { team_member_ids: [m.id ?? ""] } } }).all())
      .length;
    await filterTo(h.app, fullName(m));
    await h.app.press("I", KEYS.tab, ...typed("13:30"), KEYS.enter);
    await h.app.waitFor("! That overlaps their shift of 2026-05-06 13:00–14:00; one person's shifts cannot overlap.");
    const after = (await h.client.labor.searchShifts({ query: { filter: { team_member_ids: [m.id ?? ""] } } }).all())
      .length;
    expect(after).toBe(before);
  });

  it("adds a whole past shift with a lunch break for someone who forgot to clock in", async () => {
    const h = await start();
    const m = await clockedOutMember(h);
    await filterTo(h.app, fullName(m));
    await h.app.press("a");
    await h.app.waitFor(`Add a shift for ${fullName(m)}`);
    await h.app.waitFor("Break types here: Coffee, Lunch, Rest.");
    // The example names the location's own break types.
    await h.app.waitFor("e.g. Coffee 12:00-12:30; Lunch 15:00-15:10");
    // Start, end, and a break that runs past the end: the time clock's own words, in the form.
    await h.app.press(...typed("2026-04-01"), KEYS.tab, ...typed("08:55"), KEYS.tab, ...typed("2026-04-01"));
    await h.app.press(KEYS.tab, ...typed("17:00"), KEYS.tab, ..."Lunch 16:45-17:15".split(""), KEYS.enter);
    await h.app.waitFor("! The break Lunch ends at 17:15, after that end.");
    await h.app.press(...typed("lunch 12:00-12:30; Coffee 15:00-15:10"), KEYS.enter);
    await h.app.waitFor(`Added ${fullName(m)}'s shift of 2026-04-01 08:55–17:00.`);
    const shifts = await h.client.labor
      .searchShifts({
        query: {
          filter: {
            team_member_ids: [m.id ?? ""],
            start: { start_at: "2026-04-01T00:00:00Z", end_at: "2026-04-02T00:00:00Z" },
          },
        },
      })
      .all();
    expect(shifts).toHaveLength(1);
    const s = shifts[0];
    expect(new Date(s?.start_at ?? "").toISOString()).toBe("2026-04-01T12:55:00.000Z");
    expect(new Date(s?.end_at ?? "").toISOString()).toBe("2026-04-01T21:00:00.000Z");
    expect(s?.breaks?.map((b) => [b.name, b.is_paid, new Date(b.start_at).toISOString()])).toEqual([
      ["Lunch", false, "2026-04-01T16:00:00.000Z"],
      ["Coffee", true, "2026-04-01T19:00:00.000Z"],
    ]);
    // The member's wage travels with the shift, as with a clock-in.
    const wage = (await h.client.labor.listTeamMemberWages({ team_member_id: m.id ?? "" })).team_member_wages?.[0];
    expect(s?.wage?.hourly_rate).toEqual(wage?.hourly_rate);
  });
});

describe("time clock: a form that opens on a suggestion", () => {
  it("takes a date typed at once in place of today's, as a fast typist types it", async () => {
    const h = await start();
    const m = await clockedOutMember(h);
    await filterTo(h.app, fullName(m));
    await h.app.press("a");
    await h.app.waitFor(`Add a shift for ${fullName(m)}`);
    // Today's date is there, selected; the manager types another day straight away (no ctrl+u).
    await h.app.press(..."2026-04-02".split(""));
    const frame = await h.app.waitFor(/Start date: 2026-04-02 /);
    expect(frame).not.toMatch(/Start date: \d{4}-\d\d-\d\d2026-04-02/);
  });
});

describe("time clock: a refused form takes the manager to the field it is about", () => {
  it("add a shift: a bad start date typed, then the breaks; enter goes back to the date, and typing replaces it", async () => {
    const { h, m } = await openAddShift();
    // Today's date is selected: the typed date replaces it; a slip leaves a date that is not one.
    await h.app.press(..."2026-04-0".split(""), KEYS.tab, ..."08:55".split(""), KEYS.tab, ..."2026-04-01".split(""));
    await h.app.press(KEYS.tab, ..."17:00".split(""), KEYS.tab, ..."Lunch 12:00-12:30".split(""), KEYS.enter);
    await h.app.waitFor('! The start date "2026-04-0" is not a date (YYYY-MM-DD).');
    await h.app.waitFor(/› Start date:/);
    // No shift+tab: the fix typed straight away replaces the bad date.
    await h.app.press(..."2026-04-01".split(""));
    await h.app.waitFor(/› Start date:\s+2026-04-01 /);
    await h.app.press(KEYS.enter);
    await h.app.waitFor(`Added ${fullName(m)}'s shift of 2026-04-01 08:55–17:00.`);
  });

  it("add a shift: a break past the end goes to the breaks; an end not after the start stays put", async () => {
    const { h, m } = await openAddShift();
    await h.app.press(..."2026-04-01".split(""), KEYS.tab, ..."08:55".split(""), KEYS.tab, ..."2026-04-01".split(""));
    await h.app.press(KEYS.tab, ..."17:00".split(""), KEYS.tab, ..."Lunch 16:45-17:15".split(""));
    // Back to the end time, then enter: the problem is in the breaks, and the form goes there.
    await h.app.press(KEYS.up, KEYS.enter);
    await h.app.waitFor("! The break Lunch ends at 17:15, after that end.");
    await h.app.waitFor(/› Breaks:/);
    // An end before the start is about both: the focus stays on the field the manager is in.
    await h.app.press(KEYS.up, ..."08:00".split(""), KEYS.enter);
    await h.app.waitFor("! The end 08:00 is not after the start 08:55.");
    await h.app.waitFor(/› End time:\s+08:00/);
    await h.app.press(...typed("17:00"), KEYS.down, ..."Lunch 12:00-12:30".split(""), KEYS.enter);
    await h.app.waitFor(`Added ${fullName(m)}'s shift of 2026-04-01 08:55–17:00.`);
  });

  it("clock in at an earlier time: a bad date goes back to the date field from the time", async () => {
    const h = await start();
    const m = await clockedOutMember(h);
    await filterTo(h.app, fullName(m));
    await h.app.press("I");
    await h.app.waitFor(`Clock in ${fullName(m)} at an earlier time`);
    await h.app.press(..."2026-05-0".split(""), KEYS.tab, ..."14:40".split(""), KEYS.enter);
    await h.app.waitFor('! The start date "2026-05-0" is not a date (YYYY-MM-DD).');
    await h.app.press(..."2026-05-06".split(""), KEYS.enter);
    await h.app.waitFor(`${fullName(m)} clocked in at 14:40.`);
  });
});

describe("time clock: asking before a clock-out", () => {
  it("asks before clocking out a member on a break, ends the break then, and shows time on break over its length", async () => {
    const h = await start();
    const m = await clockedOutMember(h);
    const name = fullName(m);
    await filterTo(h.app, name);
    await h.app.press("i");
    await h.app.waitFor(`${name} clocked in at 15:00.`);
    h.advance(60);
    await h.app.press("b");
    await h.app.waitFor("Start a break for");
    // Lunch: 30 minutes expected.
    await h.app.press("j", KEYS.enter);
    await h.app.waitFor(/on break: Lunch since 16:00 .*\(unpaid\)/);
    h.advance(45);
    await h.app.waitFor("on break: Lunch since 16:00 · 45 min, 15 min over (unpaid)");
    await h.app.waitFor(/1 h 45 min/);
    await h.app.press("o");
    await h.app.waitFor(`${name} is on Lunch since 16:00. End the break at 16:45 and clock out?`);
    await h.app.press(KEYS.enter);
    await h.app.waitFor(`${name} clocked out at 16:45.`);
    const shift = (await h.client.labor.searchShifts({ query: { filter: { team_member_ids: [m.id ?? ""] } } }).all())
      .filter((s) => s.start_at >= "2026-05-06")
      .at(-1);
    expect(shift?.status).toBe("CLOSED");
    expect(shift?.breaks?.map((b) => [b.name, new Date(b.end_at ?? "").toISOString()])).toEqual([
      ["Lunch", "2026-05-06T20:45:00.000Z"],
    ]);
  });

  it("asks before clocking out a shift of two minutes, and Enter keeps the member on shift", async () => {
    const h = await start();
    const m = await clockedOutMember(h);
    const name = fullName(m);
    await filterTo(h.app, name);
    await h.app.press("i");
    await h.app.waitFor(`${name} clocked in at 15:00.`);
    h.advance(2);
    await h.app.press("o");
    await h.app.waitFor(`${name} clocked in at 15:00, only 2 min ago. Clock out anyway?`);
    // Enter is no; the review could still edit a clock-out, so the prompt does not call it final.
    await h.app.waitFor("enter: no (to be sure)");
    expect(h.app.frame()).not.toContain("cannot be undone");
    await h.app.press(KEYS.enter);
    await h.app.waitFor((f) => !f.includes("Clock out anyway?"));
    expect((await openShifts(h)).some((s) => s.team_member_id === m.id)).toBe(true);
    await h.app.press("o");
    await h.app.waitFor("Clock out anyway?");
    await h.app.press("y");
    await h.app.waitFor(`${name} clocked out at 15:02.`);
    expect((await openShifts(h)).some((s) => s.team_member_id === m.id)).toBe(false);
  });
});

describe("time clock: people and data from elsewhere", () => {
  it("shows a member on shift at another location, and `i` explains instead of the service's refusal", async () => {
    const h = await start();
    const mei = h.members.find((m) => (m.assigned_locations?.location_ids ?? []).includes(h.harbour));
    if (!mei?.id) throw new Error("the demo has a member at both stores");
    // Clocked in at Harbour Dock at 09:00 its time, from its own terminal.
    const harbourTz = (await h.client.locations.listLocations()).locations?.find((l) => l.id === h.harbour)?.timezone;
    const nineThere = new Date(
      Date.parse("2026-05-06T09:00:00Z") -
        (new Date(new Date("2026-05-06T12:00:00Z").toLocaleString("en-US", { timeZone: harbourTz })).getTime() -
          new Date(new Date("2026-05-06T12:00:00Z").toLocaleString("en-US", { timeZone: "UTC" })).getTime()),
    );
    await h.client.labor.createShift({
      shift: { location_id: h.harbour, team_member_id: mei.id, start_at: nineThere.toISOString() },
    });
    await h.app.press("r");
    await filterTo(h.app, fullName(mei));
    // Harbour Dock's 09:00 is 12:00 at Main Street, where this screen is.
    await h.app.waitFor("on shift at Harbour Dock since 09:00 (12:00 here)");
    await h.app.press("i");
    await h.app.waitFor(`${fullName(mei)}: On shift at Harbour Dock since 09:00 (12:00 here); clock out there first.`);
    expect(h.app.frame()).not.toContain("BAD_REQUEST");
    await h.app.press("o");
    await h.app.waitFor(`${fullName(mei)} is on shift at Harbour Dock, not here; clock out there.`);
    // On a narrow terminal both times survive; the store's name is what is cut.
    h.app.stdout.resize(60, 32);
    await h.app.waitFor("since 09:00 (12:00 here) at Harb");
    h.app.stdout.resize(80, 32);
    await h.app.waitFor((f) => f.includes("09:00 (12:00 here)") && f.includes("Harbour"));
  });

  it("explains a clock-in refused because of a shift opened elsewhere, in words with the code on the details line", async () => {
    const h = await start();
    const m = await clockedOutMember(h);
    await filterTo(h.app, fullName(m));
    // Another terminal clocks the member in at Harbour Dock after this one read the team.
    await h.client.labor.createShift({
      shift: { location_id: h.harbour, team_member_id: m.id ?? "", start_at: "2026-05-06T18:30:00Z" },
    });
    await h.app.press("i");
    await h.app.waitFor(
      /On shift at Harbour Dock since \d\d:30 \(\d\d:30 here\); clock out there first\. \(changed elsewhere/,
    );
    // The code is on the details line (the frame cuts it at this width).
    await h.app.waitForStore((s) => s.status.kind !== "idle" && (s.status.details ?? "").includes("BAD_REQUEST"));
    // The list was read again: the row says where the member is now.
    await h.app.waitFor("on shift at Harbour Dock since");
  });

  it("explains a break type deleted in another terminal, and offers the ones left", async () => {
    const h = await start();
    const m = await clockedOutMember(h);
    await filterTo(h.app, fullName(m));
    await h.app.press("i");
    await h.app.waitFor("clocked in at 15:00.");
    await h.app.press("b");
    await h.app.waitFor("Start a break for");
    const coffee = (await h.client.labor.listBreakTypes({ location_id: h.main })).break_types?.find(
      (t) => t.break_name === "Coffee",
    );
    await h.client.labor.deleteBreakType(coffee?.id ?? "");
    await h.app.press(KEYS.enter);
    await h.app.waitFor(
      "The break type Coffee was deleted elsewhere, so it cannot start; the list is read again — pick another.",
    );
    await h.app.waitFor((f) => f.includes("Start a break for") && !f.includes("Coffee ·"));
    await h.app.press(KEYS.enter);
    await h.app.waitFor(`${fullName(m)} is on Lunch.`);
  });
});
