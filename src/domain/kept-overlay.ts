// What the screens show while writes are kept: the last read, with the kept writes laid over it in
// the order made — the member clocked in offline on shift, their break running, a profile with
// its edit, a card with its new balance. Pure: the reads and the outbox's entries in, the view out.
import type { Customer, GiftCard, Shift } from "../spec/generated/types.js";
import {
  applyCustomerUpdate,
  applyShiftChange,
  isPending,
  type KeptEntry,
  type KeptTarget,
  keptId,
} from "./kept-writes.js";
import type { Money } from "./money.js";

/** The service's ids of objects kept writes made, by the write's place (known once it is accepted). */
export type MadeIds = Readonly<Record<number, string>>;

/** The id a kept write's target has on screen: the service's, or the stand-in of the write that made it. */
export function targetId<T>(target: KeptTarget<T>, made: MadeIds): string {
  return target.kind === "known" ? target.id : (made[target.seq] ?? keptId(target.seq));
}

/** The writes still to be sent, in order: the ones laid over what was read. */
const pendingOf = (entries: readonly KeptEntry[]) => entries.filter((e) => isPending(e.state));

/**
 * The open shifts at a location with the kept shift writes laid over them: a kept clock-in is an
 * open shift (id `kept:<seq>`), a kept break or clock-out changes the shift it names, a kept
 * delete removes it. Also says which members have writes kept.
 */
export function shiftsWithKept(
  open: readonly Shift[],
  entries: readonly KeptEntry[],
  locationId: string | undefined,
  made: MadeIds,
): { shifts: Shift[]; keptMembers: ReadonlySet<string> } {
  let shifts = [...open];
  const keptMembers = new Set<string>();
  for (const e of pendingOf(entries)) {
    const w = e.write;
    if (w.kind === "clock-in" || w.kind === "add-shift") {
      keptMembers.add(w.memberId);
      const s = w.request.shift;
      if (!s.end_at && s.location_id === locationId) shifts.push({ ...s, id: keptId(e.seq), status: "OPEN" });
    } else if (w.kind === "shift-change") {
      keptMembers.add(w.memberId);
      const id = targetId(w.shift, made);
      const base = shifts.find((s) => s.id === id) ?? (w.shift.kind === "known" ? w.shift.base : undefined);
      if (!base) continue;
      const next = applyShiftChange(base, w.change);
      const stillOpen = !next.end_at && next.location_id === locationId;
      shifts = shifts.filter((s) => s.id !== id);
      if (stillOpen) shifts.push(next);
    } else if (w.kind === "delete-shift") {
      keptMembers.add(w.memberId);
      shifts = shifts.filter((s) => s.id !== w.shiftId);
    }
  }
  return { shifts, keptMembers };
}

/** The shifts of a list (the review's) with the kept changes and deletes of those shifts laid over. */
export function reviewShiftsWithKept(
  shifts: readonly Shift[],
  entries: readonly KeptEntry[],
  made: MadeIds,
): { shifts: Shift[]; keptIds: ReadonlySet<string> } {
  const byId = new Map(shifts.map((s) => [s.id ?? "", s]));
  const keptIds = new Set<string>();
  for (const e of pendingOf(entries)) {
    const w = e.write;
    if (w.kind === "shift-change") {
      const id = targetId(w.shift, made);
      const base = byId.get(id);
      if (!base) continue;
      byId.set(id, applyShiftChange(base, w.change));
      keptIds.add(id);
    } else if (w.kind === "delete-shift" && byId.has(w.shiftId)) {
      byId.delete(w.shiftId);
    }
  }
  return { shifts: [...byId.values()], keptIds };
}

/**
 * Profiles as the kept customer writes leave them, by id: a kept creation is a profile of its own
 * (id `kept:<seq>`), a kept edit changes the newest copy known (the read one, or an earlier kept
 * write's). `known` gives the profile as last read.
 */
export function customersWithKept(
  entries: readonly KeptEntry[],
  known: (id: string) => Customer | undefined,
  made: MadeIds,
): Map<string, Customer> {
  const out = new Map<string, Customer>();
  for (const e of pendingOf(entries)) {
    const w = e.write;
    if (w.kind === "create-customer") {
      const { idempotency_key: _k, ...fields } = w.request;
      out.set(keptId(e.seq), { ...fields, id: keptId(e.seq) } as Customer);
    } else if (w.kind === "update-customer") {
      const id = targetId(w.customer, made);
      const base = out.get(id) ?? known(id) ?? (w.customer.kind === "known" ? w.customer.base : undefined);
      if (base) out.set(id, applyCustomerUpdate(base, w.update));
    } else if (w.kind === "customer-group") {
      const id = targetId(w.customer, made);
      const base = out.get(id) ?? known(id) ?? (w.customer.kind === "known" ? w.customer.base : undefined);
      if (!base) continue;
      const groups = new Set(base.group_ids ?? []);
      if (w.member) groups.add(w.groupId);
      else groups.delete(w.groupId);
      out.set(id, { ...base, group_ids: [...groups] });
    }
  }
  return out;
}

/** A card's balance after its kept loads and adjustments, and how many are kept; undefined if none. */
export function cardWithKept(
  card: Pick<GiftCard, "id" | "balance_money">,
  entries: readonly KeptEntry[],
): { balance: Money; kept: number } | undefined {
  const mine = pendingOf(entries).filter((e) => e.write.kind === "gift-card" && e.write.cardId === card.id);
  const last = mine.at(-1)?.write;
  if (last?.kind !== "gift-card") return undefined;
  return { balance: last.after, kept: mine.length };
}
