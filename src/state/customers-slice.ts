import {
  classifyQuery,
  customerName,
  emailKey,
  type LookupFilters,
  type LookupSort,
  lookupQuery,
  parseSources,
  searchRequest,
} from "../domain/customers.js";
import {
  type DuplicateGroup,
  type DuplicateReason,
  duplicateGroups,
  duplicateKeys,
} from "../domain/customers-duplicates.js";
import {
  type CustomerUpdate,
  conflictDiff,
  createBody,
  defaultReapply,
  type ProfileField,
  type ProfileValues,
  profileValues,
  reapplyValues,
  updateBody,
} from "../domain/customers-profile.js";
import { phoneKey, phoneSearchDigits } from "../domain/phone.js";
import type { Customer, CustomerGroup, SearchCustomersRequest } from "../spec/generated/types.js";
import { isVersionConflict, writeProblem } from "./errors.js";
import { countryOf, timeZoneOf } from "./shell-slice.js";
import type { SliceCreator } from "./store.js";

/** Profiles asked for per page: a screenful or three, never the whole directory. */
export const CUSTOMERS_PAGE_SIZE = 50;
/** Keys closer together than this are one burst: only the burst's last line is searched. */
export const SEARCH_DEBOUNCE_MS = 120;
/** The count of matches is asked for once typing rests this long (it costs the service a full count). */
export const COUNT_DELAY_MS = 250;
/** Most profiles the duplicates view reads in one scan. */
export const DUPLICATE_SCAN_LIMIT = 200_000;

/** What the customers screen shows besides the list. */
export type CustomersView =
  | { kind: "list" }
  | { kind: "filters" }
  | { kind: "create" }
  /** `initial`: what the form shows first, when not the profile itself (a conflict's merge). */
  | { kind: "edit"; base: Customer; initial?: ProfileValues }
  | { kind: "conflict"; base: Customer; mine: ProfileValues; theirs: Customer; picked: ProfileField[] }
  | { kind: "groups"; customerId: string }
  | { kind: "cards"; customerId: string }
  | { kind: "duplicates" };

/** The answer of the current search: the loaded pages and where to continue. */
export interface CustomerResults {
  /** The first page's request (the cursor of later pages is tied to its query). */
  request: SearchCustomersRequest | undefined;
  rows: Customer[];
  cursor: string | undefined;
  /** How many profiles match, when known. */
  count: number | undefined;
  phase: "idle" | "loading" | "ready" | "failed";
  /** A search line or filter that cannot be sent, in words. */
  problem: string | undefined;
}

/** The filter panel's fields, as typed. */
export interface CustomerFilterInput {
  group: string;
  sources: string;
  rule: string;
  from: string;
  to: string;
}

/** A duplicates scan over the current search. */
export interface DuplicateScan {
  phase: "idle" | "scanning" | "done" | "stopped" | "failed";
  scanned: number;
  total: number | undefined;
  groups: DuplicateGroup[];
}

/** The customers slice's state. */
export interface CustomersData {
  line: string;
  filters: LookupFilters;
  sort: LookupSort;
  results: CustomerResults;
  /**
   * Where the screen should put its cursor, asked anew with each `seq`: on a profile (a new one, the
   * next after a deletion), or with no id, on the profile it had if still listed, else the first.
   * The cursor itself lives in the screen: moving it writes nothing to the store.
   */
  cursorTo: { id: string | undefined; seq: number };
  view: CustomersView;
  groups: CustomerGroup[];
  groupsLoaded: boolean;
  scan: DuplicateScan;
  /** Duplicates the service named for profiles opened on this terminal, by profile id. */
  probed: Record<string, DuplicateReason[]>;
  /**
   * Changes made on this terminal, by id (`null`: deleted), laid over every search answer: the
   * service's search may lag behind them, this terminal's own view must not.
   */
  local: Record<string, Customer | null>;
  /** Answers that came back after a newer search and were dropped. */
  staleAnswers: number;
}

