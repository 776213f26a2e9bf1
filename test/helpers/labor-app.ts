// The time clock and review driven through the whole app on a local service whose clock (and the
// store's) is pinned to Wednesday 2026-05-06, 15:00 in New York; the test moves it.
import type { LocalService } from "../../src/service/index.js";
import type { Shift, SquareClient, TeamMember } from "../../src/square/index.js";
import type { CreateStoreOptions } from "../../src/state/index.js";
import { type DrivenApp, KEYS, startApp } from "./app.js";
import { pinnedClock } from "./service.js";

/** 2026-05-06T19:00:00Z: Wednesday 15:00 in New York (Main Street's zone). */
export const NOW = Date.parse("2026-05-06T19:00:00Z");
export const MAIN_TZ = "America/New_York";

/** An app on the demo store with a clock the test moves, and the main location's team. */
export interface LaborHarness {
  svc: LocalService;
  client: SquareClient;
  app: DrivenApp;
  /** Moves both clocks by minutes. */
  advance(minutes: number): void;
  main: string;
  harbour: string;
  members: TeamMember[];
}

/** Starts the app on the time clock and waits for the team. */
export async function startLaborApp(
  opts: { rows?: number; columns?: number; store?: Partial<Omit<CreateStoreOptions, "client">> } = {},
): Promise<LaborHarness> {
  const clock = pinnedClock(NOW);
  const app = await startApp({
    rows: opts.rows ?? 32,
    columns: opts.columns ?? 110,
    service: { clock },
    store: { clock, env: "LOCAL", ...opts.store },
  });
  const client = app.client;
  const locations = (await client.locations.listLocations()).locations ?? [];
  const main = locations.find((l) => l.name === "Main Street")?.id ?? "";
  const harbour = locations.find((l) => l.name === "Harbour Dock")?.id ?? "";
  const members = await client.team
    .searchTeamMembers({ query: { filter: { location_ids: [main], status: "ACTIVE" } } })
    .all();
  await app.waitFor("Who is here");
  await app.waitFor((f) => /on shift since|clocked out/.test(f));
  return { svc: app.service.service, client, app, main, harbour, members, advance: (m) => clock.advance(m * 60) };
}

/** A member's full name as the app shows it. */
export const fullName = (m: TeamMember): string => `${m.given_name} ${m.family_name}`;

/** Open shifts at every location. */
export async function openShifts(h: LaborHarness): Promise<Shift[]> {
  return h.client.labor.searchShifts({ query: { filter: { location_ids: [], status: "OPEN" } } }).all();
}

/** A member of the main location, working only there, without an open shift. */
export async function clockedOutMember(h: LaborHarness, skip: readonly string[] = []): Promise<TeamMember> {
  const open = new Set((await openShifts(h)).map((s) => s.team_member_id));
  const m = h.members.find(
    (x) =>
      !open.has(x.id) && !x.is_owner && !skip.includes(x.id ?? "") && x.assigned_locations?.location_ids?.length === 1,
  );
  if (!m) throw new Error("every member is clocked in");
  return m;
}

/** Filters the time clock to one name and waits for it. */
export async function filterTo(app: DrivenApp, name: string): Promise<void> {
  await app.press("/", ...name.split(""));
  await app.press(KEYS.enter);
  await app.waitFor(`filter "${name}"`);
}

/** Types into the focused field after emptying it (ctrl+u). */
export const typed = (text: string): string[] => ["\u0015", ...text.split("")];
