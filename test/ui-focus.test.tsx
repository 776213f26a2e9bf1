// The focus rules of src/ui/focus.ts and the scan routing, run against every registered screen: a
// screen added to the registry gets these tests without writing them.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AppState } from "../src/state/index.js";
import { type CommandDeps, sameKey, unavailableReason } from "../src/ui/commands.js";
import type { AnyScreenDef } from "../src/ui/screens/screen-def.js";
import { burstRoute, focusOf, shellCommands } from "../src/ui/shell.js";
import { type DrivenApp, KEYS, startApp } from "./helpers/app.js";
import { loadedScreens } from "./helpers/screens.js";
import { startService, type TestService } from "./helpers/service.js";

/** Every screen, loaded (the app itself loads them on first use). */
const SCREENS = await loadedScreens();

let svc: TestService;
let app: DrivenApp | undefined;
let dir: string | undefined;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc.close();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/**
 * How to reach a text field whose command cannot run on a fresh screen (the counting line needs a
 * count): the keys from the screen's first state. A new screen's field that its command opens at
 * once needs no entry here.
 */
const ROUTES: Partial<Record<string, Record<string, string[]>>> = {
  stocktake: { "counting line": ["n", KEYS.enter, KEYS.enter] },
};

/** A code as a scanner sends it: 13 digits and Enter. */
const CODE = "0712630000215";
/** Typed into each field: found nowhere in the demo data, so it empties every filtered list. */
const TYPED = "zqxw";

const focus = (s: AppState) => focusOf(SCREENS, s);

/** The first key of a command, as the terminal sends it. */
function keyOf(def: AnyScreenDef, command: string): string {
  const spec = def.commands[command]?.keys[0];
  if (!spec) throw new Error(`${def.kind} has no command ${command}`);
  if ("input" in spec) return spec.ctrl ? String.fromCharCode(spec.input.charCodeAt(0) & 0x1f) : spec.input;
  const named: Partial<Record<string, string>> = { return: KEYS.enter, escape: KEYS.escape, tab: KEYS.tab };
  const key = named[spec.key];
  if (!key) throw new Error(`no terminal sequence for ${spec.key}`);
  return key;
}

/** The app on the screen, loaded, its list having the keys. */
async function openOn(
  def: AnyScreenDef,
  opts: { columns?: number; rows?: number; readOnly?: boolean; screens?: readonly AnyScreenDef[] } = {},
): Promise<DrivenApp> {
  dir = mkdtempSync(join(tmpdir(), "backroom-focus-"));
  const a = await startApp({
    shared: svc,
    columns: opts.columns ?? 100,
    rows: opts.rows ?? 30,
    store: { dataDir: dir, readOnly: opts.readOnly ?? false },
    // The screens loaded already: these tests are about focus (test/ui-lazy-screens.test.tsx
    // covers loading on first use, and every other UI test runs on the registry as the app does).
    screens: opts.screens ?? SCREENS,
  });
  app = a;
  await a.waitFor("Main Street");
  if (def.key) await a.press(def.key);
  else while (a.store.getState().screen.kind !== def.kind) await a.press(KEYS.tab);
  await a.waitForStore((s) => s.screen.kind === def.kind && s.loading === undefined);
  await a.waitForStore((s) => focus(s).kind === "list");
  // The customer index fills in the background (quietly: the screen is usable meanwhile); these
  // tests time keys at a scanner's pace, so they start once it is built.
  if (def.kind === "customers") await a.waitForStore((s) => s.customers.index.phase === "ready", 20_000);
  return a;
}

const numbered = SCREENS.filter((d) => d.key);

