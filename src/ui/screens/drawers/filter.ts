import { CASH_DRAWER_EVENT_TYPES } from "../../../domain/cash-drawers.js";
import type { CashDrawerEventType } from "../../../spec/generated/types.js";

/** The event type picker: a cursor over the types and the ones ticked. */
export interface FilterPickerState {
  cursor: number;
  picked: ReadonlySet<CashDrawerEventType>;
}

/** What can happen in the picker. */
export type FilterPickerAction =
  | { type: "move"; delta: number }
  | { type: "toggle" }
  /** Ticks every type when any is unticked, else unticks them all. */
  | { type: "all" }
  | { type: "set"; picked: readonly CashDrawerEventType[] };

/** The picker opened on the filter in force. */
export function initialFilterPicker(picked: readonly CashDrawerEventType[]): FilterPickerState {
  return { cursor: 0, picked: new Set(picked) };
}

/** The picker's reducer: the cursor wraps, space ticks the type under it. */
export function filterPickerReducer(state: FilterPickerState, action: FilterPickerAction): FilterPickerState {
  const n = CASH_DRAWER_EVENT_TYPES.length;
  switch (action.type) {
    case "move":
      return { ...state, cursor: (((state.cursor + action.delta) % n) + n) % n };
    case "toggle": {
      const type = CASH_DRAWER_EVENT_TYPES[state.cursor];
      if (!type) return state;
      const picked = new Set(state.picked);
      if (picked.has(type)) picked.delete(type);
      else picked.add(type);
      return { ...state, picked };
    }
    case "all":
      return {
        ...state,
        picked: state.picked.size === n ? new Set() : new Set(CASH_DRAWER_EVENT_TYPES),
      };
    case "set":
      return { ...state, picked: new Set(action.picked) };
  }
}

/** The filter the picker applies, in the spec's order; every type ticked is no filter at all. */
export function pickedTypes(state: FilterPickerState): CashDrawerEventType[] {
  if (state.picked.size === CASH_DRAWER_EVENT_TYPES.length) return [];
  return CASH_DRAWER_EVENT_TYPES.filter((t) => state.picked.has(t));
}

/** A manager's usual look at a drawer: money taken out, and the drawer opened without a sale. */
export const PAID_OUT_AND_NO_SALE: readonly CashDrawerEventType[] = ["NO_SALE", "PAID_OUT"];
