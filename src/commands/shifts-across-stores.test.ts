// The shifts commands for a member who works at both demo stores: overtime counts all of her
// hours, falls where the hours past the limit were worked, and `--location all` sums her weeks
// across stores. The figures are the hand-worked table of src/domain/review.test.ts.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIo } from "../../test/auth-helpers.js";
import { zonedInstant } from "../domain/time.js";
import { createClock } from "../service/clock.js";
import { createService, type LocalService } from "../service/index.js";
import { DEMO } from "../service/seed/demo-ids.js";
import { createClient, type SquareClient } from "../square/index.js";
import { runShiftsExport } from "./shifts-export.js";
import { runShiftsList } from "./shifts-list.js";

const home = mkdtempSync(join(tmpdir(), "backroom-stores-home-"));
const env = { HOME: home, XDG_CONFIG_HOME: join(home, "config"), XDG_DATA_HOME: join(home, "data") };
// The demo store's shifts are the 14 days before now: the weeks below have only Mei's.
const NOW = new Date("2026-06-01T12:00:00Z");
/** Mei Chen, who works at Main Street and Harbour Dock in the demo team. */
const MEI = "TMDEMO0007";

const io = (withEnv: Record<string, string> = env) => {
  const cap = captureIo(withEnv);
  return { io: cap.io, out: cap.stdout, err: cap.stderr };
};

