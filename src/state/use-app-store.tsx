import { createContext, type ReactNode, useContext } from "react";
import { useStore } from "zustand";
import type { AppState, AppStore, LoadedState, LoadedStore } from "./store.js";

const StoreContext = createContext<AppStore | undefined>(undefined);

/** Makes the store available to every component below. */
export function StoreProvider({ store, children }: { store: AppStore; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

/** The store itself, for actions and one-off reads in handlers. */
export function useAppStoreApi(): AppStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error("useAppStore outside <StoreProvider>");
  return store;
}

/** Subscribes to one selected value; the component re-renders only when it changes. */
export function useAppStore<T>(selector: (s: AppState) => T): T {
  return useStore(useAppStoreApi(), selector);
}

/**
 * The store as a screen loaded on first use reads it: its slices are in before its module's
 * components are drawn (src/ui/use-screens.tsx loads them first), so it reads them without checks.
 */
export function useLoadedStoreApi(): LoadedStore {
  return useAppStoreApi() as LoadedStore;
}

/** {@link useAppStore} for a screen loaded on first use (see {@link useLoadedStoreApi}). */
export function useLoadedStore<T>(selector: (s: LoadedState) => T): T {
  return useStore(useLoadedStoreApi(), selector);
}
