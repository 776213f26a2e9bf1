import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportFileName } from "../domain/csv.js";
import { createClock } from "../service/clock.js";
import { createService, type LocalService } from "../service/index.js";
import type { Location, TeamMember } from "../spec/generated/types.js";
import { createClient, type SquareClient } from "../square/index.js";
import { parseCommandLine } from "./args.js";
import { runShiftsExport, SHIFTS_EXPORT_SPEC, shiftsExportOptions } from "./shifts-export.js";
import { runShiftsList, SHIFTS_LIST_SPEC, shiftsListOptions } from "./shifts-list.js";

const home = mkdtempSync(join(tmpdir(), "backroom-export-home-"));
const env = { HOME: home, XDG_CONFIG_HOME: join(home, "config"), XDG_DATA_HOME: join(home, "data") };
const NOW = new Date("2026-05-06T19:00:00Z");

function exportOptions(argv: string[]) {
  const parsed = parseCommandLine(SHIFTS_EXPORT_SPEC, argv);
  if (parsed === "help") throw new Error("help");
  return shiftsExportOptions(parsed, env);
}

function io(withEnv: Record<string, string> = env) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const text = (s: PassThrough) => () => String(s.read() ?? "");
  return { io: { stdout, stderr, stdin: new PassThrough(), env: withEnv }, out: text(stdout), err: text(stderr) };
}

describe("the shifts commands' flags", () => {
  it("reads the range: --from alone is one day, --to alone the week ending on it", () => {
    expect(exportOptions(["--from", "2026-05-01"]).range).toEqual({ from: "2026-05-01", to: "2026-05-01" });
    expect(exportOptions(["--to", "2026-05-10"]).range).toEqual({ from: "2026-05-04", to: "2026-05-10" });
    expect(exportOptions([]).range).toBeUndefined();
    expect(() => exportOptions(["--from", "2026-02-30"])).toThrow(/--from must be a date YYYY-MM-DD, not "2026-02-30"/);
    expect(() => exportOptions(["--to", "10/05/2026"])).toThrow(/--to must be a date/);
    expect(() => exportOptions(["--from", "2026-05-02", "--to", "2026-05-01"])).toThrow(
      "--to 2026-05-01 is before --from 2026-05-02",
    );
  });

  it("writes to a file named after the location by default, and refuses what cannot go to stdout", () => {
    // The one default of every export: the data folder's exports/.
    expect(exportOptions([]).out).toEqual({ kind: "folder", path: join(home, "data", "backroom", "exports") });
    expect(exportOptions(["--out", "~/x.csv"]).out).toEqual({ kind: "file", path: join(home, "x.csv") });
    expect(exportOptions(["--out", "~/reports/"]).out).toEqual({ kind: "folder", path: join(home, "reports") });
    expect(exportOptions(["--out", "-"]).out).toEqual({ kind: "stdout" });
    expect(() => exportOptions(["--out", "-", "--force"])).toThrow(/--force only applies to a file/);
    expect(() => exportOptions(["--out", "-", "--summary"])).toThrow(/--summary writes a second file/);
    expect(() => exportOptions(["--env", "moon"])).toThrow(/--env must be one of/);
    expect(exportFileName("Harbour Dock", "L2", "2026-05-04", "2026-05-10")).toBe(
      "shifts-harbour-dock-2026-05-04-to-2026-05-10.csv",
    );
    expect(exportFileName("Café Nord", "L3", "2026-05-04", "2026-05-04")).toBe("shifts-cafe-nord-2026-05-04.csv");
    expect(exportFileName("東京", "LX9", "2026-05-04", "2026-05-04")).toBe("shifts-lx9-2026-05-04.csv");
  });

  it("list takes one output format", () => {
    const list = (argv: string[]) => {
      const parsed = parseCommandLine(SHIFTS_LIST_SPEC, argv);
      if (parsed === "help") throw new Error("help");
      return shiftsListOptions(parsed);
    };
    expect(list(["--to", "2026-05-10", "--json"])).toMatchObject({
      range: { from: "2026-05-04", to: "2026-05-10" },
      format: "json",
    });
    expect(() => list(["--json", "--csv"])).toThrow(/--json and --csv cannot go together/);
  });
});

