import { ch, defineBindings, named } from "../../keymap.js";

/** The customers screen's keys (in the list; the search line takes typed text). */
export const CUSTOMERS_KEYS = defineBindings("customers", [
  { command: "search", keys: [ch("/")], label: "/", description: "search: email, phone, reference id, name", hint: 2 },
  { command: "open", keys: [named("return")], label: "enter", description: "open the profile (as it is now)", hint: 3 },
  { command: "newCustomer", keys: [ch("n")], label: "n", description: "new profile", write: true, hint: 4 },
  { command: "editCustomer", keys: [ch("e")], label: "e", description: "edit the profile", write: true, hint: 5 },
  { command: "deleteCustomer", keys: [ch("x")], label: "x", description: "delete the profile", write: true, hint: 8 },
  { command: "groups", keys: [ch("m")], label: "m", description: "groups: add to / remove from", write: true, hint: 7 },
  { command: "cards", keys: [ch("c")], label: "c", description: "cards on file" },
  { command: "filters", keys: [ch("f")], label: "f", description: "filters: group, source, created", hint: 6 },
  { command: "clearFilters", keys: [ch("F")], label: "F", description: "clear the filters" },
  { command: "sort", keys: [ch("o")], label: "o", description: "order: by name / newest first" },
  { command: "duplicates", keys: [ch("D")], label: "D", description: "duplicates: shared email or phone" },
]);
