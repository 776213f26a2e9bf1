// The old transactions (V1) screen's I/O: reads through runRead, the refund and the order update
// through runWrite (v1-writes.ts), one idempotency key per logical refund. What the screen shows
// and which rules a form breaks is the pure machine's (v1-machine.ts); this slice feeds it the
// service's answers.

import { plural } from "../domain/plural.js";
import { localDate } from "../domain/time.js";
import { v1RangeTimes } from "../domain/v1-rules.js";
import type { V1Order, V1Payment, V1UpdateOrderRequest } from "../spec/generated/types.js";
import { placeKey, timeZoneOf } from "./shell-slice.js";
import type { LoadedSliceCreator, LoadedState, StoreDeps } from "./store.js";
import {
  isNotFound,
  isRetired,
  LIST_OPERATION,
  type Located,
  listV1,
  RETIRED_WHAT,
  retiredText,
  retrieveV1Order,
  retrieveV1Payment,
  retrieveV1Settlement,
  type V1ListQuery,
} from "./v1-load.js";
import {
  initialV1State,
  queryKey,
  V1_LIST_NAMES,
  type V1Detail,
  type V1Event,
  type V1State,
  type V1View,
  v1Reducer,
} from "./v1-machine.js";
import { v1Writes } from "./v1-writes.js";
import { selectedId } from "./view-slice.js";

/** The old transactions slice: the machine's state, and the reads and writes that feed it. */
export interface V1Slice {
  v1: V1State;
  /** Applies one event of the screen (a key, a form field) to its machine. */
  v1Dispatch(event: V1Event): void;
  /** Reads the shown list unless it was read for these filters already (`force`: read again). */
  loadV1(options?: { quiet?: boolean; force?: boolean }): Promise<void>;
  /** Shows another list, reading it if needed. */
  showV1View(view: V1View): Promise<void>;
  /** Applies the range form's dates (when they keep the rules) and reads again. */
  submitV1Range(): Promise<void>;
  /** Opens a record in full: a payment, a settlement with its entries, an order with its history. */
  openV1Detail(detail: V1Detail): Promise<void>;
  /**
   * Opens the payment a refund was made against. A refund of a split-tender payment names the
   * tender, not the payment: that payment is looked for among the payments already read.
   */
  openV1RefundedPayment(paymentOrTenderId: string): Promise<void>;
  /** Opens the refund form on the payment open in detail (or selected in the list). */
  openV1Refund(): void;
  /** Checks the refund form; when it keeps the rules, asks to confirm, then sends it. */
  submitV1Refund(): void;
  /** The payment a refund would be of (open, or selected in the list), and the order an action would change. */
  v1Current(): { payment: Located<V1Payment> | undefined; order: Located<V1Order> | undefined };
  /** Opens the form for an order action on the order open in detail. */
  openV1OrderAction(action: V1UpdateOrderRequest["action"]): void;
  /** Checks the order action against the order's state, asks to confirm, then sends it with its note. */
  submitV1OrderAction(): void;
}

/** What the slice's reads and writes share: the store, the machine, where and when, the current records. */
export interface V1Context {
  get: () => LoadedState;
  set: (patch: Partial<LoadedState>) => void;
  deps: StoreDeps;
  dispatch(event: V1Event): void;
  /** The selected location's time zone. */
  tz(): string;
  /** Where the lists read: the selected location, or every location. */
  where(): Pick<V1ListQuery, "locationIds" | "all">;
  /** A read that says once, in the view, that the service no longer offers it; other failures go up. */
  readOrRetire<T>(operation: string, read: () => Promise<T>): Promise<T | "retired">;
  currentPayment(): Located<V1Payment> | undefined;
  currentOrder(): Located<V1Order> | undefined;
  /** Each read carries a ticket; an answer that arrives after a newer read began is dropped. */
  tickets: { list: number; detail: number };
}

