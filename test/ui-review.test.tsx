// The review as a store manager uses it, driven by keys against the local service: weeks and pay
// periods, overtime and regular figures, shifts without a wage, deleting and editing shifts with
// their breaks, a conflict that keeps what the manager typed, and an export that asks first.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { formatMoney } from "../src/domain/money.js";
import type { Shift, TeamMember } from "../src/square/index.js";
import { KEYS } from "./helpers/app.js";
import { fullName, type LaborHarness, startLaborApp, typed } from "./helpers/labor-app.js";

/** Dollars as the screens write them: `1,019.00 USD`. */
const usd = (dollars: number) => formatMoney({ amount: Math.round(dollars * 100), currency: "USD" });

let current: LaborHarness | undefined;
afterEach(async () => {
  await current?.app.close();
  current = undefined;
});
async function start(opts: Parameters<typeof startLaborApp>[0] = {}) {
  current = await startLaborApp(opts);
  return current;
}

const WEEK = ["2026-03-30", "2026-03-31", "2026-04-01", "2026-04-02", "2026-04-03"];

/**
 * The week of Monday 30 March, before the demo history: Ana works five 9-hour days at 20.00
 * (45 h, Friday's shift crosses 40); Bo has a night shift created by another client with no
 * wage, and one created with none at all (the service then records his job's title); Cy has a
 * mistaken 0-minute shift.
 */
async function seedWeek(h: LaborHarness) {
  const staff = h.members.filter((m) => !m.is_owner && m.assigned_locations?.location_ids?.length === 1);
  const [ana, bo, cy] = staff as [TeamMember, TeamMember, TeamMember];
  const ids: Record<string, string> = {};
  for (const day of WEEK) {
    const { shift } = await h.client.labor.createShift({
      shift: {
        location_id: h.main,
        team_member_id: ana.id ?? "",
        start_at: `${day}T12:00:00Z`,
        end_at: `${day}T21:00:00Z`,
        wage: { title: "Sales Associate", hourly_rate: { amount: 2000, currency: "USD" } },
      },
    });
    ids[`ana ${day}`] = shift?.id ?? "";
  }
  await h.client.labor.createShift({
    shift: {
      location_id: h.main,
      team_member_id: bo.id ?? "",
      start_at: "2026-04-03T23:00:00Z",
      end_at: "2026-04-04T07:00:00Z",
      wage: { title: "Night cover", hourly_rate: { amount: 0, currency: "USD" } },
    },
  });
  await h.client.labor.createShift({
    shift: {
      location_id: h.main,
      team_member_id: bo.id ?? "",
      start_at: "2026-04-01T13:00:00Z",
      end_at: "2026-04-01T17:00:00Z",
    },
  });
  const zero = await h.client.labor.createShift({
    shift: {
      location_id: h.main,
      team_member_id: cy.id ?? "",
      start_at: "2026-04-01T06:44:00Z",
      end_at: "2026-04-01T06:44:00Z",
    },
  });
  ids.zero = zero.shift?.id ?? "";
  const boWage = (await h.client.labor.listTeamMemberWages({ team_member_id: bo.id ?? "" })).team_member_wages?.[0];
  return { ana, bo, cy, ids, boRate: boWage?.hourly_rate?.amount ?? 0 };
}

/** Opens the review and steps back with `{` to the week of 30 March. */
async function openSeededWeek(h: LaborHarness) {
  await h.app.press("2", "t");
  await h.app.waitFor("Workday 2026-05-06");
  await h.app.press("{");
  await h.app.waitFor("Week 2026-04-27 → 2026-05-03");
  await h.app.press("{", "{", "{", "{");
  return h.app.waitFor((f) => f.includes("Week 2026-03-30 → 2026-04-05") && f.includes("Total: 8 shifts"));
}

const line = (frame: string, text: string) => frame.split("\n").find((l) => l.includes(text)) ?? "";