describe("backroom shifts export and list against the local service", () => {
  let svc: LocalService;
  let client: SquareClient;
  let main: Location;
  let member: TeamMember;
  let other: TeamMember;
  const open = async () => ({ client, close: async () => {} });
  const deps = { open, now: () => NOW };

  beforeAll(async () => {
    const clock = createClock();
    clock.set(NOW);
    svc = createService({ clock });
    const url = await svc.listen(0, "127.0.0.1");
    client = createClient({ baseUrl: url, accessToken: svc.accessToken, maxRetries: 0 });
    main = (await client.locations.listLocations()).locations?.find((l) => l.name === "Main Street") as Location;
    const team = await client.team.searchTeamMembers({ query: { filter: { location_ids: [main.id ?? ""] } } }).all();
    const staff = team.filter((m) => !m.is_owner);
    member = staff[0] as TeamMember;
    other = staff[1] as TeamMember;
    // Week of Monday 30 March: five 9-hour days for `member` (45 h: 5 over 40), one overnight
    // shift without a wage for `other`, created by "another client" (the service stores rate 0).
    for (const day of ["2026-03-30", "2026-03-31", "2026-04-01", "2026-04-02", "2026-04-03"]) {
      await client.labor.createShift({
        shift: {
          location_id: main.id ?? "",
          team_member_id: member.id ?? "",
          start_at: `${day}T12:00:00Z`,
          end_at: `${day}T21:00:00Z`,
          wage: { title: "Sales Associate", hourly_rate: { amount: 2000, currency: "USD" } },
        },
      });
    }
    await client.labor.createShift({
      shift: {
        location_id: main.id ?? "",
        team_member_id: other.id ?? "",
        start_at: "2026-04-03T23:00:00Z",
        end_at: "2026-04-04T07:00:00Z",
        wage: { title: "Night", hourly_rate: { amount: 0, currency: "USD" } },
      },
    });
  });
  afterAll(async () => {
    await client.close();
    await svc.close();
  });

  const name = (m: TeamMember) => `${m.given_name} ${m.family_name}`;

  it("writes the week ending on --to to a file named after the location, never over an existing one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "backroom-export-"));
    const t = io();
    expect(
      await runShiftsExport(["--to", "2026-04-05", "--location", "main street", "--out", `${dir}/`], t.io, deps),
    ).toBe(0);
    const file = join(dir, "shifts-main-street-2026-03-30-to-2026-04-05.csv");
    expect(t.err()).toBe(`wrote 6 shifts of Main Street, 2026-03-30 to 2026-04-05, to ${file}\n`);
    const lines = readFileSync(file, "utf8").split("\r\n");
    expect(lines[0]).toBe(
      "location,member,job title,start date,start time,end date,end time,time zone,workday,status,paid hours,unpaid break hours,regular hours,overtime hours,hourly rate,cost,currency,flags",
    );
    expect(lines).toContain(
      `Main Street,${name(member)},Sales Associate,2026-04-03,08:00,2026-04-03,17:00,America/New_York,2026-04-03,closed,9.00,0.00,4.00,5.00,20.00,230.00,USD,over 8 h`,
    );
    // The overnight shift with no wage: two dates, flagged, no 0.00.
    expect(lines).toContain(
      `Main Street,${name(other)},Night,2026-04-03,19:00,2026-04-04,03:00,America/New_York,2026-04-03,closed,8.00,0.00,8.00,0.00,,,,no wage`,
    );

    // Again: refused, exit 2, the file as it was.
    writeFileSync(file, "mine");
    const again = io();
    expect(await runShiftsExport(["--to", "2026-04-05", "--out", dir], again.io, deps)).toBe(2);
    expect(again.err()).toBe(`backroom shifts export: ${file} already exists; pass --force to overwrite it\n`);
    expect(readFileSync(file, "utf8")).toBe("mine");
    const forced = io();
    expect(await runShiftsExport(["--to", "2026-04-05", "--out", dir, "--force"], forced.io, deps)).toBe(0);
    expect(readFileSync(file, "utf8")).toMatch(/^location,member/);
  });

  it("writes into the data folder's exports/ without --out, making the folder, and names the whole path", async () => {
    const t = io();
    expect(await runShiftsExport(["--to", "2026-04-05", "--location", "main street"], t.io, deps)).toBe(0);
    const file = join(home, "data", "backroom", "exports", "shifts-main-street-2026-03-30-to-2026-04-05.csv");
    expect(t.err()).toBe(`wrote 6 shifts of Main Street, 2026-03-30 to 2026-04-05, to ${file}\n`);
    expect(readFileSync(file, "utf8")).toMatch(/^location,member/);
  });

  it("writes the weekly summary per member next to it with --summary, or neither file when one exists", async () => {
    const dir = mkdtempSync(join(tmpdir(), "backroom-export-"));
    const out = join(dir, "week.csv");
    writeFileSync(join(dir, "week-summary.csv"), "mine");
    const refused = io();
    expect(await runShiftsExport(["--to", "2026-04-05", "--out", out, "--summary"], refused.io, deps)).toBe(2);
    expect(refused.err()).toContain("week-summary.csv already exists; pass --force");
    expect(readdirSync(dir)).toEqual(["week-summary.csv"]);

    const t = io();
    expect(await runShiftsExport(["--to", "2026-04-05", "--out", out, "--summary", "--force"], t.io, deps)).toBe(0);
    const summary = readFileSync(join(dir, "week-summary.csv"), "utf8").split("\r\n");
    expect(summary[0]).toBe(
      "location,member,week start,week end,shifts,paid hours,unpaid break hours,regular hours,overtime hours,regular cost,overtime cost,cost,currency,flags",
    );
    expect(summary).toContain(
      `Main Street,${name(member)},2026-03-30,2026-04-05,5,45.00,0.00,40.00,5.00,800.00,150.00,950.00,USD,`,
    );
    expect(summary).toContain(
      `Main Street,${name(other)},2026-03-30,2026-04-05,1,8.00,0.00,8.00,0.00,,,,,1 shift without wage`,
    );
  });

  it("follows the config file's overtime rules", async () => {
    const cfgHome = mkdtempSync(join(tmpdir(), "backroom-cfg-"));
    mkdirSync(join(cfgHome, "backroom"));
    writeFileSync(
      join(cfgHome, "backroom", "config.json"),
      JSON.stringify({ overtime: { dailyHours: 8, multiplier: 2 } }),
    );
    const t = io({ ...env, XDG_CONFIG_HOME: cfgHome });
    expect(await runShiftsExport(["--from", "2026-03-30", "--out", "-"], t.io, deps)).toBe(0);
    // 9 hours on Monday: 8 regular, 1 over the daily limit at 2×.
    expect(t.out()).toContain(",9.00,0.00,8.00,1.00,20.00,200.00,USD,over 8 h");

    writeFileSync(join(cfgHome, "backroom", "config.json"), JSON.stringify({ overtime: { weeklyHours: "forty" } }));
    const bad = io({ ...env, XDG_CONFIG_HOME: cfgHome });
    expect(await runShiftsExport(["--from", "2026-03-30", "--out", "-"], bad.io, deps)).toBe(1);
    expect(bad.out()).toBe("");
    expect(bad.err()).toContain('field "overtime.weeklyHours" must be a number of hours, not "forty"');
  });

  it("list --json prints the records and nothing else; a bad location goes to stderr with exit 2", async () => {
    const t = io();
    expect(await runShiftsList(["--from", "2026-04-03", "--json"], t.io, deps)).toBe(0);
    expect(t.err()).toBe("");
    const records = JSON.parse(t.out());
    expect(records).toHaveLength(2);
    expect(records.find((r: { member: string }) => r.member === name(member))).toMatchObject({
      location: "Main Street",
      workday: "2026-04-03",
      status: "closed",
      paid_hours: 9,
      regular_hours: 4,
      overtime_hours: 5,
      rate_source: "shift",
      hourly_rate: { amount: 2000, currency: "USD" },
      regular_cost: { amount: 8000, currency: "USD" },
      overtime_cost: { amount: 15000, currency: "USD" },
      cost: { amount: 23000, currency: "USD" },
      flags: ["over 8 h"],
    });
    expect(records.find((r: { member: string }) => r.member === name(other))).toMatchObject({
      cost: null,
      hourly_rate: null,
      flags: ["no wage"],
    });

    const bad = io();
    expect(await runShiftsList(["--from", "2026-04-03", "--json", "--location", "Nowhere"], bad.io, deps)).toBe(2);
    expect(bad.out()).toBe("");
    expect(bad.err()).toMatch(/^backroom shifts list: no location "Nowhere"; there are: /);
  });

  it("list prints a table with regular and overtime totals, or the export's CSV", async () => {
    const t = io();
    expect(await runShiftsList(["--to", "2026-04-05"], t.io, deps)).toBe(0);
    const text = t.out();
    expect(text).toContain(
      "Main Street · 2026-03-30 to 2026-04-05 · America/New_York · overtime over 40 h/week at 1.5×",
    );
    expect(text).toContain(
      "6 shifts · paid 53.00 h (regular 48.00, overtime 5.00) · cost 950.00 USD (regular 800.00 USD, overtime 150.00 USD) · 1 without wage, not in the cost",
    );
    expect(text).toMatch(/2026-04-03\s+19:00–2026-04-04 03:00\s+8\.00\s+8\.00\s+0\.00\s+no wage/);
    const csv = io();
    expect(await runShiftsList(["--from", "2026-04-03", "--csv"], csv.io, deps)).toBe(0);
    expect(csv.out().split("\r\n")[0]).toMatch(/^location,member,job title,start date/);
  });
});