/** Builds what the reads and writes share, and follows the location. */
function v1Context(
  set: Parameters<LoadedSliceCreator<V1Slice>>[0],
  get: () => LoadedState,
  deps: StoreDeps,
): V1Context {
  const dispatch = (event: V1Event) => set((s) => ({ v1: v1Reducer(s.v1, event) }));
  const tickets = { list: 0, detail: 0 };
  // Another location, or all of them (or one again): what was read is of another place.
  const moved = () => {
    tickets.list++;
    tickets.detail++;
    dispatch({ type: "location-changed" });
  };
  deps.events.on("location-changed", moved);
  deps.events.on("all-locations-changed", moved);
  // The record a form works on: the one open in detail (of that kind), else the one the form was
  // opened on, else the one selected in the list.
  const current = <T extends { id?: string }>(kind: "payment" | "order", list: readonly T[], formId?: string) => {
    const v = get().v1;
    if (v.detail?.kind === kind) return v.record?.id === v.detail.id ? (v.record as unknown as T) : undefined;
    const name = kind === "payment" ? V1_LIST_NAMES.payments : V1_LIST_NAMES.orders;
    const id =
      formId ??
      selectedId(
        get(),
        name,
        list.map((r) => r.id ?? ""),
      );
    return list.find((r) => r.id === id);
  };
  return {
    get,
    set: (patch) => set(patch),
    deps,
    dispatch,
    tickets,
    tz: () => timeZoneOf(get()),
    where: () => {
      const s = get();
      if (s.allLocations) return { locationIds: s.locations.map((l) => l.id ?? ""), all: true };
      return { locationIds: s.locationId ? [s.locationId] : [], all: false };
    },
    async readOrRetire(operation, read) {
      try {
        return await read();
      } catch (err) {
        if (!isRetired(err)) throw err;
        dispatch({ type: "retired", operation, text: retiredText(err, RETIRED_WHAT[operation] ?? operation) });
        return "retired";
      }
    },
    currentPayment: () => {
      const f = get().v1.form;
      return current("payment", get().v1.lists.payments ?? [], f.kind === "refund" ? f.paymentId : undefined);
    },
    currentOrder: () => {
      const f = get().v1.form;
      return current("order", get().v1.lists.orders ?? [], f.kind === "order-action" ? f.orderId : undefined);
    },
  };
}

/** Builds the old transactions slice. */
export const createV1Slice: LoadedSliceCreator<V1Slice> = (set, get, deps) => {
  const c = v1Context(set, get, deps);
  return {
    // Today where the selected store is: the slice is added when its screen is first shown, after
    // the locations are read (UTC only when none is known yet).
    v1: initialV1State(localDate(deps.clock.now(), c.tz())),
    v1Dispatch: c.dispatch,
    v1Current: () => ({ payment: c.currentPayment(), order: c.currentOrder() }),
    ...v1Reads(c),
    openV1RefundedPayment: (id) => openRefundedPayment(c, id),
    ...v1Writes(c),
  };
};