describe("review: weeks, overtime and wages", () => {
  it("steps by workweek and by day, and shows overtime and the no-wage flag in words", async () => {
    const h = await start({ columns: 140 });
    const { ana, bo, boRate } = await seedWeek(h);
    const f = await openSeededWeek(h);
    expect(f).toContain("overtime over 40 h/week at 1.5× · pay period weekly");
    // Ana: 45 h, 40 regular at 20.00 and 5 overtime at 30.00.
    expect(line(f, fullName(ana))).toMatch(/5\s+45\.00\s+0\.00\s+40\.00\s+5\.00\s+950\.00 USD\s+>40h wk/);
    // Bo: 12 h; the night shift has no wage (not costed, flagged); the other is costed at his wage.
    const boCost = ((4 * boRate) / 100).toFixed(2);
    expect(line(f, fullName(bo))).toMatch(
      new RegExp(`2\\s+12\\.00\\s+0\\.00\\s+12\\.00\\s+0\\.00\\s+${boCost} USD\\s+1 no wage`),
    );
    expect(f).toContain(
      `Total: 8 shifts · paid 57.00 h · cost ${usd(950 + Number(boCost))} · 1 without wage, not costed`,
    );
    expect(f).toContain(`Regular 52.00 h, ${usd(800 + Number(boCost))} · overtime 5.00 h, 150.00 USD`);

    // Ana's shifts: dates shown, >40h on Friday (where the week crosses 40), not on Monday.
    await h.app.press(KEYS.enter);
    const shifts = await h.app.waitFor("Fri 04-03");
    expect(line(shifts, "Mon 03-30")).toMatch(/08:00–17:00\s+0m\s+9\.00\s+180\.00 USD\s+over 8 h$/);
    expect(line(shifts, "Fri 04-03")).toMatch(/08:00–17:00\s+0m\s+9\.00\s+5\.00\s+230\.00 USD\s+>40h over 8 h$/);
    await h.app.press(KEYS.escape);

    // All shifts: Bo's night shift ends the next day, with no wage.
    await h.app.press("s");
    const all = await h.app.waitFor("Start–End");
    expect(line(all, "19:00–04-04 03:00")).toMatch(/Fri 04-03\s+19:00–04-04 03:00\s+0m\s+8\.00\s+no wage\s+no wage$/);
    await h.app.press("s");

    // Days step with [ and ]; weeks with } from the day's workweek.
    await h.app.press("}");
    await h.app.waitFor("Week 2026-04-06 → 2026-04-12");
    await h.app.press("{");
    await h.app.waitFor("Week 2026-03-30 → 2026-04-05");
    await h.app.press("]");
    await h.app.waitFor("Workdays 2026-03-31 → 2026-04-06");
    await h.app.press("[", "[");
    await h.app.waitFor("Workdays 2026-03-29 → 2026-04-04");
  });

  it("follows the config's overtime rules and pay period, and filters by member with /", async () => {
    const h = await start({
      columns: 140,
      store: {
        overtime: { weeklyHours: 40, dailyHours: 8, multiplier: 2, doubleTimeDailyHours: undefined },
        payPeriod: { every: "two-weeks", startingOn: "2026-03-30" },
      },
    });
    const { ana, bo } = await seedWeek(h);
    await h.app.press("2");
    await h.app.waitFor("overtime over 8 h/day or 40 h/week at 2× · pay period every two weeks from 2026-03-30");
    // p: the title says it is the pay period; `.` goes back to this workweek.
    await h.app.press("p");
    await h.app.waitFor("Pay period 2026-04-27 → 2026-05-10");
    await h.app.press(".");
    await h.app.waitFor("Week 2026-05-04 → 2026-05-10");
    const f = await openSeededWeek(h);
    // Each 9-hour day is 1 hour over the daily limit: 40 regular, 5 overtime at 2×.
    expect(line(f, fullName(ana))).toMatch(/5\s+45\.00\s+0\.00\s+40\.00\s+5\.00\s+1,000\.00 USD\s+>8h 5d/);
    await h.app.press("/", ...(ana.family_name ?? "").split(""), KEYS.enter);
    const filtered = await h.app.waitFor(`filter "${ana.family_name}"`);
    expect(filtered).toContain(fullName(ana));
    expect(filtered).not.toContain(fullName(bo));
    // The totals are those of the members shown.
    expect(filtered).toContain("Total: 5 shifts · paid 45.00 h · cost 1,000.00 USD");
    expect(filtered).toContain("Regular 40.00 h, 800.00 USD · overtime 5.00 h, 200.00 USD");
    await h.app.press("s");
    await h.app.waitFor((fr) => fr.includes("Start–End") && fr.includes("Total: 5 shifts"));
    await h.app.press("s", KEYS.escape);
    await h.app.waitFor((fr) => fr.includes(fullName(bo)) && !fr.includes('filter "'));
  });
});

/**
 * Mei's week of 30 March: 24 h at Main Street, 20 h at Harbour Dock, then 4 h at Main Street;
 * the review opened on that week at Main Street.
 */
