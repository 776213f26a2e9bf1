import { type FormProblem, onField } from "../domain/form-problem.js";
import { checkBreakTypeName, checkBreakTypeRoom } from "../domain/shifts.js";
import { durationMinutes, isoDuration } from "../domain/time.js";
import type { BreakType } from "../spec/generated/types.js";
import { writeProblem } from "./errors.js";
import type { SliceCreator } from "./store.js";

/** The form open on the break types screen, if any. */
export type BreakTypeForm = { kind: "none" } | { kind: "add" } | { kind: "edit"; id: string };

/** What the break type form submits. */
export interface BreakTypeInput {
  name: string;
  minutes: string;
  paid: string;
}

/** The break types slice: the location's break types and their editing. */
export interface BreakTypesSlice {
  breakTypes: { items: BreakType[]; form: BreakTypeForm; loaded: boolean };
  /** Reads the location's break types; `quiet` for the background refresh. */
  loadBreakTypes(options?: { quiet?: boolean }): Promise<void>;
  openBreakTypeForm(form: BreakTypeForm): void;
  /** Adds a break type; refuses in words at the limit, before the service would. */
  addBreakType(input: BreakTypeInput): Promise<FormProblem>;
  updateBreakTypeFields(id: string, input: BreakTypeInput): Promise<FormProblem>;
  deleteBreakType(id: string): Promise<void>;
}

/** Checks the form's values; returns the break type fields or a problem in words and the field it is about. */
export function parseBreakTypeInput(
  input: BreakTypeInput,
):
  | { ok: true; value: Pick<BreakType, "break_name" | "expected_duration" | "is_paid"> }
  | { ok: false; problem: string; field: keyof BreakTypeInput } {
  const name = input.name.trim();
  if (!name) return { ok: false, problem: "A break type needs a name.", field: "name" };
  const minutes = Number(input.minutes.trim());
  if (!Number.isInteger(minutes) || minutes <= 0 || minutes > 24 * 60) {
    return { ok: false, problem: "Duration is whole minutes between 1 and 1440.", field: "minutes" };
  }
  const paid = input.paid.trim().toLowerCase();
  if (!["y", "yes", "n", "no", "paid", "unpaid"].includes(paid)) {
    return { ok: false, problem: "Paid is y or n.", field: "paid" };
  }
  return {
    ok: true,
    value: {
      break_name: name,
      expected_duration: isoDuration(minutes),
      is_paid: paid.startsWith("y") || paid === "paid",
    },
  };
}

/** The form's values for an existing break type. */
export function breakTypeInputOf(t: BreakType): BreakTypeInput {
  return {
    name: t.break_name,
    minutes: String(Math.round(durationMinutes(t.expected_duration) ?? 0)),
    paid: t.is_paid ? "y" : "n",
  };
}

/** Builds the break types slice. */
export const createBreakTypesSlice: SliceCreator<BreakTypesSlice> = (set, get, deps) => {
  const patch = (p: Partial<BreakTypesSlice["breakTypes"]>) => set((s) => ({ breakTypes: { ...s.breakTypes, ...p } }));
  // Another screen read the list afresh (it found a type deleted elsewhere): show the same.
  deps.events.on("break-types-read", (e) => {
    if (e.locationId === get().locationId) patch({ items: e.items, loaded: true });
  });
  return {
    breakTypes: { items: [], form: { kind: "none" }, loaded: false },

    async loadBreakTypes(options = {}) {
      const locationId = get().locationId;
      if (!locationId) return;
      const items = await get().runRead(
        "Loading break types",
        () => deps.client.labor.listBreakTypes({ location_id: locationId }).all(),
        options,
      );
      if (items && get().locationId === locationId) patch({ items, loaded: true });
    },

    openBreakTypeForm(form) {
      patch({ form });
    },

    async addBreakType(input) {
      const locationId = get().locationId;
      if (!locationId) return "No location is selected.";
      const full = checkBreakTypeRoom(get().breakTypes.items);
      if (full) return full;
      const parsed = parseBreakTypeInput(input);
      if (!parsed.ok) return onField(parsed.problem, parsed.field);
      const taken = checkBreakTypeName(parsed.value.break_name, get().breakTypes.items);
      if (taken) return onField(taken, "name");
      const key = deps.newIdempotencyKey();
      const res = await get().runWrite("break-type:add", `Adding ${parsed.value.break_name}`, () =>
        deps.client.labor.createBreakType({
          idempotency_key: key,
          break_type: { location_id: locationId, ...parsed.value },
        }),
      );
      if (!res.ok) return writeProblem(res.error);
      const added = res.value.break_type;
      if (!added) return "The service did not return the new break type.";
      patch({ items: [...get().breakTypes.items, added], form: { kind: "none" } });
      get().setStatus({ screen: "break-types", kind: "info", text: `Added ${added.break_name}.` });
      return undefined;
    },

    async updateBreakTypeFields(id, input) {
      const current = get().breakTypes.items.find((t) => t.id === id);
      if (!current) return "That break type no longer exists.";
      const parsed = parseBreakTypeInput(input);
      if (!parsed.ok) return onField(parsed.problem, parsed.field);
      const taken = checkBreakTypeName(parsed.value.break_name, get().breakTypes.items, id);
      if (taken) return onField(taken, "name");
      const { created_at: _c, updated_at: _u, id: _i, ...rest } = current;
      const res = await get().runWrite(`break-type:${id}`, `Saving ${parsed.value.break_name}`, () =>
        deps.client.labor.updateBreakType(id, { break_type: { ...rest, ...parsed.value } }),
      );
      if (!res.ok) return writeProblem(res.error);
      const saved = res.value.break_type;
      if (!saved) return "The service did not return the saved break type.";
      patch({ items: get().breakTypes.items.map((t) => (t.id === id ? saved : t)), form: { kind: "none" } });
      get().setStatus({ screen: "break-types", kind: "info", text: `Saved ${saved.break_name}.` });
      return undefined;
    },

    async deleteBreakType(id) {
      const current = get().breakTypes.items.find((t) => t.id === id);
      if (!current) return;
      const res = await get().runWrite(`break-type:${id}`, `Deleting ${current.break_name}`, () =>
        deps.client.labor.deleteBreakType(id),
      );
      if (res.ok) {
        patch({ items: get().breakTypes.items.filter((t) => t.id !== id) });
        get().setStatus({ screen: "break-types", kind: "info", text: `Deleted ${current.break_name}.` });
      }
    },
  };
};
