import { homedir, userInfo } from "node:os";
import { join } from "node:path";
import { createStore as createVanillaStore, type StoreApi } from "zustand/vanilla";
import { DEFAULT_OVERTIME, type OvertimeRules } from "../domain/overtime.js";
import { DEFAULT_PAY_PERIOD, type PayPeriodRule } from "../domain/time.js";
import { CustomerIndexHandle, customerIndexPath, JournalHandle, journalPath } from "../local/handles.js";
import { OutboxHandle, outboxPath } from "../local/outbox.js";
import { type AccountContext, type AccountSlice, createAccountSlice } from "./account-slice.js";
import { type BreakTypesSlice, createBreakTypesSlice } from "./break-types-slice.js";
import type { CustomersSlice } from "./customers-slice.js";
import { createDialogSlice, type DialogSlice } from "./dialog-slice.js";
import type { DrawersSlice } from "./drawers-slice.js";
import { createEventBus, type EventBus } from "./events.js";
import { type FileWriter, nodeFiles } from "./export-csv.js";
import type { GiftCardsSlice } from "./gift-cards-slice.js";
import { createOutboxResolveSlice, type OutboxResolveSlice } from "./outbox-resolve.js";
import { createOutboxSlice, type OutboxSlice } from "./outbox-slice.js";
import type { PayoutsSlice } from "./payouts-slice.js";
import type { ReviewSlice } from "./review-slice.js";
import { createShellSlice, type ShellInit, type ShellSlice } from "./shell-slice.js";
import type { StocktakeSlice } from "./stocktake-slice.js";
import { createTimeClockSlice, type TimeClockSlice } from "./timeclock-slice.js";
import type { Clock, DataDir, EnvLabel, StoreClient, Timers } from "./types.js";
import type { V1Slice } from "./v1-slice.js";
import { createViewSlice, type ViewSlice } from "./view-slice.js";
import type { WebhooksSlice } from "./webhooks-slice.js";

/**
 * The slices of screens loaded on first use (src/ui/screens/registry.ts says how): each is added to
 * the store by {@link LazySlices.loadSlice} when its screen is first shown, so its module and the
 * domain code it carries are not compiled before the first frame. Until then its part of
 * {@link AppState} is absent: only its own screen, and code that loads it first, may read it.
 */
const LAZY_SLICES = {
  review: async () => (await import("./review-slice.js")).createReviewSlice,
  stocktake: async () => (await import("./stocktake-slice.js")).createStocktakeSlice,
  customers: async () => (await import("./customers-slice.js")).createCustomersSlice,
  drawers: async () => (await import("./drawers-slice.js")).createDrawersSlice,
  payouts: async () => (await import("./payouts-slice.js")).createPayoutsSlice,
  giftCards: async () => (await import("./gift-cards-slice.js")).createGiftCardsSlice,
  v1: async () => (await import("./v1-slice.js")).createV1Slice,
  webhooks: async () => (await import("./webhooks-slice.js")).createWebhooksSlice,
} satisfies { [N in keyof LazySliceTypes]: () => Promise<LoadedSliceCreator<LazySliceTypes[N]>> };

/** A slice loaded on first use: its state's key in {@link AppState}. */
export type LazySliceName = keyof typeof LAZY_SLICES;

/** Every slice loaded on first use. */
export const LAZY_SLICE_NAMES = Object.keys(LAZY_SLICES) as readonly LazySliceName[];

/** Each slice loaded on first use, by its name in {@link LAZY_SLICES}. */
interface LazySliceTypes {
  review: ReviewSlice;
  stocktake: StocktakeSlice;
  customers: CustomersSlice;
  drawers: DrawersSlice;
  payouts: PayoutsSlice;
  giftCards: GiftCardsSlice;
  v1: V1Slice;
  webhooks: WebhooksSlice;
}

/** Every slice loaded on first use, all in. */
type AllLazySlices = ReviewSlice &
  StocktakeSlice &
  CustomersSlice &
  DrawersSlice &
  PayoutsSlice &
  GiftCardsSlice &
  V1Slice &
  WebhooksSlice;

/** Adding the slices loaded on first use. */
export interface LazySlices {
  /** Loads the slice and adds it to the store, once; resolves with the state once it is there. */
  loadSlice<N extends LazySliceName>(name: N): Promise<Loaded<N>>;
  /** Whether the slice is in the store yet; once it says so, the slice's state and actions may be read. */
  hasSlice<N extends LazySliceName>(name: N): this is Loaded<N>;
}

