// The demo store kept in the data folder: what is done on it survives a restart, a second
// backroom on the same file sees the first one's work, and `backroom demo reset` starts it over.
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runDemoReset } from "../src/commands/demo.js";
import { type OpenedClient, openTarget, resolveTarget } from "../src/commands/target.js";
import type { SquareClient } from "../src/square/index.js";
import { captureIo } from "./auth-helpers.js";

let dir: string;
let env: Record<string, string>;
const opened: OpenedClient[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "backroom-demo-"));
  env = { HOME: dir, XDG_DATA_HOME: join(dir, "data"), XDG_CONFIG_HOME: join(dir, "config") };
});
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
  await rm(dir, { recursive: true, force: true });
});

/** Starts backroom's demo store the way the app does: the default target, opened. */
async function start(flags: { db?: string } = {}): Promise<OpenedClient> {
  const o = await openTarget(resolveTarget(flags, env, {}), env);
  opened.push(o);
  return o;
}

async function stop(o: OpenedClient): Promise<void> {
  opened.splice(opened.indexOf(o), 1);
  await o.close();
}

/** Someone at the main location who is not on shift. */
async function offShift(client: SquareClient): Promise<{ location: string; member: string }> {
  const location = (await client.locations.listLocations()).locations?.[0]?.id ?? "";
  const open = await client.labor
    .searchShifts({ query: { filter: { location_ids: [location], status: "OPEN" } } })
    .all();
  const busy = new Set(open.map((s) => s.team_member_id));
  const members = await client.team.searchTeamMembers({ query: { filter: { location_ids: [location] } } }).all();
  const member = members.find((m) => m.id && !busy.has(m.id) && m.status === "ACTIVE")?.id ?? "";
  expect(member).not.toBe("");
  return { location, member };
}

const openShiftsOf = async (client: SquareClient, member: string) =>
  (await client.labor.searchShifts({ query: { filter: { team_member_ids: [member], status: "OPEN" } } }).all()).map(
    (s) => s.id,
  );

describe("the demo store in the data folder", () => {
  it("keeps a clock-in across a restart", async () => {
    const first = await start();
    const file = join(dir, "data", "backroom", "demo.db");
    expect(existsSync(file)).toBe(true);
    const { location, member } = await offShift(first.client);
    const created = await first.client.labor.createShift({
      shift: { location_id: location, team_member_id: member, start_at: new Date().toISOString() },
    });
    await stop(first);

    const again = await start();
    expect(await openShiftsOf(again.client, member)).toEqual([created.shift?.id]);
  });

  it("lets a second backroom on the same file see and change what the first did", async () => {
    const a = await start();
    const b = await start();
    const { location, member } = await offShift(a.client);
    const created = await a.client.labor.createShift({
      shift: { location_id: location, team_member_id: member, start_at: new Date(Date.now() - 60_000).toISOString() },
    });
    const shift = created.shift;
    expect(await openShiftsOf(b.client, member)).toEqual([shift?.id]);
    await b.client.labor.updateShift(shift?.id ?? "", {
      shift: { ...shift, location_id: location, start_at: shift?.start_at ?? "", end_at: new Date().toISOString() },
    });
    expect(await openShiftsOf(a.client, member)).toEqual([]);
  });

  it("is thrown away with --db :memory:", async () => {
    const o = await start({ db: ":memory:" });
    expect((await o.client.locations.listLocations()).locations?.length).toBeGreaterThan(0);
    expect(existsSync(join(dir, "data"))).toBe(false);
  });

  it("starts over with `backroom demo reset`, even while another backroom has it open", async () => {
    const open = await start();
    const { location, member } = await offShift(open.client);
    await open.client.labor.createShift({
      shift: { location_id: location, team_member_id: member, start_at: new Date().toISOString() },
    });
    const cap = captureIo(env);
    expect(await runDemoReset([], cap.io)).toBe(0);
    expect(cap.stdout()).toBe(`The demo store at ${join(dir, "data", "backroom", "demo.db")} was started over.\n`);
    // The backroom still running sees the fresh store, not a deleted file.
    expect(await openShiftsOf(open.client, member)).toEqual([]);
    await stop(open);
    expect(await openShiftsOf((await start()).client, member)).toEqual([]);
  });

  it("says how to recover when the file is not a store, and demo reset replaces it", async () => {
    const file = join(dir, "broken.db");
    await writeFile(file, "this is not a database, it is a shopping list\n".repeat(100));
    await expect(start({ db: file })).rejects.toThrow(
      `the demo store at ${file} cannot be opened (file is not a database). \`backroom demo reset\` starts it over`,
    );
    const cap = captureIo(env);
    expect(await runDemoReset(["--db", file], cap.io)).toBe(0);
    expect((await (await start({ db: file })).client.locations.listLocations()).locations?.length).toBeGreaterThan(0);
  });

  it("refuses what demo reset cannot do, with the usage", async () => {
    const cap = captureIo(env);
    expect(await runDemoReset(["--db", ":memory:"], cap.io)).toBe(2);
    expect(cap.stderr()).toMatch(/^backroom demo reset: --db :memory: is a new store every time/);
    const made = captureIo(env);
    expect(await runDemoReset(["--db", join(dir, "new.db")], made.io)).toBe(0);
    expect(made.stdout()).toBe(`Made a new demo store at ${join(dir, "new.db")}.\n`);
  });
});
