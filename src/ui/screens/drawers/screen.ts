import { formPlace, listPlace, pickerPlace } from "../../focus.js";
import { defineLoadedScreenBody, whileShown } from "../screen-def.js";
import { DRAWERS_COMMANDS, reloadDrawers } from "./commands.js";
import { DrawersScreen } from "./DrawersScreen.js";

/** The Drawers screen's module, loaded on first use (src/ui/screens/registry.ts). */
export const DRAWERS = defineLoadedScreenBody({
  component: DrawersScreen,
  commands: DRAWERS_COMMANDS,
  focus: (s) => {
    const form = s.drawers.form.kind;
    if (form === "filter") return pickerPlace("event filter");
    return form === "none" ? listPlace(s.drawers.view) : formPlace(form);
  },
  reload: reloadDrawers,
  onShow: (s) => s.loadDrawersIfStale(),
  onLocationChange: whileShown((s) => s.loadDrawers()),
  refresh: (s) =>
    s.drawers.view === "day" && s.drawers.form.kind === "none" ? s.loadDrawers(undefined, { quiet: true }) : undefined,
  refreshSeconds: 60,
  help: "Over/short is counted − expected: + over, - short. ! needs attention (still open, or ended and not counted); ≠ the shift's events do not add up to its expected cash.",
});