async function seedMeiAtTwoStores(h: LaborHarness) {
  const mei = h.members.find((m) => m.given_name === "Mei") as TeamMember;
  const work = (location_id: string, start: string, hours: number) =>
    h.client.labor.createShift({
      shift: {
        location_id,
        team_member_id: mei.id ?? "",
        start_at: start,
        end_at: new Date(Date.parse(start) + hours * 3_600_000).toISOString(),
        wage: { title: "Key Holder", hourly_rate: { amount: 2000, currency: "USD" } },
      },
    });
  for (const day of ["2026-03-30", "2026-03-31", "2026-04-01"]) await work(h.main, `${day}T13:00:00Z`, 8);
  for (const day of ["2026-04-02", "2026-04-03"]) await work(h.harbour, `${day}T16:00:00Z`, 10);
  await work(h.main, "2026-04-04T14:00:00Z", 4);
  await h.app.press("2", "t");
  await h.app.waitFor("Workday 2026-05-06");
  await h.app.press("{", "{", "{", "{", "{");
  await h.app.waitFor((f) => f.includes("Week 2026-03-30 → 2026-04-05") && f.includes("Total: 4 shifts"));
  return mei;
}

describe("review: overtime across stores", () => {
  it("counts a member's hours at the other store, says so, and shows all locations from the picker", async () => {
    const h = await start({ columns: 150 });
    const mei = await seedMeiAtTwoStores(h);
    // At Main Street: 28 h, of which the last 4 are over 40 because of the 20 at Harbour Dock.
    const main = await h.app.waitFor(fullName(mei));
    expect(line(main, fullName(mei))).toMatch(
      /4\s+28\.00\s+0\.00\s+24\.00\s+4\.00\s+600\.00 USD\s+>40h wk OT 4\.00h from other stores/,
    );
    const rows = main.split("\n").filter((l) => /^[ ›]/.test(l) && l.includes("USD"));
    await h.app.press(...Array(rows.findIndex((l) => l.includes(fullName(mei)))).fill("j"), KEYS.enter);
    await h.app.waitFor("also 20.00 h at Harbour Dock (counted toward overtime)");
    expect(line(h.app.frame(), "Sat 04-04")).toContain("OT: other stores");
    await h.app.press(KEYS.escape);

    // All locations, from the picker: one row per member across both stores, the store of each shift.
    await h.app.press("L");
    await h.app.waitFor("All locations every store together");
    await h.app.press(KEYS.enter);
    await h.app.waitFor(
      (f) => f.startsWith("All locations") && f.includes("all locations · days start 04:00 in each store"),
    );
    // 48 h: 40 regular at 20.00 and 8 over at 30.00 (4 at each store); nothing is "elsewhere" here.
    const all = await h.app.waitFor((f) => line(f, fullName(mei)).includes("1,040.00 USD"));
    expect(line(all, fullName(mei))).toMatch(/6\s+48\.00\s+0\.00\s+40\.00\s+8\.00\s+1,040\.00 USD\s+>40h wk$/);
    await h.app.press("s");
    const shifts = await h.app.waitFor("Store");
    expect(line(shifts, "Thu 04-02")).toContain("Harbour Dock");
    // The picker on a screen that shows one store at a time offers no "All locations", and says where it is.
    await h.app.press("1", "L");
    await h.app.waitFor("Location");
    expect(h.app.frame()).not.toContain("every store together");
    expect(h.app.frame()).toContain("All locations: not on this screen; on Review, Payouts, Gift cards");
    await h.app.press(KEYS.escape);
  });

  it("at 80 and 60 columns cuts no figure: the flags and the title drop words, never digits", async () => {
    const h = await start({ columns: 80 });
    const mei = await seedMeiAtTwoStores(h);
    const main = await h.app.waitFor(fullName(mei));
    // A figure cut mid-way (">40h wk OT 4.0…") reads as another number; fewer words keep it whole.
    const row = line(main, fullName(mei));
    expect(row).toMatch(/600\.00 USD\s+>40h OT 4\.00 h\s*$/);
    expect(main).not.toMatch(/\d…/);
    const rows = main.split("\n").filter((l) => /^[ ›]/.test(l) && l.includes("USD"));
    await h.app.press(...Array(rows.findIndex((l) => l.includes(fullName(mei)))).fill("j"), KEYS.enter);
    const shifts = await h.app.waitFor("Sat 04-04");
    const title = line(shifts, "Week 2026-03-30");
    // The shift's flag in fewer words, not cut ("OT: other…" at 80 columns before).
    expect(line(shifts, "Sat 04-04")).toMatch(/>40h elsewhere\s*$/);
    expect(title).toContain(`${fullName(mei)} · also 20.00 h at Harbour Dock`);
    expect(title).not.toMatch(/\d…/);
    h.app.stdout.resize(60, 24);
    const narrow = await h.app.waitFor((f) => !f.includes("also 20.00 h at Harbour Dock") && f.includes("Sat 04-04"));
    expect(line(narrow, "Week 2026-03-30")).toContain("Mei Chen +20.00 h elsewhere");
    expect(narrow).not.toMatch(/\d…/);
  });
});

