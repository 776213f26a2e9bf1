import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createService, type LocalService } from "../service/index.js";
import { createClient, type SquareClient } from "../square/index.js";
import { parseCommandLine } from "./args.js";
import { runShiftsExport, SHIFTS_EXPORT_SPEC, shiftsExportOptions } from "./shifts-export.js";

const home = mkdtempSync(join(tmpdir(), "backroom-export-home-"));
const env = { HOME: home, XDG_CONFIG_HOME: join(home, "config"), XDG_DATA_HOME: join(home, "data") };
function parseShiftsExportFlags(argv: string[]) {
  const parsed = parseCommandLine(SHIFTS_EXPORT_SPEC, argv);
  if (parsed === "help") throw new Error("help");
  return shiftsExportOptions(parsed, env);
}

const NOW = new Date("2026-05-06T19:00:00Z");
let svc: LocalService | undefined;
let client: SquareClient | undefined;
afterEach(async () => {
  await client?.close();
  await svc?.close();
});

function io() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const text = (s: PassThrough) => () => String(s.read() ?? "");
  return { io: { stdout, stderr, stdin: new PassThrough(), env }, out: text(stdout), err: text(stderr) };
}

describe("backroom shifts export", () => {
  it("checks its flags", () => {
    expect(() => parseShiftsExportFlags(["--from", "2026-02-30"])).toThrow(/--from must be a date/);
    expect(() => parseShiftsExportFlags(["--from", "2026-05-02", "--to", "2026-05-01"])).toThrow(/before/);
    expect(parseShiftsExportFlags(["--from", "2026-05-01"])).toEqual({
      from: "2026-05-01",
      to: "2026-05-01",
      location: undefined,
      out: { kind: "stdout" },
      target: { env: undefined, "base-url": undefined, db: undefined },
    });
    expect(parseShiftsExportFlags(["--env", "sandbox", "--out", "~/x.csv"])).toMatchObject({
      out: { kind: "file", path: join(home, "x.csv"), force: false },
      target: { env: "sandbox" },
    });
    expect(() => parseShiftsExportFlags(["--env", "moon"])).toThrow(/--env must be one of/);
  });

  it("writes one CSV row per shift of the location's workdays", async () => {
    let t = NOW.getTime();
    const clock = {
      now: () => new Date(t),
      set: (d: Date) => {
        t = d.getTime();
      },
      advance: (seconds: number) => {
        t += seconds * 1000;
      },
    };
    svc = createService({ clock });
    const url = await svc.listen();
    const c = createClient({ baseUrl: url, accessToken: svc.accessToken, maxRetries: 0 });
    client = c;
    const main = (await c.locations.listLocations()).locations?.find((l) => l.timezone === "America/New_York");
    const member = (
      await c.team.searchTeamMembers({ query: { filter: { location_ids: [main?.id ?? ""] } } }).all()
    ).find((m) => !m.is_owner);
    await c.labor.createShift({
      shift: {
        location_id: main?.id ?? "",
        team_member_id: member?.id ?? "",
        start_at: "2026-04-01T13:00:00Z",
        end_at: "2026-04-01T17:15:00Z",
        wage: { hourly_rate: { amount: 1800, currency: "USD" } },
      },
    });
    const out = join(mkdtempSync(join(tmpdir(), "backroom-")), "x.csv");
    const t1 = io();
    const code = await runShiftsExport(["--from", "2026-04-01", "--location", main?.name ?? "", "--out", out], t1.io, {
      open: async () => ({ client: c, close: async () => {} }),
      now: () => NOW,
    });
    expect(code).toBe(0);
    expect(t1.err()).toContain("wrote 1 shifts of Main Street, 2026-04-01, to");
    expect(readFileSync(out, "utf8")).toBe(
      "member,date,start,end,breaks,paid hours,wage,cost,currency\r\n" +
        `${member?.given_name} ${member?.family_name},2026-04-01,09:00,13:15,,4.25,18.00,76.50,USD\r\n`,
    );
    const t2 = io();
    expect(
      await runShiftsExport(["--from", "2026-04-01", "--location", "Nowhere"], t2.io, {
        open: async () => ({ client: c, close: async () => {} }),
      }),
    ).toBe(2);
    expect(t2.err()).toContain('no location "Nowhere"');
  });
});
