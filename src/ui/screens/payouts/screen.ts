import { listCommands, moveFromField } from "../../commands.js";
import { focusedField, formPlace, listPlace } from "../../focus.js";
import { defineLoadedScreenBody, whileShown } from "../screen-def.js";
import { FIND_FIELD, PAYOUTS_COMMANDS, payoutsRows } from "./commands.js";
import { PayoutsScreen } from "./PayoutsScreen.js";

/** The Payouts screen's module, loaded on first use (src/ui/screens/registry.ts). */
export const PAYOUTS = defineLoadedScreenBody({
  component: PayoutsScreen,
  commands: PAYOUTS_COMMANDS,
  focus: (s) => {
    const form = s.payouts.form.kind;
    if (form !== "none") return formPlace(form);
    const find = { onKey: moveFromField(listCommands(payoutsRows)) };
    return focusedField(s, "payouts", FIND_FIELD, find) ?? listPlace(`payouts.${s.payouts.view}`);
  },
  fields: { [FIND_FIELD]: "find" },
  reload: (s) => s.reloadPayouts(),
  onShow: (s) => s.loadPayoutsIfStale(),
  onLocationChange: whileShown((s) => s.loadPayouts()),
  // A payout sent this morning is paid by the afternoon: the list is read again now and then.
  refresh: (s) =>
    s.payouts.view === "list" && s.payouts.form.kind === "none" ? s.loadPayouts({ quiet: true }) : undefined,
  refreshSeconds: 120,
  help: "All locations (L, the location picker) lists every store's payouts, with a Location column. Fees are the entries' fees as the payouts guide adds them (a refund's fee counts back); the rate is fees over the gross of charges. The service keeps payouts from January 2021.",
});
