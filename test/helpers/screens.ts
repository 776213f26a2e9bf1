import { SCREENS } from "../../src/ui/screens/registry.js";
import { type AnyScreenDef, isLazy, nameOf } from "../../src/ui/screens/screen-def.js";

/**
 * Every registered screen with its module loaded: the app loads a screen on first use, and tests
 * that read every screen's commands, fields or focus need them all at once.
 */
export async function loadedScreens(): Promise<AnyScreenDef[]> {
  return Promise.all(SCREENS.map(async (e) => (isLazy(e) ? { ...nameOf(e), ...(await e.load()) } : e)));
}
