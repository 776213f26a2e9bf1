import { fieldPlace, formPlace, listPlace, pickerPlace } from "../../focus.js";
import { defineScreen } from "../screen-def.js";
import { TIMECLOCK_COMMANDS } from "./commands.js";
import { TimeClockScreen } from "./TimeClockScreen.js";

export const TIMECLOCK = defineScreen({
  kind: "timeclock",
  title: "Time clock",
  key: "1",
  reads: "the team",
  component: TimeClockScreen,
  commands: TIMECLOCK_COMMANDS,
  focus: (s) => {
    const form = s.timeclock.form.kind;
    if (form === "filter")
      return fieldPlace("filter", (st) => st.openTimeClockForm({ kind: "none" }), { hint: "a name filters the list" });
    if (form === "pick-break") return pickerPlace("break picker");
    return form === "none" ? listPlace("who is here") : formPlace(form);
  },
  fields: { filter: "filter" },
  reload: (s) => s.loadTimeClock(),
  onLocationChange: (s) => Promise.all([s.loadTimeClock(), s.loadBreakTypes()]),
  refresh: (s) => s.loadTimeClock({ quiet: true }),
});