/** The seeded week, the editor open on Ana's shift of Tuesday 2026-03-31. */
async function editAnasTuesday() {
  const h = await start({ columns: 140 });
  const { ana, ids } = await seedWeek(h);
  const id = ids["ana 2026-03-31"] ?? "";
  await openSeededWeek(h);
  await h.app.press(KEYS.enter, "j", KEYS.enter);
  await h.app.waitFor(`Edit ${fullName(ana)}'s shift of 2026-03-31`);
  return { h, ana, id };
}

describe("review: deleting and editing shifts", () => {
  it("deletes a mistaken 0-minute shift after asking; Enter alone answers no", async () => {
    const h = await start({ columns: 140 });
    const { cy, ids } = await seedWeek(h);
    await openSeededWeek(h);
    await h.app.press("s");
    const all = await h.app.waitFor("02:44–02:44");
    const rows = all.split("\n").filter((l) => /\d\d:\d\d–/.test(l));
    const at = rows.findIndex((l) => l.includes("02:44–02:44"));
    await h.app.press(...Array(at).fill("j"), "x");
    await h.app.waitFor(`Delete ${fullName(cy)}'s shift of 2026-04-01 02:44–02:44 (0 min)? It cannot be undone.`);
    await h.app.waitFor("enter: no (this cannot be undone)");
    await h.app.press(KEYS.enter);
    await h.app.waitFor((f) => !f.includes("It cannot be undone"));
    expect((await h.client.labor.getShift(ids.zero ?? "")).shift?.id).toBe(ids.zero);
    await h.app.press("x");
    await h.app.waitFor("It cannot be undone");
    await h.app.press("y");
    await h.app.waitFor(`Deleted ${fullName(cy)}'s shift of 2026-04-01 02:44.`);
    await h.app.waitFor((f) => !f.includes("02:44–02:44") && f.includes("Total: 7 shifts"));
    await expect(h.client.labor.getShift(ids.zero ?? "")).rejects.toMatchObject({ status: 404 });
  });

  it("adds, changes and removes breaks in the shift editor, and fixes a break that ended after the new end", async () => {
    const h = await start({ columns: 140 });
    const { ana, ids } = await seedWeek(h);
    const id = ids["ana 2026-03-30"] ?? "";
    const lunch = (await h.client.labor.listBreakTypes({ location_id: h.main })).break_types?.find(
      (t) => t.break_name === "Lunch",
    );
    // A Lunch break from 16:30 to 17:00 on Monday, recorded elsewhere.
    const before = (await h.client.labor.getShift(id)).shift as Shift;
    await h.client.labor.updateShift(id, {
      shift: {
        ...before,
        breaks: [
          {
            start_at: "2026-03-30T20:30:00Z",
            end_at: "2026-03-30T21:00:00Z",
            break_type_id: lunch?.id ?? "",
            name: "Lunch",
            expected_duration: "PT30M",
            is_paid: false,
          },
        ],
      },
    });
    await openSeededWeek(h);
    await h.app.press(KEYS.enter);
    await h.app.waitFor("Mon 03-30");
    await h.app.press(KEYS.enter);
    await h.app.waitFor(`Edit ${fullName(ana)}'s shift of 2026-03-30`);
    await h.app.waitFor(/Breaks:\s+Lunch 16:30-17:00/);
    // The end moves to 16:00: the break now ends after it — refused in the time clock's words.
    await h.app.press(KEYS.tab, KEYS.tab, KEYS.tab, ...typed("16:00"), KEYS.enter);
    await h.app.waitFor("! The break Lunch starts at 16:30, after that end.");
    // The problem is in the breaks: the form took the manager there, the breaks selected, so the
    // moved break typed at once (no tab, no ctrl+u) replaces them.
    await h.app.waitFor(/› Breaks:/);
    await h.app.press(..."Lunch 12:00-12:30".split(""), KEYS.enter);
    await h.app.waitFor(`Saved ${fullName(ana)}'s shift of 2026-03-30.`);
    let saved = (await h.client.labor.getShift(id)).shift;
    expect(new Date(saved?.end_at ?? "").toISOString()).toBe("2026-03-30T20:00:00.000Z");
    const lunchId = saved?.breaks?.[0]?.id;
    expect(saved?.breaks?.map((b) => [b.name, new Date(b.start_at).toISOString()])).toEqual([
      ["Lunch", "2026-03-30T16:00:00.000Z"],
    ]);

    // Change the lunch's times and add a coffee break.
    await h.app.press(KEYS.enter);
    await h.app.waitFor(/Breaks:\s+Lunch 12:00-12:30/);
    await h.app.press(KEYS.up, ...typed("Lunch 12:15-12:45; Coffee 15:00-15:10"), KEYS.enter);
    await h.app.waitFor(/Mon 03-30\s+08:00–16:00\s+40m\s+7\.50/);
    saved = (await h.client.labor.getShift(id)).shift;
    expect(saved?.breaks?.map((b) => [b.id === lunchId, b.name, new Date(b.start_at).toISOString()])).toEqual([
      [true, "Lunch", "2026-03-30T16:15:00.000Z"],
      [false, "Coffee", "2026-03-30T19:00:00.000Z"],
    ]);

    // Remove both.
    await h.app.press(KEYS.enter);
    await h.app.waitFor(/Breaks:\s+Lunch 12:15-12:45; Coffee 15:00-15:10/);
    await h.app.press(KEYS.up, "\u0015", KEYS.enter);
    await h.app.waitFor(/Mon 03-30\s+08:00–16:00\s+0m\s+8\.00/);
    expect((await h.client.labor.getShift(id)).shift?.breaks ?? []).toEqual([]);
  });

  it("a bad end time typed before moving on to the breaks: enter goes back to the end time, typing replaces it", async () => {
    const { h, ana, id } = await editAnasTuesday();
    await h.app.press(KEYS.tab, KEYS.tab, KEYS.tab, ..."1600".split(""), KEYS.tab, KEYS.enter);
    await h.app.waitFor('! The end time "1600" is not a time (HH:MM).');
    await h.app.waitFor(/› End time:\s+1600/);
    await h.app.press(..."15:00".split(""), KEYS.enter);
    await h.app.waitFor(`Saved ${fullName(ana)}'s shift of 2026-03-31.`);
    const saved = (await h.client.labor.getShift(id)).shift;
    expect(new Date(saved?.end_at ?? "").toISOString()).toBe("2026-03-31T19:00:00.000Z");
  });

  it("keeps the manager's typed values after a version conflict and saves them over the new version", async () => {
    const { h, ana, id } = await editAnasTuesday();
    expect(h.app.frame()).not.toMatch(/version/i);
    // Meanwhile another terminal moves the end to 16:00.
    const theirs = (await h.client.labor.getShift(id)).shift as Shift;
    await h.client.labor.updateShift(id, { shift: { ...theirs, end_at: "2026-03-31T20:00:00Z" } });
    await h.app.press(KEYS.tab, KEYS.tab, KEYS.tab, ...typed("15:00"), KEYS.enter);
    const f = await h.app.waitFor("Someone else changed it first: now 08:00–16:00. Your values are kept");
    expect(f).toMatch(/End time:\s+15:00/);
    expect(f).not.toMatch(/version \d/);
    await h.app.press(KEYS.enter);
    await h.app.waitFor(`Saved ${fullName(ana)}'s shift of 2026-03-31.`);
    const saved = (await h.client.labor.getShift(id)).shift;
    expect(new Date(saved?.end_at ?? "").toISOString()).toBe("2026-03-31T19:00:00.000Z");
  });
});