describe("shifts of a member at two stores", () => {
  let svc: LocalService;
  let client: SquareClient;
  const deps = { open: async () => ({ client, close: async () => {} }), now: () => NOW };

  const work = async (store: "main" | "dock", date: string, from: string, to: string) => {
    const main = store === "main";
    const tz = main ? DEMO.mainTimezone : DEMO.secondTimezone;
    await client.labor.createShift({
      shift: {
        location_id: main ? DEMO.mainLocationId : DEMO.secondLocationId,
        team_member_id: MEI,
        start_at: zonedInstant(date, from, tz).toISOString(),
        end_at: zonedInstant(date, to, tz).toISOString(),
        wage: { title: "Key Holder", hourly_rate: { amount: main ? 2000 : 2400, currency: "USD" } },
      },
    });
  };

  beforeAll(async () => {
    const clock = createClock();
    clock.set(NOW);
    svc = createService({ clock });
    const url = await svc.listen(0, "127.0.0.1");
    client = createClient({ baseUrl: url, accessToken: svc.accessToken, maxRetries: 0 });
    // The week of Monday 30 March: 24 h at Main Street, 20 h at Harbour Dock, 4 h at Main Street.
    for (const date of ["2026-03-30", "2026-03-31", "2026-04-01"]) await work("main", date, "09:00", "17:00");
    for (const date of ["2026-04-02", "2026-04-03"]) await work("dock", date, "09:00", "19:00");
    await work("main", "2026-04-04", "10:00", "14:00");
    // Monday 6 April: 5 h at Main Street in the morning, 4 h at Harbour Dock in the afternoon.
    await work("main", "2026-04-06", "07:00", "12:00");
    await work("dock", "2026-04-06", "10:00", "14:00");
  });
  afterAll(async () => {
    await client.close();
    await svc.close();
  });

  const HEADER =
    "location,member,week start,week end,shifts,paid hours,unpaid break hours,regular hours,overtime hours,regular cost,overtime cost,cost,currency,flags";

  it("export --summary --location all: one row per week across stores, as worked by hand", async () => {
    const dir = mkdtempSync(join(tmpdir(), "backroom-stores-"));
    const out = join(dir, "week.csv");
    const t = io();
    const argv = ["--from", "2026-03-30", "--to", "2026-04-05", "--location", "all", "--summary", "--out", out];
    expect(await runShiftsExport(argv, t.io, deps)).toBe(0);
    expect(readFileSync(join(dir, "week-summary.csv"), "utf8").split("\r\n")).toEqual([
      HEADER,
      "Harbour Dock; Main Street,Mei Chen,2026-03-30,2026-04-05,6,48.00,0.00,40.00,8.00,864.00,264.00,1128.00,USD,",
      "",
    ]);
    // The shifts file names each shift's store and its own local times (nothing is "elsewhere" here).
    const shifts = readFileSync(out, "utf8").split("\r\n");
    expect(shifts.filter((l) => l.startsWith("Harbour Dock,Mei Chen,Key Holder,2026-04-03,09:00"))).toEqual([
      "Harbour Dock,Mei Chen,Key Holder,2026-04-03,09:00,2026-04-03,19:00,America/Los_Angeles,2026-04-03,closed,10.00,0.00,6.00,4.00,24.00,288.00,USD,over 8 h",
    ]);
    expect(t.err()).toContain("wrote 6 shifts of All locations, 2026-03-30 to 2026-04-05");
  });

  it("each store's own export costs the overtime that fell there, and says it comes from the other store", async () => {
    const summary = async (location: string) => {
      const dir = mkdtempSync(join(tmpdir(), "backroom-stores-"));
      const argv = ["--to", "2026-04-05", "--location", location, "--summary", "--out", join(dir, "w.csv")];
      expect(await runShiftsExport(argv, io().io, deps)).toBe(0);
      return readFileSync(join(dir, "w-summary.csv"), "utf8").split("\r\n")[1];
    };
    expect(await summary("main street")).toBe(
      "Main Street,Mei Chen,2026-03-30,2026-04-05,4,28.00,0.00,24.00,4.00,480.00,120.00,600.00,USD,4.00 h overtime from hours at other stores",
    );
    expect(await summary("Harbour Dock")).toBe(
      "Harbour Dock,Mei Chen,2026-03-30,2026-04-05,2,20.00,0.00,16.00,4.00,384.00,144.00,528.00,USD,4.00 h overtime from hours at other stores",
    );
  });

  it("list --summary --location all --json gives the same week as records", async () => {
    const t = io();
    const argv = ["--to", "2026-04-05", "--location", "ALL", "--summary", "--json"];
    expect(await runShiftsList(argv, t.io, deps)).toBe(0);
    expect(JSON.parse(t.out())).toEqual([
      {
        team_member_id: MEI,
        member: "Mei Chen",
        week_start: "2026-03-30",
        week_end: "2026-04-05",
        location_ids: [DEMO.secondLocationId, DEMO.mainLocationId],
        locations: ["Harbour Dock", "Main Street"],
        shifts: 6,
        paid_hours: 48,
        regular_hours: 40,
        overtime_hours: 8,
        overtime_from_other_stores_hours: 0,
        regular_cost: { amount: 86400, currency: "USD" },
        overtime_cost: { amount: 26400, currency: "USD" },
        cost: { amount: 112800, currency: "USD" },
        no_wage_shifts: 0,
        open_shifts: 0,
      },
    ]);
  });

  it("counts the workday's hours at both stores toward a daily limit from the config file", async () => {
    const cfg = mkdtempSync(join(tmpdir(), "backroom-stores-cfg-"));
    mkdirSync(join(cfg, "backroom"));
    writeFileSync(join(cfg, "backroom", "config.json"), JSON.stringify({ overtime: { dailyHours: 8 } }));
    const records = async (location: string) => {
      const t = io({ ...env, XDG_CONFIG_HOME: cfg });
      expect(await runShiftsList(["--from", "2026-04-06", "--location", location, "--json"], t.io, deps)).toBe(0);
      return JSON.parse(t.out()) as { location: string; regular_hours: number; overtime_hours: number }[];
    };
    expect((await records("main street")).map((r) => [r.location, r.regular_hours, r.overtime_hours])).toEqual([
      ["Main Street", 5, 0],
    ]);
    const dock = await records("harbour dock");
    expect(dock).toMatchObject([
      {
        location: "Harbour Dock",
        workday: "2026-04-06",
        regular_hours: 3,
        overtime_hours: 1,
        overtime_from_other_stores_hours: 1,
        regular_cost: { amount: 7200 },
        overtime_cost: { amount: 3600 },
      },
    ]);
    expect((await records("all")).map((r) => r.location).sort()).toEqual(["Harbour Dock", "Main Street"]);
  });

  it("prints the stores in the table for all locations", async () => {
    const t = io();
    expect(await runShiftsList(["--to", "2026-04-05", "--location", "all"], t.io, deps)).toBe(0);
    const text = t.out();
    expect(text).toMatch(/^member\s+location\s+workday/);
    expect(text).toMatch(/Mei Chen\s+Harbour Dock\s+2026-04-03\s+09:00–19:00\s+10\.00\s+6\.00\s+4\.00\s+288\.00 USD/);
    expect(text).toContain("All locations · 2026-03-30 to 2026-04-05 · each store's time zone");
  });
});