/** The slices in the store from the start: the shell's, the time clock's and the others the first frame needs. */
type FirstSlices = ShellSlice &
  LazySlices &
  DialogSlice &
  ViewSlice &
  TimeClockSlice &
  BreakTypesSlice &
  AccountSlice &
  OutboxSlice &
  OutboxResolveSlice;

/**
 * The app state as it is: the slices of screens loaded on first use are absent until
 * {@link LazySlices.loadSlice} adds them, so their parts are optional here. Code that may run before
 * a screen was shown narrows with `hasSlice`; the screen's own code reads {@link LoadedState}.
 */
export type AppState = FirstSlices & Partial<AllLazySlices>;

/** The state once the slice `N` is in: what `hasSlice(N)` narrows to. */
export type Loaded<N extends LazySliceName> = AppState & LazySliceTypes[N];

/**
 * The state as a screen loaded on first use (and its slice's code) reads it: its code runs only
 * once the shell (src/ui/use-screens.tsx) has loaded the slices its registry entry names, and a
 * slice's own actions run only once it is in.
 */
export type LoadedState = FirstSlices & AllLazySlices;

/** What the slices share: the injected dependencies. */
export interface StoreDeps {
  client: StoreClient;
  clock: Clock;
  /** Timers and the time between keys (the search's debounce, the commit's waits). */
  timers: Timers;
  /** Files the exports write (never over an existing one unless asked). */
  files: FileWriter;
  /** Minted once per logical write, reused on its retries. */
  newIdempotencyKey: () => string;
  /** How slices tell each other what happened, instead of writing each other's state. */
  events: EventBus;
  /** The app's local data folder (`$XDG_DATA_HOME/backroom`). */
  dataDir: DataDir;
  /** The stocktake journal of the data folder, opened when first needed. */
  stocktakeJournal: JournalHandle;
  /** This store's customer index in the data folder, opened when the customers screen first needs it. */
  customerIndex: CustomerIndexHandle;
  /** When hours become overtime (config `overtime`). */
  overtime: OvertimeRules;
  /** How often the store pays, for the review's pay-period range (config `payPeriod`). */
  payPeriod: PayPeriodRule;
  /** The writes kept on this machine while the service does not answer, opened when first needed. */
  outbox: OutboxHandle;
  /** Which service the app works on, as the outbox files its writes (an address, or the demo store's file). */
  service: string;
  /** Who is at this terminal, as a kept write records it. */
  actor: string;
}

/** Options of {@link createStore}. */
export interface CreateStoreOptions {
  client: StoreClient;
  clock?: Clock;
  /** setTimeout and performance.now() otherwise. */
  timers?: Timers;
  env?: EnvLabel;
  baseUrl?: string;
  readOnly?: boolean;
  /** A standing warning for the status bar (e.g. no keychain). */
  notice?: string;
  /** The location to open on; the first active location otherwise. */
  defaultLocationId?: string;
  files?: FileWriter;
  /** Minted per logical write; injected for deterministic tests. */
  newIdempotencyKey?: () => string;
  dataDir?: DataDir;
  /** The stocktake journal; the data folder's `stocktake.db` otherwise. */
  stocktakeJournal?: JournalHandle;
  /**
   * The customer index of the store worked on (`customers-<store>.db` in the data folder: one
   * file per store, named by the command that knows the store); one named after `env` otherwise.
   */
  customerIndex?: CustomerIndexHandle;
  /** Config `overtime`; 40 h a week at 1.5× otherwise. */
  overtime?: OvertimeRules;
  /** Config `payPeriod`; the workweek otherwise. */
  payPeriod?: PayPeriodRule;
  /** The outbox; the data folder's `outbox.db` otherwise. */
  outbox?: OutboxHandle;
  /** Which service the outbox files writes under; the store label and address otherwise. */
  service?: string;
  /** Who is at this terminal; the system user otherwise. */
  actor?: string;
  /** The sign-in the account screen shows and manages (a promise while the demo store starts). */
  account?: AccountContext | Promise<AccountContext>;
}

/** The store's type, for the React provider. */
export type AppStore = StoreApi<AppState>;

/** The store as the code of a screen loaded on first use reads it (see {@link LoadedState}). */
export type LoadedStore = StoreApi<LoadedState>;