/** The customers slice: search, the profile and its changes. */
export interface CustomersSlice {
  customers: CustomersData;
  /** First visit: the groups and the first page. */
  customersShow(): Promise<void>;
  /** The search line changed: searched at once when typing was resting, else when the burst ends. */
  customersSetLine(line: string): void;
  /** Searches the current line and filters now (also `r`: answers may lag for changes made elsewhere). */
  customersSearch(): Promise<void>;
  /** The next page, when the cursor nears the end of what is loaded. */
  customersLoadMore(): Promise<void>;
  /** By name (the service's default) or newest first. */
  customersToggleSort(): Promise<void>;
  /** Applies the filter panel; a problem in words, or undefined. */
  customersApplyFilters(input: CustomerFilterInput): Promise<string | undefined>;
  customersClearFilters(): Promise<void>;
  customersOpenView(view: CustomersView): void;
  customersLoadGroups(): Promise<void>;
  /** Reads one profile as it is now and lays it over the list. */
  customersRefreshProfile(id: string): Promise<Customer | undefined>;
  /** Opens the profile: fresh from the service, and asks who shares its email or phone. */
  customersOpenProfile(id: string): Promise<void>;
  customersStartEdit(id: string): Promise<void>;
  customersCreate(values: Partial<ProfileValues>): Promise<string | undefined>;
  customersSave(values: Partial<ProfileValues>): Promise<string | undefined>;
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

const EMPTY_RESULTS: CustomerResults = {
  request: undefined,
  rows: [],
  cursor: undefined,
  count: undefined,
  phase: "idle",
  problem: undefined,
};

/**
 * Rows of a search answer with this terminal's own changes laid over them: a profile deleted here
 * is left out, and one saved here replaces the service's copy unless that copy is newer (changed
 * again elsewhere since). The service's search may lag a minute behind; this terminal must not.
 */
export function withLocalChanges(
  rows: readonly Customer[],
  local: Readonly<Record<string, Customer | null>>,
): Customer[] {
  const out: Customer[] = [];
  for (const row of rows) {
    const mine = row.id ? local[row.id] : undefined;
    if (mine === null) continue;
    out.push(mine && (mine.version ?? 0) >= (row.version ?? 0) ? mine : row);
  }
  return out;
}

/** A filter panel's values for the filters in force. */
export function filterInputOf(filters: LookupFilters, groups: readonly CustomerGroup[]): CustomerFilterInput {
  const group = groups.find((g) => g.id === filters.groupId)?.name ?? filters.groupId ?? "";
  return {
    group,
    sources: (filters.sources?.values ?? []).join(", "),
    rule: filters.sources?.rule === "EXCLUDE" ? "exclude" : "include",
    from: filters.createdFrom ?? "",
    to: filters.createdTo ?? "",
  };
}

/** Builds the customers slice. */
export const createCustomersSlice: SliceCreator<CustomersSlice> = (set, get, deps) => {
  const client = () => deps.client.customers;
  const patch = (p: Partial<CustomersData>) => set((s) => ({ customers: { ...s.customers, ...p } }));
  const patchResults = (p: Partial<CustomerResults>) =>
    set((s) => ({ customers: { ...s.customers, results: { ...s.customers.results, ...p } } }));

  // Every search gets a number; an answer is used only while its number is the newest.
  let searchSeq = 0;
  let debounce: ReturnType<typeof setTimeout> | undefined;
  let countTimer: ReturnType<typeof setTimeout> | undefined;
  let lastKeyAt = Number.NEGATIVE_INFINITY;
  let scanSeq = 0;
  let loadingMore = false;
  // One idempotency key per profile to create, reused while the same body is sent again.
  let createKey: { key: string; body: string } | undefined;

  const overlay = (rows: readonly Customer[]): Customer[] => withLocalChanges(rows, get().customers.local);

  /** Records a profile as this terminal now knows it, in the list and the open views. */
  const remember = (c: Customer) => {
    if (!c.id) return;
    const id = c.id;
    set((s) => {
      const rows = s.customers.results.rows.map((r) => (r.id === id ? c : r));
      return {
        customers: {
          ...s.customers,
          local: { ...s.customers.local, [id]: c },
          results: { ...s.customers.results, rows },
        },
      };
    });
  };

  const forget = (id: string) => {
    set((s) => {
      const rows = s.customers.results.rows;
      const at = rows.findIndex((r) => r.id === id);
      const next = rows.filter((r) => r.id !== id);
      const nextId = at < 0 ? undefined : next[Math.min(at, next.length - 1)]?.id;
      return {
        customers: {
          ...s.customers,
          local: { ...s.customers.local, [id]: null },
          results: {
            ...s.customers.results,
            rows: next,
            count: s.customers.results.count === undefined ? undefined : Math.max(0, s.customers.results.count - 1),
          },
          cursorTo: { id: nextId, seq: s.customers.cursorTo.seq + 1 },
        },
      };
    });
  };

  const nameOf = (id: string) => {
    const c = get().customers.local[id] ?? get().customers.results.rows.find((r) => r.id === id);
    return c ? customerName(c) : "the profile";
  };

  const askCount = (seq: number, request: SearchCustomersRequest) => {
    clearTimeout(countTimer);
    countTimer = setTimeout(async () => {
      if (seq !== searchSeq) return;
      const page = await get().runRead(
        "Counting customers",
        async () => await client().searchCustomers({ ...request, limit: 1, count: true }),
        { quiet: true },
      );
      if (seq === searchSeq && page) patchResults({ count: page.count ?? get().customers.results.count });
    }, COUNT_DELAY_MS);
  };

  /** Searches the line and filters; `keep` leaves the cursor on its profile (a refresh), else the first. */
  const search = async (keep = false) => {
    clearTimeout(debounce);
    debounce = undefined;
    const s = get().customers;
    const built = lookupQuery(
      classifyQuery(s.line, countryOf(get())),
      s.filters,
      s.sort,
      timeZoneOf(get()),
      countryOf(get()),
    );
    const seq = ++searchSeq;
    clearTimeout(countTimer);
    if (!built.ok) {
      patchResults({ problem: built.problem, phase: "failed" });
      return;
    }
    const request = searchRequest(built.value, CUSTOMERS_PAGE_SIZE, false);
    patchResults({ phase: "loading", problem: undefined });
    const page = await get().runRead("Searching customers", async () => await client().searchCustomers(request), {
      quiet: true,
    });
    if (seq !== searchSeq) {
      // A newer search went out while this one was on its way: its answer no longer applies.
      patch({ staleAnswers: get().customers.staleAnswers + 1 });
      return;
    }
    if (!page) {
      patchResults({ phase: "failed" });
      return;
    }
    const rows = overlay(page.customers ?? []);
    const cursor = page.cursor || undefined;
    set((st) => ({
      customers: {
        ...st.customers,
        results: {
          request,
          rows,
          cursor,
          count: cursor ? undefined : rows.length,
          phase: "ready",
          problem: undefined,
        },
        cursorTo: { id: keep ? undefined : rows[0]?.id, seq: st.customers.cursorTo.seq + 1 },
      },
    }));
    if (cursor) askCount(seq, request);
  };

  return {
    customers: {
      line: "",
      filters: {},
      sort: "name",
      results: EMPTY_RESULTS,
      cursorTo: { id: undefined, seq: 0 },
      view: { kind: "list" },
      groups: [],
      groupsLoaded: false,
      scan: { phase: "idle", scanned: 0, total: undefined, groups: [] },
      probed: {},
      local: {},
      staleAnswers: 0,
    },

    async customersShow() {
      const s = get().customers;
      await Promise.all([
        s.groupsLoaded ? undefined : get().customersLoadGroups(),
        s.results.phase === "idle" ? search() : undefined,
      ]);
    },

    customersSetLine(line) {
      if (line === get().customers.line) return;
      patch({ line });
      const now = performance.now();
      const resting = now - lastKeyAt > SEARCH_DEBOUNCE_MS;
      lastKeyAt = now;
      clearTimeout(debounce);
      // The first key after a rest is searched at once (no wait for a typist); keys that follow
      // within the burst wait until it ends, and only the last line goes out.
      if (resting) void search();
      else debounce = setTimeout(() => void search(), SEARCH_DEBOUNCE_MS);
    },

    customersSearch: () => search(true),

    async customersLoadMore() {
      const r = get().customers.results;
      if (!r.cursor || !r.request || loadingMore || r.phase !== "ready") return;
      const seq = searchSeq;
      const { request, cursor } = r;
      // Not in the store: a page on its way changes nothing on screen, so it costs no frame.
      loadingMore = true;
      const page = await get().runRead(
        "More customers",
        async () => await client().searchCustomers({ ...request, cursor }),
        { quiet: true },
      );
      loadingMore = false;
      if (seq !== searchSeq || !page) return;
      set((st) => {
        const have = new Set(st.customers.results.rows.map((c) => c.id));
        const more = overlay(page.customers ?? []).filter((c) => !have.has(c.id));
        const rows = [...st.customers.results.rows, ...more];
        const next = page.cursor || undefined;
        return {
          customers: {
            ...st.customers,
            results: {
              ...st.customers.results,
              rows,
              cursor: next,
              count: next ? st.customers.results.count : rows.length,
            },
          },
        };
      });
    },

    async customersToggleSort() {
      patch({ sort: get().customers.sort === "name" ? "created" : "name" });
      await search(true);
    },

    async customersApplyFilters(input) {
      const filters: LookupFilters = {};
      const group = input.group.trim();
      if (group !== "") {
        const groups = get().customers.groups;
        const found =
          groups.find((g) => g.id === group) ?? groups.find((g) => g.name.toLowerCase() === group.toLowerCase());
        if (!found?.id) {
          const names = groups.map((g) => g.name).join(", ");
          return `No group called “${group}”${names ? `; there are: ${names}` : ""}.`;
        }
        filters.groupId = found.id;
      }
      const sources = parseSources(input.sources);
      if (!sources.ok) return sources.problem;
      const rule = input.rule.trim().toLowerCase();
      if (!["", "include", "exclude", "i", "e"].includes(rule))
        return "Sources are kept (include) or left out (exclude).";
      if (sources.value.length > 0) {
        filters.sources = { rule: rule.startsWith("e") ? "EXCLUDE" : "INCLUDE", values: sources.value };
      }
      if (input.from.trim() !== "") filters.createdFrom = input.from.trim();
      if (input.to.trim() !== "") filters.createdTo = input.to.trim();
      const check = lookupQuery({ kind: "all" }, filters, "name", timeZoneOf(get()), countryOf(get()));
      if (!check.ok) return check.problem;
      patch({ filters, view: { kind: "list" } });
      await search();
      return undefined;
    },

    async customersClearFilters() {
      patch({ filters: {} });
      await search();
    },

    customersOpenView(view) {
      patch({ view });
    },

    async customersLoadGroups() {
      const groups = await get().runRead(
        "Loading customer groups",
        async () => await client().listCustomerGroups().all(),
      );
      if (groups) patch({ groups, groupsLoaded: true });
    },

    async customersRefreshProfile(id) {
      const got = await get().runRead("Reading the profile", async () => await client().retrieveCustomer(id));
      const c = got?.customer;
      if (c) remember(c);
      return c;
    },

    async customersOpenProfile(id) {
      const c = await get().customersRefreshProfile(id);
      if (!c) return;
      // Who shares its email (exact, any case) or its phone (every spelling of the number).
      const found: { reason: DuplicateReason; others: Customer[] }[] = [];
      const country = countryOf(get());
      for (const { reason, key } of duplicateKeys(c, country)) {
        const filter =
          reason === "email"
            ? { email_address: { exact: key } }
            : { phone_number: { fuzzy: phoneSearchDigits(`+${key}`, country) } };
        const page = await get().runRead(
          "Looking for duplicates",
          async () => await client().searchCustomers({ query: { filter }, limit: 100 }),
          { quiet: true },
        );
        const others = (page?.customers ?? []).filter(
          (o) =>
            o.id !== c.id &&
            (reason === "email"
              ? o.email_address !== undefined && emailKey(o.email_address) === key
              : o.phone_number !== undefined && phoneKey(o.phone_number, country) === key),
        );
        found.push({ reason, others });
      }
      const probed = { ...get().customers.probed };
      const mark = (pid: string, reason: DuplicateReason) => {
        const reasons = probed[pid] ?? [];
        if (!reasons.includes(reason)) probed[pid] = [...reasons, reason];
      };
      delete probed[id];
      for (const { reason, others } of found) {
        for (const o of others) {
          mark(id, reason);
          if (o.id) mark(o.id, reason);
        }
      }
      patch({ probed });
    },

    async customersStartEdit(id) {
      const fresh = await get().customersRefreshProfile(id);
      if (fresh) patch({ view: { kind: "edit", base: fresh } });
    },

    async customersCreate(values) {
      const built = createBody(values, countryOf(get()));
      if (!built.ok) return built.problem;
      const body = JSON.stringify(built.value);
      if (createKey?.body !== body) createKey = { key: deps.newIdempotencyKey(), body };
      const key = createKey.key;
      const name = customerName(built.value);
      const res = await get().runWrite("customer:new", `Adding ${name}`, async () =>
        client().createCustomer({ ...built.value, idempotency_key: key }),
      );
      if (!res.ok) return writeProblem(res.error);
      createKey = undefined;
      const c = res.value.customer;
      if (c?.id) {
        const id = c.id;
        set((s) => ({
          customers: {
            ...s.customers,
            local: { ...s.customers.local, [id]: c },
            results: {
              ...s.customers.results,
              rows: [c, ...s.customers.results.rows.filter((r) => r.id !== id)],
              count: s.customers.results.count === undefined ? undefined : s.customers.results.count + 1,
            },
            cursorTo: { id, seq: s.customers.cursorTo.seq + 1 },
            view: { kind: "list" },
          },
        }));
      } else patch({ view: { kind: "list" } });
      get().setStatus({ kind: "info", text: `Added ${name}.` });
      return undefined;
    },

    async customersSave(values) {
      const view = get().customers.view;
      if (view.kind !== "edit") return "No profile is being edited.";
      return save(view.base, values, view.base);
    },

    customersTogglePick(field) {
      const view = get().customers.view;
      if (view.kind !== "conflict") return;
      const picked = view.picked.includes(field) ? view.picked.filter((f) => f !== field) : [...view.picked, field];
      patch({ view: { ...view, picked } });
    },

    async customersReapply() {
      const view = get().customers.view;
      if (view.kind !== "conflict") return "There is nothing to re-apply.";
      const values = reapplyValues(view.theirs, view.mine, view.picked, countryOf(get()));
      return save(view.theirs, values, view.base, view.mine);
    },

    customersReapplyInForm() {
      const view = get().customers.view;
      if (view.kind !== "conflict") return;
      // The form is on their version (its version is sent) and shows it with the picked fields of mine.
      patch({
        view: {
          kind: "edit",
          base: view.theirs,
          initial: reapplyValues(view.theirs, view.mine, view.picked, countryOf(get())),
        },
      });
    },

    async customersDelete(id) {
      const c = get().customers.local[id] ?? get().customers.results.rows.find((r) => r.id === id);
      if (!c) return;
      const name = customerName(c);
      const res = await get().runWrite(`customer:${id}`, `Deleting ${name}`, async () =>
        client().deleteCustomer(id, c.version === undefined ? {} : { version: c.version }),
      );
      if (res.ok) {
        forget(id);
        get().setStatus({ kind: "info", text: `Deleted ${name}.` });
        return;
      }
      if (res.error.kind === "failed" && isVersionConflict(res.error.cause)) {
        await get().customersRefreshProfile(id);
        get().setStatus({
          kind: "rule",
          text: `${name} was changed elsewhere since it was read; nothing was deleted. Look again, then delete if still wanted.`,
        });
      }
    },

    async customersSetMembership(customerId, groupId, member) {
      const group = get().customers.groups.find((g) => g.id === groupId)?.name ?? groupId;
      const name = nameOf(customerId);
      const res = await get().runWrite(
        `customer:${customerId}:group:${groupId}`,
        member ? `Adding ${name} to ${group}` : `Removing ${name} from ${group}`,
        async () =>
          member
            ? client().addGroupToCustomer(customerId, groupId)
            : client().removeGroupFromCustomer(customerId, groupId),
      );
      if (!res.ok) return;
      // The membership changes the profile's version too: read it back rather than guess.
      await get().customersRefreshProfile(customerId);
      get().setStatus({ kind: "info", text: member ? `${name} is in ${group}.` : `${name} is no longer in ${group}.` });
    },

    async customersRemoveCard(customerId, cardId) {
      const name = nameOf(customerId);
      const res = await get().runWrite(
        `customer:${customerId}:card:${cardId}`,
        `Removing a card of ${name}`,
        async () => client().deleteCustomerCard(customerId, cardId),
      );
      if (!res.ok) return;
      await get().customersRefreshProfile(customerId);
      get().setStatus({ kind: "info", text: `The card is no longer on file for ${name}.` });
    },

    async customersScanDuplicates() {
      const request = get().customers.results.request ?? searchRequest({}, CUSTOMERS_PAGE_SIZE, false);
      const seq = ++scanSeq;
      patch({
        view: { kind: "duplicates" },
        scan: { phase: "scanning", scanned: 0, total: get().customers.results.count, groups: [] },
      });
      // Only what grouping needs is kept: the whole directory may be read.
      const slim: Customer[] = [];
      let cursor: string | undefined;
      do {
        const page = await get().runRead(
          "Looking for duplicates",
          async () =>
            await client().searchCustomers({ ...request, limit: 100, ...(cursor ? { cursor } : {}), count: !cursor }),
          { quiet: true },
        );
        if (seq !== scanSeq) return;
        if (!page) {
          patch({ scan: { ...get().customers.scan, phase: "failed" } });
          return;
        }
        for (const c of overlay(page.customers ?? [])) {
          slim.push({
            ...(c.id ? { id: c.id } : {}),
            ...(c.given_name ? { given_name: c.given_name } : {}),
            ...(c.family_name ? { family_name: c.family_name } : {}),
            ...(c.company_name ? { company_name: c.company_name } : {}),
            ...(c.email_address ? { email_address: c.email_address } : {}),
            ...(c.phone_number ? { phone_number: c.phone_number } : {}),
          });
        }
        cursor = page.cursor || undefined;
        const scan = get().customers.scan;
        patch({
          scan: {
            ...scan,
            scanned: slim.length,
            total: page.count ?? scan.total,
            groups: cursor ? scan.groups : duplicateGroups(slim, countryOf(get())),
          },
        });
      } while (cursor && slim.length < DUPLICATE_SCAN_LIMIT);
      if (seq === scanSeq)
        patch({ scan: { ...get().customers.scan, groups: duplicateGroups(slim, countryOf(get())), phase: "done" } });
    },

    customersStopScan() {
      const scan = get().customers.scan;
      if (scan.phase !== "scanning") return;
      scanSeq++;
      patch({ scan: { ...scan, phase: "stopped" } });
    },
  };

  /**
   * Sends an update of `current` to `values`. On a version conflict the colleague's version is
   * read and the screen shows both side by side, with the manager's changes picked for re-applying.
   */
  async function save(
    current: Customer,
    values: Partial<ProfileValues>,
    base: Customer,
    mine: Partial<ProfileValues> = values,
  ): Promise<string | undefined> {
    const id = current.id ?? "";
    const built = updateBody(current, values, countryOf(get()));
    if (!built.ok) {
      if (built.problem === "Nothing changed." && get().customers.view.kind === "conflict") {
        patch({ view: { kind: "list" } });
        get().setStatus({ kind: "info", text: "Nothing of yours to re-apply: the profile stays as it is now." });
        return undefined;
      }
      return built.problem;
    }
    const name = customerName({ ...current, ...(built.value as Partial<Customer>) });
    const body: CustomerUpdate = built.value;
    const res = await get().runWrite(`customer:${id}`, `Saving ${name}`, async () => client().updateCustomer(id, body));
    if (res.ok) {
      if (res.value.customer) remember(res.value.customer);
      patch({ view: { kind: "list" } });
      get().setStatus({ kind: "info", text: `Saved ${name}.` });
      return undefined;
    }
    if (res.error.kind === "failed" && isVersionConflict(res.error.cause)) {
      const theirs = await get().customersRefreshProfile(id);
      if (!theirs) return "Someone else changed this profile first, and it cannot be read now.";
      const full: ProfileValues = { ...profileValues(base, countryOf(get())), ...mine };
      const picked = defaultReapply(conflictDiff(base, full, theirs, countryOf(get())));
      patch({ view: { kind: "conflict", base, mine: full, theirs, picked } });
      get().setStatus({
        kind: "rule",
        text: `Someone else changed ${name} first. Both versions are shown: pick what of yours to re-apply.`,
      });
      return undefined;
    }
    return writeProblem(res.error);
  }
};
