// The shell's part of the keyboard: its own commands (screens, help, palette, quit), and the one
// place where a key press is routed by the focus rules of src/ui/focus.ts.
import type { Key } from "ink";
import { createContext, type ReactNode, useContext, useMemo } from "react";
import { type AppState, type AppStore, useAppStore, useShallow } from "../state/index.js";
import {
  type Command,
  type CommandDeps,
  type CommandTable,
  ch,
  commandFor,
  ctrl,
  named,
  runCommand,
} from "./commands.js";
import type { FocusName, FocusPlace } from "./focus.js";
import type { BurstRoute } from "./key-stream.js";
import { scannedText } from "./scan-detector.js";
import type { AnyScreenDef, ScreenEntry } from "./screens/screen-def.js";
import { useScreens } from "./use-screens.js";

/** What the shell knows about the screens: the registry and its own command table. */
export interface Shell {
  /** The registry's screens; one loaded on first use is its stand-in until it is in (src/ui/use-screens.tsx). */
  screens: readonly AnyScreenDef[];
  /** Help, palette, quit, location, reload, tab and a number key per screen. */
  commands: CommandTable<string>;
}

/** The command name of a screen's number key. */
export const showCommand = (kind: string): string => `show:${kind}`;

/** The current screen's entry (the first screen before any is chosen). */
export function currentScreen(screens: readonly AnyScreenDef[], s: AppState): AnyScreenDef | undefined {
  return screens.find((d) => d.kind === s.screen.kind) ?? screens[0];
}

function cycle(screens: readonly AnyScreenDef[], s: AppState, step: number): void {
  const i = screens.findIndex((d) => d.kind === s.screen.kind);
  const next = screens[(i + step + screens.length) % screens.length];
  if (next) s.showScreen(next.kind);
}

/** The shell's commands for a registry. */
export function shellCommands(screens: readonly AnyScreenDef[]): CommandTable<string> {
  const table: Record<string, Command> = {
    quit: { keys: [ch("q")], label: "q", description: "quit", hint: 9, run: (s) => s.requestQuit() },
    forceQuit: {
      keys: [ctrl("c")],
      label: "ctrl+c",
      description: "quit now",
      palette: false,
      run: (s) => s.quit(),
    },
    help: {
      keys: [ch("?")],
      label: "?",
      description: "help: every key",
      short: "help",
      hint: 0,
      run: (s) => s.openOverlay({ kind: "help" }),
    },
    palette: {
      keys: [ch(":")],
      label: ":",
      description: "command palette",
      short: "commands",
      hint: 1,
      palette: false,
      run: (s) => s.openOverlay({ kind: "palette" }),
    },
    location: {
      keys: [ch("L")],
      label: "L",
      description: "pick location, or All locations where the screen shows every store",
      run: (s) => s.openOverlay({ kind: "locations" }),
      unavailable: (s) =>
        s.locations.length === 0
          ? "The locations are still being read."
          : s.locations.length === 1
            ? "This merchant has only one location."
            : undefined,
    },
    nextScreen: {
      keys: [{ key: "tab", shift: false }],
      label: "tab",
      description: "next screen",
      run: (s) => cycle(screens, s, 1),
    },
    prevScreen: {
      keys: [named("tab", true)],
      label: "shift+tab",
      description: "previous screen",
      run: (s) => cycle(screens, s, -1),
    },
    reload: {
      keys: [ch("r")],
      label: "r",
      description: "reload from the service",
      run: async (s) => {
        s.closeOverlay();
        // Started while the service did not answer: nothing was read yet, so read from the start
        // (the location chosen then reads its screen). When that cannot be read (a sign-in without
        // the permission), the screen is still read: the account screen needs no location.
        if (s.locations.length === 0 && (await s.init())) return;
        return currentScreen(screens, s)?.reload?.(s);
      },
      unavailable: (s) =>
        s.locations.length === 0 || currentScreen(screens, s)?.reload
          ? undefined
          : "This screen has nothing to read again.",
    },
  };
  // `!` from anywhere: the writes kept on this machine and what the service refused (the header counts them).
  if (screens.some((d) => d.kind === "outbox")) {
    table.kept = {
      keys: [ch("!")],
      label: "!",
      description: "changes kept on this machine, and what to resolve",
      short: "kept",
      run: (s) => s.showScreen("outbox"),
    };
  }
  for (const d of screens) {
    if (!d.key) continue;
    table[showCommand(d.kind)] = {
      keys: [ch(d.key)],
      label: d.key,
      description: `${d.title} screen`,
      palette: false,
      run: (s) => s.showScreen(d.kind),
    };
  }
  return table;
}

const ShellContext = createContext<Shell | undefined>(undefined);

