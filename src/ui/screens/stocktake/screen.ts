import type { LoadedState } from "../../../state/index.js";
import { moveFromField } from "../../commands.js";
import { fieldPlace, formPlace, listPlace, pickerPlace } from "../../focus.js";
import { defineLoadedScreenBody } from "../screen-def.js";
import { COUNTING_LINE, reloadStocktake, STOCKTAKE_COMMANDS, scanIntoCount } from "./commands.js";
import { StocktakeScreen } from "./StocktakeScreen.js";

/** The Stocktake screen's module, loaded on first use (src/ui/screens/registry.ts). */
export const STOCKTAKE = defineLoadedScreenBody({
  component: StocktakeScreen,
  commands: STOCKTAKE_COMMANDS,
  // A burst is a scan (counted) wherever the keys are, except in its forms: a quantity, a file's
  // path, the item an unknown code is (its SKU or UPC, scanned or typed, answers the form), and the
  // start's search words or SKUs (src/ui/focus.ts).
  focus: (s) => {
    const st = s.stocktake;
    if (st.form.kind !== "none") return formPlace(st.form.kind, { scans: "text" });
    if (st.view.kind === "start")
      return st.view.step === "search" || st.view.step === "skus"
        ? formPlace(st.view.step, { scans: "text" })
        : pickerPlace("start");
    if (st.view.kind !== "count") return listPlace(st.view.kind);
    if (st.prompt.kind === "pick") return pickerPlace("pick");
    if (!st.typing) return listPlace("count");
    // Typing is what this view is for: the line has the keys on arrival, and the hint bar says so.
    const leave = (x: LoadedState) => {
      if (x.stocktake.prompt.kind === "quantity") x.stocktakeCancelPrompt();
      x.stocktakeSetTyping(false);
    };
    return fieldPlace(COUNTING_LINE, leave, {
      onKey: moveFromField(STOCKTAKE_COMMANDS),
      hint: "a code, name or +N · enter counts",
    });
  },
  fields: { [COUNTING_LINE]: "type" },
  onScan: scanIntoCount,
  reload: reloadStocktake,
  onShow: (s) => s.loadStocktakeHome(),
  onLocationChange: (s) => s.stocktakeLocationChanged(),
  refresh: (s) => s.stocktakeRefreshExpected({ quiet: true }),
  refreshSeconds: 30,
  help: "On the counting line a quantity for an item already counted asks whether it adds or replaces; +N adds, =N replaces without asking (`stocktake import` always adds its rows up). A count far from the books (over 10× the expected, or 500 units over) is asked about once. Items from outside the count's scope are marked and get their expected quantity from the service (… until it arrives). A blind count (b) hides the expected while counting; the review shows it. Counts are journaled line by line on this machine ($XDG_DATA_HOME/backroom/stocktake.db): a count survives the terminal closing, and a commit that stopped halfway finishes without counting anything twice.",
});
