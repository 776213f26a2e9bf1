import { V1_LIST_NAMES } from "../../../state/v1-machine.js";
import { formPlace, listPlace } from "../../focus.js";
import { defineLoadedScreenBody, whileShown } from "../screen-def.js";
import { reloadV1, V1_COMMANDS } from "./commands.js";
import { V1Screen } from "./V1Screen.js";

/** The Old transactions (V1) screen's module, loaded on first use (src/ui/screens/registry.ts). */
export const V1 = defineLoadedScreenBody({
  component: V1Screen,
  commands: V1_COMMANDS,
  focus: (s) => {
    const form = s.v1.form.kind;
    if (form !== "none") return formPlace(form);
    return listPlace(s.v1.detail ? "v1.detail" : V1_LIST_NAMES[s.v1.view]);
  },
  reload: reloadV1,
  onShow: (s) => s.loadV1(),
  onLocationChange: whileShown((s) => s.loadV1()),
  help: "Read through the service's V1 interface, which it has deprecated. All locations (L, the location picker) reads every store's records, with a Location column. Dates: at most one year, not before 2013-01-01; without dates the last 30 days (the service's own default is a year). A refund is checked against the interface's rules (60 days, split tender, what is left) before anything is sent.",
});
