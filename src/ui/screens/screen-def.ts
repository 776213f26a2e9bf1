import type { ComponentType } from "react";
import type { AppState, ScreenKind } from "../../state/index.js";
import type { Binding } from "../keymap.js";

/** What every screen component gets: whether it owns the keyboard, and its room. */
export interface ScreenProps {
  active: boolean;
  height: number;
  width: number;
}

/** One screen of the app: the registry's entry, read by the header, keys, help, palette and body. */
export interface ScreenDef {
  kind: ScreenKind;
  title: string;
  /** The number key that shows it. */
  key: string;
  component: ComponentType<ScreenProps>;
  /** The screen's own key bindings (scope = kind). */
  bindings: readonly Binding[];
  /** Runs when the screen is shown (load what it needs, if stale). */
  onShow?: (s: AppState) => unknown;
  /** Runs for every screen when the location changes; `visible` tells whether it is on screen. */
  onLocationChange?: (s: AppState, visible: boolean) => unknown;
  /**
   * Re-reads live state quietly while the screen is shown (changes made in another terminal or
   * the dashboard), every `refreshSeconds`. It must not move the cursor or touch an open form.
   */
  refresh?: (s: AppState) => unknown;
  refreshSeconds?: number;
  /** A line for the help overlay (what the manager should know about this screen's data). */
  help?: string;
}
