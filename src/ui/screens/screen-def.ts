import { type ComponentType, createElement } from "react";
import {
  type AppState,
  type LazySliceName,
  type LoadedState,
  type ScreenKind,
  useLoadedStore,
} from "../../state/index.js";
import type { CommandDeps, CommandTable } from "../commands.js";
import type { FocusPlace } from "../focus.js";

/** What every screen component gets: whether it is on screen with no overlay, and its room. */
export interface ScreenProps {
  active: boolean;
  height: number;
  width: number;
}

/** The keys that show a screen: one digit each, `0` after `9`. */
export type NumberKey = "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "0";

/**
 * One screen of the app: the registry's entry, read by the header, the keyboard, help, hints,
 * the palette and the body. `C` is the union of its command names.
 */
export interface ScreenDef<C extends string = string, S extends AppState = AppState> {
  kind: ScreenKind;
  title: string;
  /** The number key that shows it; without one it is reached by tab and the palette. */
  key?: NumberKey;
  /** Draws the screen; it reads the state and never handles keys. */
  component: ComponentType<ScreenProps>;
  /** Every command of the screen, in the order help and the palette list them. */
  commands: CommandTable<C, S>;
  /** Where the keyboard is on this screen now. */
  focus(s: S): FocusPlace;
  /**
   * The screen's text fields and the command that focuses each (the shell's tests open every one,
   * type, press esc and check the keys came back).
   */
  fields?: Readonly<Record<string, C>>;
  /** Takes a scan (a barcode read at a scanner's pace), whatever has the keyboard; without it, scans are refused in words. */
  onScan?(s: S, code: string, deps: CommandDeps): unknown;
  /** What `r` reads again. */
  reload?(s: S): unknown;
  /** Runs when the screen is shown (load what it needs, if stale). */
  onShow?(s: S): unknown;
  /** Shown and loaded before any location is known (the account screen: signing in comes first). */
  withoutLocation?: true;
  /**
   * What the screen shows from the service, in the manager's words ("the drawers"). Until a
   * location is known (the app started while the service could not be reached), a screen without
   * `withoutLocation` is shown as its title and a line saying this cannot be read yet, and why
   * (src/ui/use-screens.tsx).
   */
  reads?: string;
  /**
   * It can show every location at once: the location picker then offers "All locations" (the one
   * choice, the shell's `allLocations`; elsewhere the picker names the screens that offer it). Its
   * `onLocationChange` runs when all locations are chosen, or one again.
   */
  allLocations?: boolean;
  /** Runs for every screen when the location changes; `visible` tells whether it is on screen. */
  onLocationChange?(s: S, visible: boolean): unknown;
  /**
   * Re-reads live state quietly while the screen is shown (changes made in another terminal or
   * the dashboard), every `refreshSeconds`. It must not move the cursor or touch an open form.
   */
  refresh?(s: S): unknown;
  refreshSeconds?: number;
  /** A note for the help overlay (what the manager should know about this screen's data). */
  help?: string;
  /** The stand-in of a screen still loading (src/ui/use-screens.tsx): keys wait until it is in. */
  loading?: true;
}

/** A screen of any commands, as the registry holds them. */
export type AnyScreenDef = ScreenDef<string>;

/** What the shell knows of a screen before its module is loaded: its tab, number key and title. */
export type ScreenName = Pick<ScreenDef, "kind" | "title" | "key" | "allLocations" | "withoutLocation" | "reads">;

/** A screen's module: everything of its entry but its name (which the registry holds). */
export type ScreenBody<C extends string = string, S extends AppState = AppState> = Omit<
  ScreenDef<C, S>,
  keyof ScreenName
>;

/**
 * A screen loaded on first use (src/ui/screens/registry.ts): its name, the store slices it needs
 * and its module. Until both are in, the shell shows it as "Loading …" and holds the keys.
 */
export interface LazyScreen extends ScreenName {
  slices: readonly LazySliceName[];
  load(): Promise<ScreenBody>;
}

/** A registry entry: a screen in the first frame's code, or one loaded on first use. */
export type ScreenEntry = AnyScreenDef | LazyScreen;

/** Whether an entry is loaded on first use. */
export function isLazy(entry: ScreenEntry): entry is LazyScreen {
  return "load" in entry;
}

/** A screen's name (a lazy entry's, as its stand-ins and its loaded screen carry it). */
export function nameOf(entry: ScreenName): ScreenName {
  const { kind, title, key, allLocations, withoutLocation, reads } = entry;
  return {
    kind,
    title,
    ...(key ? { key } : {}),
    ...(allLocations ? { allLocations } : {}),
    ...(withoutLocation ? { withoutLocation } : {}),
    ...(reads ? { reads } : {}),
  };
}

/** Declares a screen, keeping its command names as a union (a misspelt field command does not compile). */
export function defineScreen<C extends string>(def: ScreenDef<C>): ScreenDef<C> {
  return def;
}

/** Declares a lazy screen's module (see {@link defineScreen}). */
export function defineScreenBody<C extends string>(body: ScreenBody<C>): ScreenBody<C> {
  return body;
}

/**
 * Declares the module of a screen whose slices load on first use: it reads them loaded
 * ({@link LoadedState}), as the shell shows it only once they are in (src/ui/use-screens.tsx).
 */
export function defineLoadedScreenBody<C extends string>(body: ScreenBody<C, LoadedState>): ScreenBody<C, LoadedState> {
  return body;
}

/**
 * An `onLocationChange` that reads again at once only while the screen is shown; a screen out of
 * sight reads when it is shown next (its `onShow` finds what it read stale).
 */
export function whileShown<S extends AppState>(load: (s: S) => unknown): (s: S, visible: boolean) => unknown {
  return (s, visible) => (visible ? load(s) : undefined);
}

/**
 * A screen of several views: draws the one `viewOf` names from the state, with the screen's props.
 * For a screen loaded on first use: it reads the screen's slices loaded.
 */
export function screenOfViews<V extends string>(
  viewOf: (s: LoadedState) => V,
  views: Readonly<Record<V, ComponentType<ScreenProps>>>,
): ComponentType<ScreenProps> {
  return function ScreenView(props: ScreenProps) {
    return createElement(views[useLoadedStore(viewOf)], props);
  };
}
