import type { Key } from "ink";
import { customerName } from "../../../domain/customers.js";
import type { Customer } from "../../../spec/generated/types.js";
import { type LoadedState, notKeptOffline, selectCountry } from "../../../state/index.js";
import { CUSTOMER_LIST, customerIds } from "../../../state/screens.js";
import {
  type CommandDeps,
  ch,
  defineLoadedCommands,
  type ListRows,
  listCommands,
  moveFromField,
  named,
  selectedRow,
} from "../../commands.js";

/** The flag that shows the selected profile alone (a terminal too small for the pane). */
export const PROFILE_ONLY = "customers.profile";
/** The search line's name as a focus place. */
export const SEARCH_FIELD = "search";

/** At least this many columns put the profile beside the list; fewer put it below (or hide it). */
export const SIDE_PANE_COLUMNS = 100;
/** Fewer body rows than this hide the profile pane; enter then shows the profile alone. */
const PANE_BELOW_ROWS = 16;

/** How the screen lays out the profile at a size. */
export function paneLayout(width: number, height: number): "side" | "below" | "hidden" {
  if (width >= SIDE_PANE_COLUMNS) return "side";
  return height >= PANE_BELOW_ROWS ? "below" : "hidden";
}

/** The result list: its rows' ids (the same array while the rows are the same). */
export function customerRows(s: LoadedState): ListRows {
  return { list: CUSTOMER_LIST, ids: customerIds(s.customers.results.rows) };
}

/** The profile under the cursor. */
export function selectedCustomer(s: LoadedState): Customer | undefined {
  const id = selectedRow(s, customerRows(s));
  return s.customers.results.rows.find((r) => r.id === id);
}

const listing = (s: LoadedState) => s.customers.view.kind === "list";
const NO_PROFILE = "No profile is selected: / searches, n makes a new one.";
const needProfile = (s: LoadedState) => (selectedCustomer(s)?.id ? undefined : NO_PROFILE);

const LIST = listCommands(customerRows);

/** Opens the selected profile: beside or below the list, or alone when there is no room for the pane. */
function openSelected(s: LoadedState, deps: CommandDeps): unknown {
  const id = selectedCustomer(s)?.id;
  if (!id) return;
  if (paneLayout(deps.width, deps.height) === "hidden") s.setFlag(PROFILE_ONLY, true);
  return s.customersOpenProfile(id);
}

/**
 * Keys the search line passes on while it has the keyboard: ↑/↓ and page keys move the list
 * under it; enter gives the keys back to the list and opens the profile under the cursor.
 */
export function searchLineKey(s: LoadedState, input: string, key: Key, deps: CommandDeps): boolean {
  if (moveFromField(LIST)(s, input, key, deps)) return true;
  if (key.return) {
    s.focusField("customers", undefined);
    void openSelected(s, deps);
    return true;
  }
  return false;
}

/** The customers screen's commands (in the list; the search line takes typed text once `/` focuses it). */
export const CUSTOMERS_COMMANDS = defineLoadedCommands({
  ...LIST,
  search: {
    keys: [ch("/")],
    label: "/",
    description: "search: email, phone, reference id, name",
    short: "search",
    hint: 2,
    run: (s) => {
      s.setFlag(PROFILE_ONLY, false);
      s.focusField("customers", SEARCH_FIELD);
    },
  },
  back: {
    keys: [named("escape")],
    label: "esc",
    description: "close the profile / clear the search",
    palette: false,
    run: (s) => {
      if (s.flags[PROFILE_ONLY]) s.setFlag(PROFILE_ONLY, false);
      else s.customersSetLine("");
    },
    unavailable: (s) => (s.flags[PROFILE_ONLY] || s.customers.line ? undefined : "Nothing to close or clear."),
  },
  open: {
    keys: [named("return")],
    label: "enter",
    description: "open the profile (as it is now)",
    short: "open",
    hint: 3,
    run: openSelected,
    unavailable: needProfile,
  },
  newCustomer: {
    keys: [ch("n")],
    label: "n",
    description: "new profile",
    short: "new",
    write: true,
    hint: 4,
    run: (s) => s.customersOpenView({ kind: "create" }),
  },
  editCustomer: {
    keys: [ch("e")],
    label: "e",
    description: "edit the profile",
    short: "edit",
    write: true,
    hint: 5,
    run: (s) => {
      const id = selectedCustomer(s)?.id;
      if (id) return s.customersStartEdit(id);
    },
    unavailable: needProfile,
  },
  deleteCustomer: {
    keys: [ch("x")],
    label: "x",
    description: "delete the profile",
    short: "delete",
    write: true,
    hint: 8,
    run: (s) => {
      const c = selectedCustomer(s);
      const id = c?.id;
      if (!c || !id) return;
      s.ask({
        message: `Delete the profile of ${customerName(c, selectCountry(s))} (version ${c.version ?? 0})? Group memberships and cards on file go with it; this cannot be undone.`,
        risky: true,
        yes: "Delete",
        onYes: () => s.customersDelete(id),
      });
    },
    unavailable: (s) =>
      needProfile(s) ??
      notKeptOffline(s, "deleting a profile is not kept on this machine: delete it when the service answers."),
  },
  groups: {
    keys: [ch("m")],
    label: "m",
    description: "groups: add to / remove from",
    short: "groups",
    write: true,
    hint: 7,
    run: (s) => {
      const id = selectedCustomer(s)?.id;
      if (!id) return;
      if (!s.customers.groupsLoaded) void s.customersLoadGroups();
      s.customersOpenView({ kind: "groups", customerId: id });
    },
    unavailable: needProfile,
  },
  cards: {
    keys: [ch("c")],
    label: "c",
    description: "cards on file",
    run: (s) => {
      const id = selectedCustomer(s)?.id;
      if (id) s.customersOpenView({ kind: "cards", customerId: id });
    },
    unavailable: needProfile,
  },
  filters: {
    keys: [ch("f")],
    label: "f",
    description: "filters: group, source, created",
    short: "filters",
    hint: 6,
    run: (s) => s.customersOpenView({ kind: "filters" }),
  },
  clearFilters: {
    keys: [ch("F")],
    label: "F",
    description: "clear the filters",
    run: (s) => s.customersClearFilters(),
    unavailable: (s) => (Object.keys(s.customers.filters).length > 0 ? undefined : "No filter is set."),
  },
  sort: {
    keys: [ch("o")],
    label: "o",
    description: "order: by name / newest first",
    run: (s) => s.customersToggleSort(),
  },
  duplicates: {
    keys: [ch("D")],
    label: "D",
    description: "duplicates: shared email or phone",
    run: (s) => s.customersScanDuplicates(),
    unavailable: (s) => (listing(s) ? undefined : "Go back to the list first (esc)."),
  },
});

/** What `r` reads again: the search, and the profile under the cursor. */
export function reloadCustomers(s: LoadedState): unknown {
  const id = selectedCustomer(s)?.id;
  return Promise.all([s.customersSearch(), id ? s.customersRefreshProfile(id) : undefined]);
}
