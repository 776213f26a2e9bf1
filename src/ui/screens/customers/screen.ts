import { focusedField, formPlace, listPlace, pickerPlace } from "../../focus.js";
import { defineLoadedScreenBody } from "../screen-def.js";
import { CustomersScreen } from "./CustomersScreen.js";
import { CUSTOMERS_COMMANDS, reloadCustomers, SEARCH_FIELD, searchLineKey } from "./commands.js";

/** The Customers screen's module, loaded on first use (src/ui/screens/registry.ts). */
export const CUSTOMERS = defineLoadedScreenBody({
  component: CustomersScreen,
  commands: CUSTOMERS_COMMANDS,
  focus: (s) => {
    const view = s.customers.view.kind;
    if (view === "filters" || view === "create" || view === "edit") return formPlace(view);
    if (view !== "list") return pickerPlace(view);
    const search = { onKey: searchLineKey, hint: "name, email, phone, ref id · enter opens" };
    return focusedField(s, "customers", SEARCH_FIELD, search) ?? listPlace("customers");
  },
  fields: { [SEARCH_FIELD]: "search" },
  reload: reloadCustomers,
  onShow: (s) => s.customersShow(),
  refresh: (s) => s.customersRefreshIndex(),
  refreshSeconds: 30,
  help: "Found from the customer index on this machine, refreshed every 30 s (r now); an opened profile is read from the service.",
});