describe("review: the workdays form", () => {
  it("stops ] and } at today: days to come have no shifts, and the status says so", async () => {
    const h = await start();
    await h.app.press("2", "t");
    await h.app.waitFor("Workday 2026-05-06");
    await h.app.press("]");
    await h.app.waitFor("Thu 2026-05-07 has not come yet (today is Wed 2026-05-06).");
    expect(h.app.frame()).toContain("Workday 2026-05-06");
    // The next workweek starts on Monday 2026-05-11: after today, so } stays too.
    await h.app.press("}");
    await h.app.waitFor("Mon 2026-05-11 has not come yet (today is Wed 2026-05-06).");
    expect(h.app.frame()).toContain("Workday 2026-05-06");
    // Back in time the keys move as before, and forward again up to today.
    await h.app.press("[");
    await h.app.waitFor("Workday 2026-05-05");
    await h.app.press("]");
    await h.app.waitFor("Workday 2026-05-06");
  });

  it("a bad from date refused from the To field takes the manager back to From, typing replaces it", async () => {
    const h = await start();
    await h.app.press("2", "d");
    await h.app.waitFor("Workdays to review");
    await h.app.press("\u0015", ..."2026-05-0".split(""), KEYS.tab, ..."2026-05-06".split(""), KEYS.enter);
    await h.app.waitFor("! Dates are YYYY-MM-DD.");
    await h.app.waitFor(/› From: +2026-05-0 /);
    await h.app.press(..."2026-05-04".split(""), KEYS.enter);
    await h.app.waitFor("2026-05-04 → 2026-05-06");
  });
});