describe.each(SCREENS.map((d) => [d.title, d] as const))("the %s screen", (_title, def) => {
  it("keeps its commands off the shell's keys", () => {
    const shell = Object.values(shellCommands(SCREENS));
    for (const [name, command] of Object.entries(def.commands)) {
      for (const spec of command.keys) {
        const clash = shell.find((c) => c.keys.some((k) => sameKey(k, spec)));
        expect(clash, `${def.kind}.${name} takes ${clash?.label}`).toBeUndefined();
      }
    }
  });

  it("leaves by tab and by every number key from its list, and ?, : and q reach the shell", async () => {
    const a = await openOn(def);
    const i = SCREENS.indexOf(def);
    const next = SCREENS[(i + 1) % SCREENS.length] as AnyScreenDef;
    await a.press(KEYS.tab);
    await a.waitForStore((s) => s.screen.kind === next.kind);
    for (const other of numbered) {
      if (!def.key) break;
      await a.press(def.key);
      await a.waitForStore((s) => s.screen.kind === def.kind && focus(s).kind === "list");
      await a.press(other.key ?? "");
      await a.waitForStore((s) => s.screen.kind === other.kind);
    }
    // A screen without a number key is reached back by shift+tab.
    await a.press(def.key ?? KEYS.shiftTab);
    await a.waitForStore((s) => s.screen.kind === def.kind && focus(s).kind === "list");
    await a.press("?");
    await a.waitForStore((s) => s.overlay.kind === "help");
    await a.press(KEYS.escape, ":");
    await a.waitForStore((s) => s.overlay.kind === "palette");
    await a.press(KEYS.escape);
    await a.waitForStore((s) => s.overlay.kind === "none");
    await a.press("q");
    await a.waitForStore((s) => s.exited);
  });

  for (const [field, command] of Object.entries(def.fields ?? {})) {
    it(`esc from its ${field} gives the keys back (a second esc clears it), even over an empty list`, async () => {
      const a = await openOn(def);
      const route = ROUTES[def.kind]?.[field] ?? [keyOf(def, command)];
      await a.press(...route);
      await a.waitForStore((s) => focus(s).kind === "field" && focus(s).name === field);
      // Focusing is a visible act: the field was not focused before the key that opened it.
      await a.press(TYPED);
      await a.waitFor(TYPED);
      await a.press(KEYS.escape);
      await a.waitForStore((s) => focus(s).kind === "list");
      // The text stays while the keys are back with the screen; a second esc clears it.
      expect(a.frame()).toContain(TYPED);
      await a.press(KEYS.escape);
      await a.waitFor((f) => !f.includes(TYPED));
      expect(focus(a.store.getState()).kind).not.toBe("field");
      // Typed again, the (now empty) list under it does not swallow the keys: esc, then a number.
      await a.press(keyOf(def, command));
      await a.waitForStore((s) => focus(s).kind === "field");
      await a.press(TYPED, KEYS.escape);
      const away = numbered.find((d) => d.kind !== def.kind) as AnyScreenDef;
      await a.press(away.key ?? "");
      await a.waitForStore((s) => s.screen.kind === away.kind);
    });

    it(`tab still reaches the shell from its ${field}`, async () => {
      const a = await openOn(def);
      await a.press(...(ROUTES[def.kind]?.[field] ?? [keyOf(def, command)]));
      await a.waitForStore((s) => focus(s).kind === "field");
      await a.press(KEYS.tab);
      await a.waitForStore((s) => s.screen.kind !== def.kind);
    });
  }

  it("a scan burst never switches screens; in its fields it is a scan or typed text by the screen's rule", async () => {
    // The screen's onScan, watched: a burst taken as a scan reaches it; one taken as text does not.
    const scanned: string[] = [];
    const watched = SCREENS.map((d) =>
      d.kind === def.kind && d.onScan
        ? {
            ...d,
            onScan: (s: AppState, code: string, deps: CommandDeps) => {
              scanned.push(code);
              return d.onScan?.(s, code, deps);
            },
          }
        : d,
    );
    const a = await openOn(def, { screens: watched });
    // One read, as over SSH; then at a scanner's pace, a character every 2 ms.
    await a.press(`${CODE}\r`);
    await a.pressPaced([...CODE, "\r"], 2);
    expect(a.store.getState().screen.kind).toBe(def.kind);
    if (def.onScan) expect(scanned).toEqual([CODE, CODE]);
    else await a.waitFor(`Scanned ${CODE}: this screen does not take scans.`);
    for (const [field, command] of Object.entries(def.fields ?? {})) {
      await a.press(...(ROUTES[def.kind]?.[field] ?? [keyOf(def, command)]));
      await a.waitForStore((s) => focus(s).kind === "field");
      const route = burstRoute(SCREENS, a.store.getState(), true);
      a.store.getState().setStatus({ kind: "idle" });
      scanned.length = 0;
      await a.pressPaced([...CODE, "\r"], 2);
      expect(a.store.getState().screen.kind).toBe(def.kind);
      expect(a.frame()).not.toContain("does not take scans");
      if (route === "scan") {
        // Whatever has focus: the screen's onScan takes it, and it is not typed into the field.
        expect(def.onScan).toBeDefined();
        expect(scanned).toEqual([CODE]);
      } else {
        // A screen that takes no scans: typed text and Enter, delivered as such — nothing lost.
        expect(def.onScan).toBeUndefined();
        expect(scanned).toEqual([]);
        await a.waitFor(CODE);
      }
      if (focus(a.store.getState()).kind === "field") await a.press(KEYS.escape);
      await a.press(KEYS.escape);
      await a.waitForStore((s) => focus(s).kind === "list");
    }
  });

  it("the palette lists every command of the screen; one that cannot run says why, and running it says so", async () => {
    // Tall enough for the whole palette at once: entries reorder (what can run first) as data arrives.
    const first = await openOn(def, { columns: 160, rows: 70 });
    const reasonOf = (s: AppState) =>
      Object.values(def.commands).find((c) => c.palette !== false && unavailableReason(c, s));
    // Read-only mode makes every write unavailable: a screen with nothing unavailable uses it.
    let a = first;
    if (!reasonOf(first.store.getState())) {
      await first.close();
      a = await openOn(def, { columns: 160, rows: 70, readOnly: true });
    }
    const s = a.store.getState();
    const blocked = reasonOf(s);
    expect(blocked, "some command of the screen cannot run here").toBeDefined();
    await a.press(":");
    const seen = new Set<string>();
    const total = Number(/\d+ of (\d+)/.exec(await a.waitFor(/\d+ of \d+/))?.[1]);
    for (let i = 0; i < total; i++) {
      for (const line of a.frame().split("\n")) seen.add(line);
      await a.press(KEYS.down);
    }
    const text = [...seen].join("\n");
    for (const [name, command] of Object.entries(def.commands)) {
      if (command.palette === false) continue;
      expect(text, `${def.kind}.${name}`).toContain(command.description);
    }
    const reason = unavailableReason(blocked as NonNullable<typeof blocked>, s) ?? "";
    expect(text).toContain(`${blocked?.description} — ${reason}`);
    // Typed into the palette, it is among the matches (what can run comes first): choose it, run it.
    await a.press(KEYS.escape, ":", blocked?.description ?? "");
    const chosen = (f: string) => f.split("\n").some((l) => /│ › /.test(l) && l.includes(`${blocked?.description} — `));
    for (let i = 0; i < 20 && !chosen(a.frame()); i++) await a.press(KEYS.down);
    expect(chosen(a.frame())).toBe(true);
    await a.press(KEYS.enter);
    await a.waitFor(`! ${reason}`);
  });
});
