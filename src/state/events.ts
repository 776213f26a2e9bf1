import type { BreakType, Customer, Shift } from "../spec/generated/types.js";

/** What one slice tells the others: a slice never writes another slice's state. */
export type AppEvent =
  /** A shift was created, changed or closed by this app (the time clock and review both hold shifts). */
  | { type: "shift-saved"; shift: Shift }
  /** A shift was deleted by this app. */
  | { type: "shift-deleted"; shiftId: string }
  /** A screen read a location's break types afresh (one was found deleted elsewhere). */
  | { type: "break-types-read"; locationId: string; items: BreakType[] }
  /** The location changed; screens reload what they show for it. */
  | { type: "location-changed"; locationId: string }
  /** The service answered after not answering (or for the first time): kept writes can go. */
  | { type: "service-answered" }
  /** The writes kept on this machine changed (kept, sent, refused, discarded): views laid over them redraw. */
  | { type: "kept-changed" }
  /** The service accepted a kept write of a profile (`seq`: the write; a kept creation's stand-in goes). */
  | { type: "kept-customer-saved"; seq: number; customer: Customer; created: boolean }
  /** The service accepted a kept load or adjustment of a card. */
  | { type: "kept-gift-card-saved"; cardId: string }
  /** The cursor of a list moved to a row (`id`; none when the list is empty). */
  | { type: "row-selected"; list: string; id: string | undefined }
  /** All locations were chosen, or one again: screens that can show every store reload. */
  | { type: "all-locations-changed"; all: boolean }
  /** The stocktake handled an entry of the counting line (or a scan); `seq` is its number. */
  | { type: "stocktake-entry-handled"; seq: number }
  /** Someone signed in or out (the account screen, or the session on a revoked token). */
  | { type: "session-changed"; signedIn: boolean; merchantId: string | undefined };

/** A listener of one kind of event. */
export type AppEventListener<T extends AppEvent["type"]> = (event: Extract<AppEvent, { type: T }>) => void;

/** A small synchronous event bus between slices. */
export interface EventBus {
  emit(event: AppEvent): void;
  /** Subscribes; returns the unsubscribe function. */
  on<T extends AppEvent["type"]>(type: T, listener: AppEventListener<T>): () => void;
}

/** Builds an event bus; a listener that throws does not stop the others. */
export function createEventBus(onError: (err: unknown) => void = () => {}): EventBus {
  const listeners = new Map<string, Set<(event: AppEvent) => void>>();
  return {
    emit(event) {
      for (const listener of [...(listeners.get(event.type) ?? [])]) {
        try {
          listener(event);
        } catch (err) {
          onError(err);
        }
      }
    },
    on(type, listener) {
      const set = listeners.get(type) ?? new Set();
      listeners.set(type, set);
      const wrapped = listener as (event: AppEvent) => void;
      set.add(wrapped);
      return () => set.delete(wrapped);
    },
  };
}
