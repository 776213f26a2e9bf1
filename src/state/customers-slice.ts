/**
 * The customers slice: I/O only. Its state is `CustomersData` (customers-machine.ts) and changes
 * only through `customersReducer`; searches and pages are read in customers-search.ts, profiles
 * read and written in customers-profiles.ts. Timers and the time between keys come from the
 * store's dependencies.
 */
import type { ProfileField, ProfileValues } from "../domain/customers-profile.js";
import { type FormProblem, problemOn } from "../domain/form-problem.js";
import { keptId } from "../domain/kept-writes.js";
import type { Customer } from "../spec/generated/types.js";
import { mirrorToIndex, refreshCustomerIndex } from "./customers-index.js";
import {
  CUSTOMER_LIST,
  type CustomerFilterInput,
  type CustomersData,
  type CustomersEvent,
  type CustomersView,
  customerIds,
  customersReducer,
  INITIAL_CUSTOMERS,
} from "./customers-machine.js";
import {
  createProfile,
  deleteProfile,
  openProfile,
  reapply,
  reapplyInForm,
  refreshProfile,
  removeCard,
  saveEdit,
  setMembership,
  startEdit,
} from "./customers-profiles.js";
import {
  type CustomersIo,
  customersOf,
  filtersOf,
  loadGroups,
  loadMore,
  scanDuplicates,
  search,
  setLine,
} from "./customers-search.js";
import { timeZoneOf } from "./shell-slice.js";
import type { LoadedSliceCreator } from "./store.js";
import { selectedId } from "./view-slice.js";

export * from "./customers-machine.js";
export { COUNT_DELAY_MS, CUSTOMERS_PAGE_SIZE, DUPLICATE_SCAN_LIMIT, SEARCH_DEBOUNCE_MS } from "./customers-search.js";

/** The customers slice: search, the profile and its changes. */
export interface CustomersSlice {
  customers: CustomersData;
  /** Applies an event to the screen's state: the one way it changes (the slice's I/O dispatches too). */
  customersDispatch(event: CustomersEvent): void;
  /** First visit: the groups and the first page. */
  customersShow(): Promise<void>;
  /** The search line changed: searched at once when typing was resting, else when the burst ends. */
  customersSetLine(line: string): void;
  /** Searches the current line and filters now (also `r`: answers may lag for changes made elsewhere). */
  customersSearch(): Promise<void>;
  /** The next page, when the cursor nears the end of what is loaded. */
  customersLoadMore(): Promise<void>;
  /** Reads what changed elsewhere into the customer index (or goes on filling it). */
  customersRefreshIndex(): Promise<void>;
  /** By name (the service's default) or newest first. */
  customersToggleSort(): Promise<void>;
  /** Applies the filter panel; the problem (naming its field when it is about one), or undefined. */
  customersApplyFilters(input: CustomerFilterInput): Promise<FormProblem>;
  customersClearFilters(): Promise<void>;
  customersOpenView(view: CustomersView): void;
  customersLoadGroups(): Promise<void>;
  /** Reads one profile as it is now and lays it over the list. */
  customersRefreshProfile(id: string): Promise<Customer | undefined>;
  /** Opens the profile: fresh from the service, and asks who shares its email or phone. */
  customersOpenProfile(id: string): Promise<void>;
  customersStartEdit(id: string): Promise<void>;
  customersCreate(values: Partial<ProfileValues>): Promise<FormProblem>;
  customersSave(values: Partial<ProfileValues>): Promise<FormProblem>;
  customersTogglePick(field: ProfileField): void;
  /** Sends the picked fields of the manager's on the colleague's version. */
  customersReapply(): Promise<string | undefined>;
  /** Opens the edit form on the new version with the picked fields put back (to change more first). */
  customersReapplyInForm(): void;
  customersDelete(id: string): Promise<void>;
  customersSetMembership(customerId: string, groupId: string, member: boolean): Promise<void>;
  customersRemoveCard(customerId: string, cardId: string): Promise<void>;
  /** Reads every profile of the current search, page by page, and groups shared emails and phones. */
  customersScanDuplicates(): Promise<void>;
  customersStopScan(): void;
}

/** The cursor rests this long on a row before its profile is read for the pane. */
export const PANE_READ_DELAY_MS = 250;