describe("review: export", () => {
  it("exports with the location in the file name, asks before replacing a file, and writes the weekly summary", async () => {
    const h = await start({ columns: 140 });
    const { ana } = await seedWeek(h);
    await openSeededWeek(h);
    await h.app.press("e");
    await h.app.waitFor("shifts-main-street-2026-03-30-to-2026-04-05.csv");
    const dir = mkdtempSync(join(tmpdir(), "backroom-review-"));
    const out = join(dir, "week.csv");
    writeFileSync(out, "mine");
    await h.app.press(...typed(out), KEYS.tab, ...typed("y"), KEYS.enter);
    await h.app.waitFor(`${out} is already there. Replace it?`);
    // Replacing is irreversible: enter answers no, and the keys go back to the list.
    await h.app.press(KEYS.enter);
    await h.app.waitFor(`Nothing written: ${out} is kept as it was.`);
    expect(h.app.frame()).not.toContain("Write CSV to");
    expect(readFileSync(out, "utf8")).toBe("mine");
    await h.app.press("e");
    await h.app.waitFor("Write CSV to");
    await h.app.press("\u0015", ...typed(out), KEYS.tab, ...typed("y"), KEYS.enter);
    await h.app.waitFor("Replace it?");
    await h.app.press("y");
    await h.app.waitFor(`Wrote 8 shifts to ${out}`);
    const csv = readFileSync(out, "utf8").split("\r\n");
    expect(csv[0]).toMatch(/^location,member,job title,start date,start time,end date,end time,time zone,workday/);
    expect(csv).toContain(
      `Main Street,${fullName(ana)},Sales Associate,2026-04-03,08:00,2026-04-03,17:00,America/New_York,2026-04-03,closed,9.00,0.00,4.00,5.00,20.00,230.00,USD,over 8 h`,
    );
    const summary = readFileSync(join(dir, "week-summary.csv"), "utf8").split("\r\n");
    expect(summary).toContain(
      `Main Street,${fullName(ana)},2026-03-30,2026-04-05,5,45.00,0.00,40.00,5.00,800.00,150.00,950.00,USD,`,
    );
  });

  it("a path whose folder is not there, or a summary answer neither y nor n, takes the manager back to that field", async () => {
    const h = await start({ columns: 140 });
    await seedWeek(h);
    await openSeededWeek(h);
    await h.app.press("e");
    await h.app.waitFor("Write CSV to");
    const dir = mkdtempSync(join(tmpdir(), "backroom-review-"));
    await h.app.press(...typed(join(dir, "no-such-folder", "week.csv")), KEYS.tab, ...typed("n"), KEYS.enter);
    await h.app.waitFor("! The file was not written: its folder does not exist.");
    const out = join(dir, "week.csv");
    // A summary answer that is neither y nor n, refused from the path: back to it, selected.
    await h.app.press(...typed(out), KEYS.tab, ...typed("maybe"), KEYS.shiftTab, KEYS.enter);
    await h.app.waitFor("! Weekly summary is y or n.");
    await h.app.waitFor(/› Weekly summary: +maybe/);
    await h.app.press(...typed("n"), KEYS.enter);
    await h.app.waitFor(`Wrote 8 shifts to ${out}`);
  });
});
