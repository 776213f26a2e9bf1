import { writeFile as fsWriteFile } from "node:fs/promises";
import { createStore as createVanillaStore, type StoreApi } from "zustand/vanilla";
import { type BreakTypesSlice, createBreakTypesSlice } from "./break-types-slice.js";
import { createReviewSlice, type ReviewSlice } from "./review-slice.js";
import { createShellSlice, type ShellSlice } from "./shell-slice.js";
import { createTimeClockSlice, type TimeClockSlice } from "./timeclock-slice.js";
import type { Clock, EnvLabel, StoreClient, WriteFile } from "./types.js";

/** The whole app state: one slice per screen plus the shell. */
export type AppState = ShellSlice & TimeClockSlice & ReviewSlice & BreakTypesSlice;

/** What the slices share: the injected dependencies. */
export interface StoreDeps {
  client: StoreClient;
  clock: Clock;
  writeFile: WriteFile;
}

/** Options of {@link createStore}. */
export interface CreateStoreOptions {
  client: StoreClient;
  clock?: Clock;
  env?: EnvLabel;
  readOnly?: boolean;
  /** A standing warning for the status bar (e.g. no keychain). */
  notice?: string;
  writeFile?: WriteFile;
  /** Minted per logical write; injected for deterministic tests. */
  newIdempotencyKey?: () => string;
}

/** The store's type, for the React provider. */
export type AppStore = StoreApi<AppState>;

/** A slice factory: gets zustand's set/get and the shared dependencies. */
export type SliceCreator<T> = (
  set: StoreApi<AppState>["setState"],
  get: StoreApi<AppState>["getState"],
  deps: StoreDeps & { newIdempotencyKey: () => string },
) => T;

/** Builds the app's one store around an injected client and clock. */
export function createStore(options: CreateStoreOptions): AppStore {
  const deps = {
    client: options.client,
    clock: options.clock ?? { now: () => new Date() },
    writeFile: options.writeFile ?? ((path: string, text: string) => fsWriteFile(path, text, "utf8")),
    newIdempotencyKey: options.newIdempotencyKey ?? (() => crypto.randomUUID()),
  };
  return createVanillaStore<AppState>()((set, get) => ({
    ...createShellSlice(set, get, deps, {
      env: options.env ?? "LOCAL",
      readOnly: options.readOnly ?? false,
      notice: options.notice,
    }),
    ...createTimeClockSlice(set, get, deps),
    ...createReviewSlice(set, get, deps),
    ...createBreakTypesSlice(set, get, deps),
  }));
}
