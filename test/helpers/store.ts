import { type CreateStoreOptions, createStore, type LoadedStore } from "../../src/state/index.js";
import { LAZY_SLICE_NAMES } from "../../src/state/store.js";

/**
 * A store with every screen's slice in: the app adds a screen's slice when the screen is first
 * shown; tests of a slice's actions call them without showing anything.
 */
export async function createFullStore(options: CreateStoreOptions): Promise<LoadedStore> {
  const store = createStore(options);
  await Promise.all(LAZY_SLICE_NAMES.map((name) => store.getState().loadSlice(name)));
  // Every slice is in (awaited above): the state reads as loaded.
  return store as LoadedStore;
}