/** The profile the list's cursor is on. */
const selectedProfile = (io: CustomersIo) =>
  selectedId(io.get(), CUSTOMER_LIST, customerIds(customersOf(io).results.rows));

/**
 * A row from the index holds what the list shows; where the selection rests, the whole profile
 * (address, note, cards) is read from the service for the pane, once.
 */
function readWhenResting(io: CustomersIo): void {
  const s = customersOf(io);
  const id = selectedProfile(io);
  if (id === undefined || s.results.from !== "index" || s.local[id] !== undefined) return;
  io.deps.timers.after(PANE_READ_DELAY_MS, () => {
    if (selectedProfile(io) === id && customersOf(io).local[id] === undefined) void refreshProfile(io, id, true);
  });
}

async function showCustomers(io: CustomersIo): Promise<void> {
  const s = customersOf(io);
  await Promise.all([s.groupsLoaded ? undefined : loadGroups(io), s.results.phase === "idle" ? search(io) : undefined]);
}

async function applyFilters(io: CustomersIo, input: CustomerFilterInput): Promise<FormProblem> {
  const checked = filtersOf(input, customersOf(io), timeZoneOf(io.get()));
  if (!checked.ok) return problemOn(checked.problem, checked.field);
  io.dispatch({ type: "filters-set", filters: checked.filters, view: { kind: "list" } });
  await search(io);
  return undefined;
}

/** Builds the customers slice. */
export const createCustomersSlice: LoadedSliceCreator<CustomersSlice> = (set, get, deps) => {
  const dispatch = (event: CustomersEvent) => {
    const selected = selectedProfile(io);
    set((s) => ({ customers: customersReducer(s.customers, event) }));
    mirrorToIndex(io, event);
    if (selectedProfile(io) !== selected) readWhenResting(io);
  };
  // The cursor moved on the list: the pane wants the profile it rests on.
  deps.events.on("row-selected", (e) => {
    if (e.list === CUSTOMER_LIST) readWhenResting(io);
  });
  const io: CustomersIo = { get, dispatch, deps };
  // A profile kept offline was made or changed at the service: its answer takes the stand-in's place.
  deps.events.on("kept-customer-saved", (e) => {
    if (e.created) {
      dispatch({ type: "profile-deleted", id: keptId(e.seq) });
      dispatch({ type: "profile-created", customer: e.customer });
    } else dispatch({ type: "profile-read", customer: e.customer });
  });
  return {
    customers: INITIAL_CUSTOMERS,
    customersDispatch: dispatch,
    customersShow: () => showCustomers(io),
    customersSetLine: (line) => setLine(io, line),
    customersSearch: () => {
      // `r`: the index reads what changed elsewhere too (and searches again if anything did).
      void refreshCustomerIndex(io);
      return search(io, true);
    },
    customersLoadMore: () => loadMore(io),
    customersRefreshIndex: () => refreshCustomerIndex(io),
    customersToggleSort: () => {
      dispatch({ type: "sort-toggled" });
      return search(io, true);
    },
    customersApplyFilters: (input) => applyFilters(io, input),
    customersClearFilters: () => {
      dispatch({ type: "filters-set", filters: {} });
      return search(io);
    },
    customersOpenView: (view) => dispatch({ type: "view", view }),
    customersLoadGroups: () => loadGroups(io),
    customersRefreshProfile: (id) => refreshProfile(io, id),
    customersOpenProfile: (id) => openProfile(io, id),
    customersStartEdit: (id) => startEdit(io, id),
    customersCreate: (values) => createProfile(io, values),
    customersSave: (values) => saveEdit(io, values),
    customersTogglePick: (field) => dispatch({ type: "pick-toggled", field }),
    customersReapply: () => reapply(io),
    customersReapplyInForm: () => reapplyInForm(io),
    customersDelete: (id) => deleteProfile(io, id),
    customersSetMembership: (customerId, groupId, member) => setMembership(io, customerId, groupId, member),
    customersRemoveCard: (customerId, cardId) => removeCard(io, customerId, cardId),
    customersScanDuplicates: () => scanDuplicates(io),
    customersStopScan: () => dispatch({ type: "scan-stopped" }),
  };
};