/** A slice factory: gets zustand's set/get and the shared dependencies. */
export type SliceCreator<T> = (
  set: StoreApi<AppState>["setState"],
  get: StoreApi<AppState>["getState"],
  deps: StoreDeps,
) => T;

/** The factory of a slice loaded on first use: its actions run once it is in, so they read it loaded. */
export type LoadedSliceCreator<T> = (set: LoadedStore["setState"], get: LoadedStore["getState"], deps: StoreDeps) => T;

/** `$XDG_DATA_HOME/backroom`, or `~/.local/share/backroom`. */
export function defaultDataDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return join(env.XDG_DATA_HOME || join(env.HOME || homedir(), ".local", "share"), "backroom");
}

/** The system's name for the person at this terminal. */
function systemUser(): string {
  try {
    return userInfo().username;
  } catch {
    return "unknown";
  }
}

/**
 * The app's timers. A timer never keeps the process alive by itself (unref): while the app runs,
 * the terminal's input does; once the manager quits, a retry waiting for an unreachable service
 * (asked every few seconds while offline) must not hold the exit back until it fires.
 */
export const appTimers: Timers = {
  after: (ms, run) => {
    setTimeout(run, ms).unref();
  },
  elapsed: () => performance.now(),
};

/** Builds the app's one store around an injected client and clock. */
export function createStore(options: CreateStoreOptions): AppStore {
  const dataDir = options.dataDir ?? defaultDataDir();
  const deps: StoreDeps = {
    client: options.client,
    clock: options.clock ?? { now: () => new Date() },
    timers: options.timers ?? appTimers,
    files: options.files ?? nodeFiles,
    newIdempotencyKey: options.newIdempotencyKey ?? (() => crypto.randomUUID()),
    events: createEventBus(),
    dataDir,
    stocktakeJournal: options.stocktakeJournal ?? new JournalHandle(journalPath(dataDir)),
    customerIndex:
      options.customerIndex ??
      new CustomerIndexHandle(customerIndexPath(dataDir, (options.env ?? "DEMO").toLowerCase())),
    overtime: options.overtime ?? DEFAULT_OVERTIME,
    payPeriod: options.payPeriod ?? DEFAULT_PAY_PERIOD,
    outbox: options.outbox ?? new OutboxHandle(outboxPath(dataDir)),
    service: options.service ?? `${options.env ?? "DEMO"} ${options.baseUrl ?? ""}`.trim(),
    actor: options.actor ?? systemUser(),
  };
  const shell: ShellInit = {
    env: options.env ?? "DEMO",
    baseUrl: options.baseUrl,
    readOnly: options.readOnly ?? false,
    notice: options.notice,
    defaultLocationId: options.defaultLocationId,
  };
  const loading = new Map<LazySliceName, Promise<void>>();
  // The lazy slices are absent until loaded (see LAZY_SLICES): the state starts as less than AppState.
  return createVanillaStore<AppState>()(
    (set, get) =>
      ({
        loadSlice: async <N extends LazySliceName>(name: N): Promise<Loaded<N>> => {
          let loaded = loading.get(name);
          if (!loaded) {
            // The slice's actions read it loaded (LoadedSliceCreator): they run only once it is in.
            const asLoaded = { set: set as LoadedStore["setState"], get: get as LoadedStore["getState"] };
            loaded = LAZY_SLICES[name]().then((create) => set(create(asLoaded.set, asLoaded.get, deps)));
            loading.set(name, loaded);
            // A chunk that could not be read (the install changed under a running app) may be tried again.
            loaded.catch(() => loading.delete(name));
          }
          await loaded;
          const s = get();
          if (!s.hasSlice(name)) throw new Error(`The ${name} part of the app was loaded but is not in the store.`);
          return s;
        },
        hasSlice: (name: LazySliceName): boolean => name in get(),
        ...createShellSlice(set, get, deps, shell),
        ...createDialogSlice(set, get, deps),
        ...createViewSlice(set, get, deps),
        ...createTimeClockSlice(set, get, deps),
        ...createBreakTypesSlice(set, get, deps),
        ...createOutboxSlice(set, get, deps),
        ...createOutboxResolveSlice(set, get, deps),
        ...createAccountSlice(options.account)(set, get, deps),
      }) as AppState,
  );
}