/** Provides the registry (loading its screens on first use) and the shell's commands to the tree. */
export function ShellProvider({
  screens: entries,
  children,
}: {
  screens: readonly ScreenEntry[];
  children: ReactNode;
}) {
  const screens = useScreens(entries);
  const shell = useMemo(() => ({ screens, commands: shellCommands(screens) }), [screens]);
  return <ShellContext.Provider value={shell}>{children}</ShellContext.Provider>;
}

/** The registry and the shell's commands. */
export function useShell(): Shell {
  const shell = useContext(ShellContext);
  if (!shell) throw new Error("useShell outside <ShellProvider>");
  return shell;
}

/** Where the keyboard is: the open overlay, or the current screen's focus place. */
export function focusOf(screens: readonly AnyScreenDef[], s: AppState): FocusPlace | { kind: "overlay"; name: string } {
  if (s.overlay.kind !== "none") return { kind: "overlay", name: s.overlay.kind };
  return currentScreen(screens, s)?.focus(s) ?? { kind: "list", name: "none" };
}

/** The focus as components read it: they give a text field the keys only when it is named here. */
export function useFocus(): FocusName {
  const { screens } = useShell();
  return useAppStore(
    useShallow((s) => {
      const f = focusOf(screens, s);
      return { kind: f.kind, name: f.name };
    }),
  );
}

/** Whether the named field (or form, or picker) of the current screen has the keyboard. */
export function useHasFocus(name: string): boolean {
  const f = useFocus();
  return f.kind !== "overlay" && f.name === name;
}

/**
 * Routes a key press no widget took, by the focus rules (src/ui/focus.ts): in a field only esc,
 * tab and ctrl keys are anyone else's; over an overlay and in a picker the shell's keys work;
 * in a list, the shell's keys and then the screen's command table.
 */
export function dispatchKey(shell: Shell, store: AppStore, deps: CommandDeps, input: string, key: Key): void {
  const s = store.getState();
  const place = focusOf(shell.screens, s);
  const shellHit = () => {
    const hit = commandFor(shell.commands, input, key, s);
    if (hit) runCommand(hit[1], s, deps);
    return hit !== undefined;
  };
  switch (place.kind) {
    case "form":
      return;
    case "field":
      if (key.escape) place.leave(s);
      else if (key.tab || key.ctrl) shellHit();
      else place.onKey?.(s, input, key, deps);
      return;
    case "overlay":
    case "picker":
      shellHit();
      return;
    case "list": {
      if (shellHit()) return;
      const def = currentScreen(shell.screens, s);
      const hit = def ? commandFor(def.commands, input, key, s) : undefined;
      if (hit) runCommand(hit[1], s, deps);
      return;
    }
  }
}

/** Whether keys wait: the current screen is still loading (they are handed over once it is in). */
export function keysWait(screens: readonly AnyScreenDef[], s: AppState): boolean {
  return s.overlay.kind === "none" && currentScreen(screens, s)?.loading === true;
}

/**
 * Where a burst (printable keys and Enter faster than a person types) goes now, by the rule in
 * src/ui/focus.ts: a scan where no field or form has the keys, and where one has on a screen that
 * takes scans (unless the place says `scans: "text"`); typed text in a field or form of a screen
 * that takes none. `typing`: a text field has the keys (the palette's filter is an overlay's).
 */
export function burstRoute(screens: readonly AnyScreenDef[], s: AppState, typing: boolean): BurstRoute {
  const place = focusOf(screens, s);
  if (place.kind === "overlay") return typing && s.overlay.kind !== "confirm" ? "text" : "scan";
  if (place.kind !== "field" && place.kind !== "form") return "scan";
  if (place.scans === "text") return "text";
  return currentScreen(screens, s)?.onScan ? "scan" : "text";
}

/**
 * Routes a scan: to the current screen's `onScan` whatever has the keyboard — except that it
 * never answers a confirmation; a screen that takes no scans says so and nothing runs. Returns
 * false, taking nothing, when the keys are now where a burst is typed text (the key stream then
 * hands the code over as typed keys and Enter): the form that the keys before it opened.
 */
export function dispatchScan(shell: Shell, store: AppStore, deps: CommandDeps, code: string, typing: boolean): boolean {
  const s = store.getState();
  if (s.overlay.kind === "confirm") {
    s.setStatus({ kind: "rule", text: `Scanned ${scannedText(code)}: answer the question first; nothing was done.` });
    return true;
  }
  if (burstRoute(shell.screens, s, typing) === "text") return false;
  const def = currentScreen(shell.screens, s);
  if (!def?.onScan) {
    s.setStatus({ kind: "rule", text: `Scanned ${scannedText(code)}: this screen does not take scans.` });
    return true;
  }
  // As a command that runs (commands.ts runCommand): why an earlier key did nothing goes.
  if (s.status.kind === "rule") s.setStatus({ kind: "idle" });
  void Promise.resolve(def.onScan(s, code, deps)).catch((err: unknown) =>
    s.setStatus({ kind: "error", text: err instanceof Error ? err.message : String(err) }),
  );
  return true;
}