/** The lists, the range and the records in full. */
function v1Reads(c: V1Context): Pick<V1Slice, "loadV1" | "showV1View" | "submitV1Range" | "openV1Detail"> {
  const { get, dispatch, deps } = c;
  return {
    async loadV1(options = {}) {
      // The default range follows today at the location (it moves on at midnight there).
      dispatch({ type: "today", today: localDate(deps.clock.now(), c.tz()) });
      const s = get();
      const view = s.v1.view;
      const key = queryKey(view, s.v1.filters, placeKey(s));
      const operation = LIST_OPERATION[view];
      if (!options.force && (s.v1.readFor[view] === key || s.v1.retired[operation])) return;
      if (!s.allLocations && !s.locationId) return;
      const ticket = ++c.tickets.list;
      const query: V1ListQuery = {
        ...c.where(),
        ...(view === "orders" ? {} : v1RangeTimes(s.v1.filters, c.tz())),
        order: "DESC",
        status: s.v1.filters.status === "ALL" ? undefined : s.v1.filters.status,
        includePartial: s.v1.filters.includePartial,
      };
      const label = `Reading ${RETIRED_WHAT[operation]}`;
      const progress = ({ pages, records }: { pages: number; records: number }) => {
        if (ticket !== c.tickets.list || options.quiet) return;
        c.set({ loading: `${label}: ${plural(pages, "page")}, ${plural(records, "record")}` });
      };
      const records = await get().runRead(
        label,
        () => c.readOrRetire(operation, () => listV1(deps.client, view, query, progress)),
        options,
      );
      if (records === undefined || records === "retired" || ticket !== c.tickets.list) return;
      dispatch({ type: "list-read", view, key, records: records as never });
    },

    async showV1View(view) {
      dispatch({ type: "show-view", view });
      await get().loadV1();
    },

    async submitV1Range() {
      const before = get().v1.filters;
      dispatch({ type: "submit-range", today: localDate(deps.clock.now(), c.tz()) });
      if (get().v1.filters !== before) await get().loadV1();
    },

    async openV1Detail(detail) {
      dispatch({ type: "open-detail", detail });
      const ticket = ++c.tickets.detail;
      // A record of the list knows its location; read it there (orders take no `me`).
      const listed = listedLocation(get().v1, detail);
      const at = listed ? { locationIds: [listed], all: false } : c.where();
      const record = await get().runRead(`Reading the ${detail.kind}`, () =>
        c.readOrRetire(RETRIEVE[detail.kind], (): Promise<NonNullable<V1State["record"]>> => {
          if (detail.kind === "payment") return retrieveV1Payment(deps.client, at, detail.id);
          if (detail.kind === "settlement") return retrieveV1Settlement(deps.client, at, detail.id);
          return retrieveV1Order(deps.client, at, detail.id);
        }),
      );
      if (record === undefined || record === "retired" || ticket !== c.tickets.detail) return;
      dispatch({ type: "record-read", record });
    },
  };
}

/** A refund's tender whose split payment is not among the payments read: what to do, in full and short. */
export const SPLIT_TENDER_NOT_READ = {
  text: "This refund went back to one tender of a split payment; that payment is not among the payments read. Read Payments for the days before the refund (p, then d) and open it there.",
  short: "Its split payment is not among those read: read Payments for the days before the refund (p, then d).",
};
/**
 * Opens the payment a refund was made against: among the payments read (a refund of a split-tender
 * payment names the tender), else asked of the service by id.
 */
async function openRefundedPayment(c: V1Context, id: string): Promise<void> {
  const { get, dispatch, deps } = c;
  const owner = get().v1.lists.payments?.find((p) => p.id === id || p.tender?.some((t) => t.id === id));
  if (owner?.id) return get().openV1Detail({ kind: "payment", id: owner.id });
  const answer = await get().runRead("Looking for the payment", async () => ({
    found: await retrieveV1Payment(deps.client, c.where(), id).catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    }),
  }));
  if (!answer) return;
  if (!answer.found) {
    get().setStatus({ screen: "v1", kind: "rule", ...SPLIT_TENDER_NOT_READ, details: `tender ${id}` });
    return;
  }
  dispatch({ type: "open-detail", detail: { kind: "payment", id: answer.found.id ?? id } });
  dispatch({ type: "record-read", record: answer.found });
}

/** The operation that reads each kind of record. */
const RETRIEVE: Readonly<Record<V1Detail["kind"], string>> = {
  payment: "V1RetrievePayment",
  settlement: "V1RetrieveSettlement",
  order: "V1RetrieveOrder",
};

/** The location a listed record was read at, when the list knows it. */
function listedLocation(v: V1State, d: V1Detail): string | undefined {
  const list = d.kind === "payment" ? v.lists.payments : d.kind === "settlement" ? v.lists.settlements : v.lists.orders;
  return (list as { id?: string; location_id?: string }[] | undefined)?.find((r) => r.id === d.id)?.location_id;
}
