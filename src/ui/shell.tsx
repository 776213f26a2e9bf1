import { createContext, type ReactNode, useContext, useMemo } from "react";
import { useAppStoreApi } from "../state/index.js";
import { type Binding, type Command, ch, GLOBAL_KEYS, LIST_KEYS, type Scope } from "./keymap.js";
import type { ScreenDef } from "./screens/screen-def.js";

/** What the shell knows about the screens: the registry, and every binding it implies. */
export interface Shell {
  screens: readonly ScreenDef[];
  /** Global keys, the screens' number keys, list keys, then each screen's own. */
  bindings: readonly Binding[];
}

/** The command that shows a screen (its number key). */
export const showCommand = (kind: string): Command => `show:${kind}`;

/** Builds the shell's tables from a registry. */
export function makeShell(screens: readonly ScreenDef[]): Shell {
  const numberKeys: Binding[] = screens.map((s) => ({
    command: showCommand(s.kind),
    scope: "global",
    keys: [ch(s.key)],
    label: s.key,
    description: `${s.title} screen`,
  }));
  return { screens, bindings: [...GLOBAL_KEYS, ...numberKeys, ...LIST_KEYS, ...screens.flatMap((s) => s.bindings)] };
}

const ShellContext = createContext<Shell | undefined>(undefined);

/** Provides the registry to the tree. */
export function ShellProvider({ screens, children }: { screens: readonly ScreenDef[]; children: ReactNode }) {
  const shell = useMemo(() => makeShell(screens), [screens]);
  return <ShellContext.Provider value={shell}>{children}</ShellContext.Provider>;
}

/** The registry and the binding table. */
export function useShell(): Shell {
  const shell = useContext(ShellContext);
  if (!shell) throw new Error("useShell outside <ShellProvider>");
  return shell;
}

/** The scopes of keys that apply on a screen: its own first, then lists, then global. */
export function scopesOf(kind: string): Scope[] {
  return [kind as Scope, "list", "global"];
}

/** Handles the commands every screen shares; returns false for the rest. */
export function useGlobalCommands(): (command: Command) => boolean {
  const store = useAppStoreApi();
  const { screens } = useShell();
  return (command) => {
    const s = store.getState();
    const cycle = (step: number) => {
      const i = screens.findIndex((d) => d.kind === s.screen.kind);
      const next = screens[(i + step + screens.length) % screens.length];
      if (next) s.showScreen(next.kind);
    };
    switch (command) {
      case "quit":
        s.requestQuit();
        return true;
      case "forceQuit":
        s.quit();
        return true;
      case "help":
        s.openOverlay({ kind: "help" });
        return true;
      case "palette":
        s.openOverlay({ kind: "palette" });
        return true;
      case "location":
        if (s.locations.length > 1) s.openOverlay({ kind: "locations" });
        else s.setStatus({ kind: "info", text: "This merchant has only one location." });
        return true;
      case "nextScreen":
        cycle(1);
        return true;
      case "prevScreen":
        cycle(-1);
        return true;
      default: {
        const target = screens.find((d) => showCommand(d.kind) === command);
        if (!target) return false;
        s.showScreen(target.kind);
        return true;
      }
    }
  };
}
