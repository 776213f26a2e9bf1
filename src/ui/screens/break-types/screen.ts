import { formPlace, listPlace } from "../../focus.js";
import { defineScreenBody } from "../screen-def.js";
import { BreakTypesScreen } from "./BreakTypesScreen.js";
import { BREAK_TYPES_COMMANDS } from "./commands.js";

/** The Break types screen's module, loaded on first use (src/ui/screens/registry.ts). */
export const BREAK_TYPES = defineScreenBody({
  component: BreakTypesScreen,
  commands: BREAK_TYPES_COMMANDS,
  focus: (s) => (s.breakTypes.form.kind === "none" ? listPlace("break types") : formPlace("break type")),
  reload: (s) => s.loadBreakTypes(),
  onShow: (s) => s.loadBreakTypes(),
  refresh: (s) => s.loadBreakTypes({ quiet: true }),
  refreshSeconds: 30,
});
