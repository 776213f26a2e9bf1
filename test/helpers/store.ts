import { type AppStore, type CreateStoreOptions, createStore } from "../../src/state/index.js";
import { LAZY_SLICE_NAMES } from "../../src/state/store.js";

/**
 * A store with every screen's slice in: the app adds a screen's slice when the screen is first
 * shown; tests of a slice's actions call them without showing anything.
 */
export async function createFullStore(options: CreateStoreOptions): Promise<AppStore> {
  const store = createStore(options);
  await Promise.all(LAZY_SLICE_NAMES.map((name) => store.getState().loadSlice(name)));
  return store;
}
