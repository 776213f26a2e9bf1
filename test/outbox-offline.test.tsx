// Working while the service does not answer, driven with keys through the whole app against the
// in-process local service behind a loopback proxy that is switched off and on: clock-ins, a
// break, a customer's phone and a gift card load kept on this machine, the app quit and started
// again, and every write made exactly once when the service answers, at the time it was made.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OutboxHandle, openOutbox } from "../src/local/outbox.js";
import type { Customer, GiftCard, Shift, TeamMember } from "../src/spec/generated/types.js";
import { type DrivenApp, KEYS, startApp } from "./helpers/app.js";
import { type NetProxy, startProxy } from "./helpers/proxy.js";
import { pinnedClock, startService, type TestService } from "./helpers/service.js";
import { startFaultProxy } from "./stocktake-helpers.js";

const CTRL_U = "\u0015";
const SERVICE = "local outbox-test";

let svc: TestService;
let proxy: NetProxy;
let dir: string;
const apps: DrivenApp[] = [];

beforeAll(async () => {
  svc = await startService();
  proxy = await startProxy(svc.url);
});
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
});
afterAll(async () => {
  await proxy.down().catch(() => {});
  await svc.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The app at 80×24 through the switchable proxy, with the outbox file of this test run. */
async function open(outbox: string): Promise<DrivenApp> {
  const a = await startApp({
    shared: svc,
    proxy,
    columns: 80,
    rows: 24,
    store: { outbox: new OutboxHandle(outbox), service: SERVICE, env: "LOCAL" },
  });
  apps.push(a);
  return a;
}

const flat = (frame: string) => frame.replace(/[│\n]+/g, " ").replace(/\s+/g, " ");
const waitForText = (a: DrivenApp, text: string | RegExp) =>
  a.waitFor((f) => (typeof text === "string" ? flat(f).includes(text) : text.test(flat(f))));
const lineWith = (frame: string, text: string) => frame.split("\n").find((l) => l.includes(text)) ?? "";
/** A member's row on the time clock (the title line may name them in its filter too). */
const rowOf = (frame: string, name: string) =>
  frame.split("\n").find((l) => l.includes(name) && !l.includes('filter "')) ?? "";
const fullName = (m: TeamMember) => `${m.given_name} ${m.family_name}`;

/** Members of Main Street not on shift anywhere now. */
async function freeMembers(count: number): Promise<{ main: string; members: TeamMember[] }> {
  const locations = (await svc.client.locations.listLocations()).locations ?? [];
  const main = locations.find((l) => l.name === "Main Street")?.id ?? "";
  const team = await svc.client.team
    .searchTeamMembers({ query: { filter: { location_ids: [main], status: "ACTIVE" } } })
    .all();
  const open = await svc.client.labor.searchShifts({ query: { filter: { status: "OPEN" } }, limit: 200 }).all();
  const busy = new Set(open.map((s) => s.team_member_id));
  const members = team.filter((m) => m.id && !busy.has(m.id)).slice(0, count);
  if (members.length < count) throw new Error("the demo store has too few members off shift");
  return { main, members };
}

async function shiftsOf(memberId: string, since: number): Promise<Shift[]> {
  const all = await svc.client.labor
    .searchShifts({ query: { filter: { team_member_ids: [memberId] } }, limit: 200 })
    .all();
  return all.filter((s) => Date.parse(s.start_at) >= since - 3_600_000);
}

/** Filters the time clock to one name (enter leaves the filter line with the list's keys). */
async function filterTo(a: DrivenApp, name: string) {
  await a.press("/", CTRL_U, ...name.split(""));
  await a.press(KEYS.enter);
  // The header may cut the filter's text at 80 columns; the list's first row is the member.
  await a.waitFor((f) => f.includes('filter "') && rowOf(f, name).startsWith("› "));
}

describe("the outbox, through the app", () => {
  it("keeps clock-ins, a break, a phone and a gift card load offline, across a restart, and sends each once at its own time", async () => {
    dir = mkdtempSync(join(tmpdir(), "backroom-outbox-e2e-"));
    const file = join(dir, "outbox.db");
    const t0 = Date.now();
    const { members } = await freeMembers(3);
    const customer = (
      await svc.client.customers.createCustomer({
        given_name: "Rosalind",
        family_name: "Offwhistle",
        email_address: "rosalind.offwhistle@example.org",
        phone_number: "(212) 555-0101",
      })
    ).customer as Customer;
    const card = (await svc.client.giftCards.listGiftCards({ state: "ACTIVE", limit: 200 }).all())[0] as GiftCard;

    const a = await open(file);
    await a.waitFor("● online");
    // Read while the service answers: the profile and the card are on screen when it stops.
    await a.press("5");
    await a.waitFor(/everyone · [\d,]+ match/);
    await a.press("/", CTRL_U, "offwhistle");
    await a.waitFor("Rosalind Offwhistle");
    await a.press(KEYS.enter);
    await a.press("8");
    await a.press(`${card.gan}\r`);
    await a.waitFor("History, newest first");
    await a.press("1");
    await a.waitFor("Who is here");

    await proxy.down();
    const pressed: { before: number; after: number }[] = [];
    for (const m of members) {
      await filterTo(a, fullName(m));
      const before = Date.now();
      await a.press("i");
      const frame = await a.waitFor((f) => rowOf(f, fullName(m)).includes("◷ kept"));
      pressed.push({ before, after: Date.now() });
      expect(rowOf(frame, fullName(m))).toMatch(/on shift since \d\d:\d\d ◷ kept, not yet sent/);
    }
    // A break for the first, on the shift clocked in offline.
    await filterTo(a, fullName(members[0] as TeamMember));
    const breakBefore = Date.now();
    await a.press("b");
    await a.waitFor("enter start · esc cancel");
    await a.press(KEYS.enter);
    await a.waitFor((f) => rowOf(f, fullName(members[0] as TeamMember)).includes("on break"));
    const breakAfter = Date.now();

    // The customer's phone, edited on the copy shown.
    await a.press("5");
    await a.waitFor("Rosalind Offwhistle");
    await a.press("e");
    await a.waitFor("Edit Rosalind Offwhistle");
    await a.press(KEYS.tab, KEYS.tab, KEYS.tab, KEYS.tab, KEYS.tab, CTRL_U, "(917) 555-0134", KEYS.enter);
    await a.waitFor((f) => lineWith(f, "Rosalind Offwhistle").includes("◷"));
    expect(a.frame()).toContain("(917) 555-0134");

    // A gift card load, asked first, kept with its key.
    await a.press("8");
    await a.waitFor("History, newest first");
    await a.press("l");
    await a.waitFor("enter save");
    await a.press(CTRL_U, "5", KEYS.tab, CTRL_U, "cash", KEYS.enter);
    await waitForText(a, /Load 5\.00 USD onto card/);
    await a.press("y");
    await a.waitFor("◷ kept, not yet sent (1)");
    await a.waitFor("◷ 6 kept");

    // Quitting says how many are kept and when they go.
    await a.press("q");
    await waitForText(
      a,
      "6 changes are kept on this machine, not yet sent; backroom sends them the next time it starts",
    );
    await a.press("y");
    await a.waitForStore((s) => s.exited);
    await a.close();
    apps.splice(apps.indexOf(a), 1);
    for (const m of members) expect(await shiftsOf(m.id ?? "", t0)).toEqual([]);
    // What is kept: each clock-in's start is the instant its key was pressed, not when it is sent.
    const box = await openOutbox(file);
    const kept = box.open(SERVICE);
    box.close();
    expect(kept.map((e) => e.write.kind)).toEqual([
      "clock-in",
      "clock-in",
      "clock-in",
      "shift-change",
      "update-customer",
      "gift-card",
    ]);
    const startOf = (i: number) => {
      const w = kept[i]?.write;
      return w?.kind === "clock-in" ? Date.parse(w.request.shift.start_at) : Number.NaN;
    };
    for (const [i, { before, after }] of pressed.entries()) {
      expect(startOf(i)).toBeGreaterThanOrEqual(before);
      expect(startOf(i)).toBeLessThanOrEqual(after);
    }

    // Started again, still offline: the count is there; the service comes back; all goes, once.
    const b = await open(file);
    await b.waitFor("◷ 6 kept");
    await proxy.up();
    await b.press("r");
    await waitForText(b, "Sent 6 changes kept on this machine.");
    await b.waitFor((f) => !f.includes("◷ 6 kept") && !f.includes("kept, not yet sent"));

    // The service keeps a shift's times to the minute: each start is its key press's minute.
    const minute = (ms: number) => Math.floor(ms / 60_000) * 60_000;
    for (const [i, m] of members.entries()) {
      const shifts = await shiftsOf(m.id ?? "", t0);
      expect(shifts).toHaveLength(1);
      expect(Date.parse((shifts[0] as Shift).start_at)).toBe(minute(startOf(i)));
    }
    const withBreak = (await shiftsOf(members[0]?.id ?? "", t0))[0] as Shift;
    expect(withBreak.breaks).toHaveLength(1);
    const breakWrite = kept[3]?.write;
    const breakAt =
      breakWrite?.kind === "shift-change" && breakWrite.change.op === "start-break"
        ? Date.parse(breakWrite.change.at)
        : 0;
    expect(breakAt).toBeGreaterThanOrEqual(breakBefore);
    expect(breakAt).toBeLessThanOrEqual(breakAfter);
    expect(Date.parse(withBreak.breaks?.[0]?.start_at ?? "")).toBe(minute(breakAt));

    const now = (await svc.client.customers.retrieveCustomer(customer.id ?? "")).customer;
    // Stored in E.164, shown in the national format.
    expect(now?.phone_number).toBe("+19175550134");
    expect(now?.version).toBe((customer.version ?? 0) + 1);
    const after = (await svc.client.giftCards.retrieveGiftCard(card.id ?? "")).gift_card;
    expect(after?.balance_money?.amount).toBe((card.balance_money?.amount ?? 0) + 500);
    const loads = await svc.client.giftCards
      .listGiftCardActivities({ gift_card_id: card.id ?? "", type: "LOAD", begin_time: new Date(t0).toISOString() })
      .all();
    expect(loads).toHaveLength(1);

    const done = await openOutbox(file);
    expect(done.open(SERVICE)).toEqual([]);
    done.close();
  });

  it("keeps a clock-in whose answer was lost, sends it again with its key, and makes one shift", async () => {
    const { members } = await freeMembers(1);
    const m = members[0] as TeamMember;
    const t0 = Date.now();
    let first = true;
    const faulty = await startFaultProxy(
      svc.url,
      () => {
        const action = first ? "drop-after" : "pass";
        first = false;
        return action;
      },
      "/v2/labor/shifts",
    );
    try {
      const a = await startApp({ shared: svc, via: faulty.url, columns: 80, rows: 24, store: { env: "LOCAL" } });
      apps.push(a);
      await a.waitFor("Who is here");
      await a.waitFor(/on shift since|clocked out/);
      await filterTo(a, fullName(m));
      await a.press("i");
      await waitForText(a, "◷ No answer; kept on this machine: Clock in");
      // The service did make it: only the answer was lost.
      expect(await shiftsOf(m.id ?? "", t0)).toHaveLength(1);
      await a.press("r");
      await waitForText(a, "Sent 1 change kept on this machine.");
      expect(faulty.log).toEqual(["drop-after", "pass"]);
      expect(await shiftsOf(m.id ?? "", t0)).toHaveLength(1);
      await a.waitFor((f) => rowOf(f, fullName(m)).includes("on shift since") && !f.includes("◷"));
    } finally {
      await faulty.close();
    }
  });

  it("puts a kept clock-in that overlaps a shift made elsewhere meanwhile in To resolve; a new time sends it, a bad one refused from the date field is typed over", async () => {
    // Wednesday 2026-05-06, 15:00 in New York; the app and the service read one pinned clock.
    const NOW = Date.parse("2026-05-06T19:00:00Z");
    const clock = pinnedClock(NOW);
    const a = await startApp({
      service: { clock },
      proxy: true,
      columns: 80,
      rows: 24,
      store: { clock, env: "LOCAL" },
    });
    apps.push(a);
    await a.waitFor("Who is here");
    await a.waitFor(/on shift since|clocked out/);
    const c = a.client;
    const main = (await c.locations.listLocations()).locations?.find((l) => l.name === "Main Street")?.id ?? "";
    const team = await c.team
      .searchTeamMembers({ query: { filter: { location_ids: [main], status: "ACTIVE" } } })
      .all();
    const open = new Set(
      (await c.labor.searchShifts({ query: { filter: { status: "OPEN" } } }).all()).map((x) => x.team_member_id),
    );
    const m = team.find((x) => x.id && !open.has(x.id)) as TeamMember;

    await a.proxy?.down();
    await filterTo(a, fullName(m));
    await a.press("i");
    await a.waitFor((f) => rowOf(f, fullName(m)).includes("◷ kept"));
    // Meanwhile, elsewhere: a shift of theirs from 14:00 to 15:05 is recorded.
    clock.advance(10 * 60);
    await c.labor.createShift({
      idempotency_key: "made-elsewhere",
      shift: {
        location_id: main,
        team_member_id: m.id ?? "",
        start_at: "2026-05-06T18:00:00Z",
        end_at: "2026-05-06T19:05:00Z",
      },
    });
    await a.proxy?.up();
    await a.press("r");
    await waitForText(a, "1 was refused: ! shows To resolve.");
    await a.waitFor("⚠ 1 to resolve (!)");

    await a.press("!");
    await waitForText(a, `Clock in ${fullName(m)} at 15:00: it overlaps a shift recorded elsewhere meanwhile.`);
    expect(a.frame()).toContain("t send again at another time · d discard · enter open");
    await a.press("t");
    await a.waitFor("Send again at another time");
    // A time that cannot be read, sent from the date field: the form goes back to the time, selected.
    await a.press(KEYS.tab, CTRL_U, "1506", KEYS.shiftTab, KEYS.enter);
    await a.waitFor('! The new time "1506" is not a time (HH:MM).');
    await a.press("15:06", KEYS.enter);
    await waitForText(a, "Sent 1 change kept on this machine.");
    await a.waitFor("Nothing is kept: every change reached the service.");
    expect(a.frame()).not.toContain("to resolve (!)");
    const theirs = await c.labor
      .searchShifts({ query: { filter: { team_member_ids: [m.id ?? ""] } }, limit: 200 })
      .all();
    const today = theirs.filter((x) => Date.parse(x.start_at) >= Date.parse("2026-05-06T18:00:00Z"));
    expect(today.map((x) => [Date.parse(x.start_at), x.end_at ? Date.parse(x.end_at) : null]).sort()).toEqual([
      [Date.parse("2026-05-06T18:00:00Z"), Date.parse("2026-05-06T19:05:00Z")],
      [Date.parse("2026-05-06T19:06:00Z"), null],
    ]);
  });
});
