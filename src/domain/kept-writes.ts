// Writes kept on this machine while the service does not answer: each one plain data (what to do,
// to what, with which idempotency key and base version), never a closure, so that it survives a
// restart in the outbox file and is sent later exactly as the manager made it. This module holds
// the writes' shapes and the pure rules about them: the change a shift write makes, whether a
// write is already in what the service holds now (its answer was lost), and what it is called.
import type {
  Break,
  CreateCustomerRequest,
  CreateGiftCardActivityRequest,
  CreateShiftRequest,
  Customer,
  GiftCardActivity,
  Shift,
} from "../spec/generated/types.js";
import { withBreakEnded, withBreakStarted, withShiftClosed } from "./clock-rules.js";
import type { CustomerUpdate } from "./customers-profile.js";
import type { Money } from "./money.js";

/** A break type as a kept break start needs it (the type may be renamed or deleted meanwhile). */
export interface KeptBreakType {
  id: string;
  name: string;
  expectedDuration: string;
  isPaid: boolean;
}

/** What a kept write does to a shift it changes. Times are ISO instants. */
export type ShiftChange =
  | { op: "start-break"; breakType: KeptBreakType; at: string }
  /** Ends the running break. */
  | { op: "end-break"; at: string }
  /** Ends the shift (a running break ends then too): a clock-out, or a forgotten shift's end. */
  | { op: "clock-out"; at: string }
  /** The review's edit: new times and the whole list of breaks. */
  | { op: "set-times"; startAt: string; endAt: string | undefined; breaks: Break[] };

/**
 * The object a kept write acts on: one the service already has (with the copy it was based on,
 * whose `version` travels with the write), or one made by an earlier kept write, named by that
 * write's place in the outbox.
 */
export type KeptTarget<T> = { kind: "known"; id: string; base: T } | { kind: "kept"; seq: number };

/** A write kept in the outbox, as data. */
export type KeptWrite =
  /** A clock-in: a new open shift (`request.shift.start_at` is when the manager pressed the key). */
  | { kind: "clock-in"; memberId: string; request: CreateShiftRequest }
  /** A whole past shift, added for someone who forgot to clock in. */
  | { kind: "add-shift"; memberId: string; request: CreateShiftRequest }
  | { kind: "shift-change"; memberId: string; shift: KeptTarget<Shift>; change: ShiftChange }
  | { kind: "delete-shift"; memberId: string; shiftId: string; startAt: string }
  | { kind: "create-customer"; request: CreateCustomerRequest }
  | { kind: "update-customer"; customer: KeptTarget<Customer>; update: CustomerUpdate }
  | {
      kind: "customer-group";
      customer: KeptTarget<Customer>;
      groupId: string;
      groupName: string;
      member: boolean;
    }
  /** A load or an adjustment of a card the service knows (its id), with the balance before → after. */
  | {
      kind: "gift-card";
      gan: string;
      cardId: string;
      request: CreateGiftCardActivityRequest;
      before: Money;
      after: Money;
    };

/** The kinds of kept write. */
export type KeptKind = KeptWrite["kind"];

/** What the service answered to a kept write: the object it made or changed. */
export interface KeptAnswer {
  shift?: Shift;
  customer?: Customer;
  activity?: GiftCardActivity;
  /** The object was already gone (a delete sent again after its answer was lost). */
  gone?: boolean;
}

/** Where a kept write stands in the outbox. */
export type KeptState =
  /** Not sent yet. */
  | "kept"
  /** A try went out; its outcome is unknown until it is answered (it is sent again, same key). */
  | "sent"
  | "accepted"
  /** The service refused it: it waits in To resolve. */
  | "refused"
  | "discarded";

/** One write of the outbox. */
export interface KeptEntry {
  /** Its place: writes are sent in this order. */
  seq: number;
  /** The service it is for (an address, or the demo store's file). */
  service: string;
  /** Fixed when kept; the write's identity and, for a create or a gift card, the key it is sent with. */
  idempotencyKey: string;
  write: KeptWrite;
  /** What it does, in words, as said when it was kept ("Clock in Ana Lopez at 09:00"). */
  label: string;
  /** The earlier write of the same person, profile or card it waits for, if it is not settled. */
  dependsOn: number | undefined;
  /** The version of the object the write was based on, when it changes one. */
  baseVersion: number | undefined;
  /** When the manager acted (not when it is sent). */
  actedAt: string;
  /** Who made it: the person at this terminal. */
  actor: string;
  locationId: string | undefined;
  state: KeptState;
  attempts: number;
  answer: KeptAnswer | undefined;
  /** Why the service refused it, in words; its code and field on `details`. */
  problem: string | undefined;
  details: string | undefined;
}

/** Whether a write still has to be sent (again). */
export const isPending = (state: KeptState): boolean => state === "kept" || state === "sent";

/**
 * The chain a write belongs to: writes of one chain are sent one after the other, in the order
 * made (a member's clock-in before their break and clock-out; a profile's creation before its
 * edits; a card's loads in turn). A profile made by a kept write is named by that write.
 */
export function chainOf(write: KeptWrite): string {
  switch (write.kind) {
    case "clock-in":
    case "add-shift":
    case "shift-change":
    case "delete-shift":
      return `member:${write.memberId}`;
    case "create-customer":
      return "customer:new";
    case "update-customer":
    case "customer-group":
      return write.customer.kind === "known" ? `customer:${write.customer.id}` : `customer:kept:${write.customer.seq}`;
    case "gift-card":
      return `gift-card:${write.cardId}`;
  }
}

/** The id an object made by the kept write `seq` has on screen until the service gives it one. */
export const keptId = (seq: number): string => `kept:${seq}`;

/** Whether an id on screen is a kept write's stand-in rather than the service's. */
export const isKeptId = (id: string | undefined): boolean => id?.startsWith("kept:") === true;

/** What a write acts on, from the copy on screen: a kept write's stand-in names that write. */
export function targetOf<T extends { id?: string | undefined }>(shown: T & { id: string }): KeptTarget<T> {
  return isKeptId(shown.id)
    ? { kind: "kept", seq: Number(shown.id.slice("kept:".length)) }
    : { kind: "known", id: shown.id, base: shown };
}

/** The shift as a kept change leaves it. */
export function applyShiftChange(shift: Shift, change: ShiftChange): Shift {
  switch (change.op) {
    case "start-break": {
      const t = change.breakType;
      const type = { id: t.id, break_name: t.name, expected_duration: t.expectedDuration, is_paid: t.isPaid };
      return withBreakStarted(shift, type, new Date(change.at));
    }
    case "end-break":
      return withBreakEnded(shift, new Date(change.at));
    case "clock-out":
      return withShiftClosed(shift, new Date(change.at));
    case "set-times": {
      const next: Shift = { ...shift, start_at: change.startAt, breaks: change.breaks };
      if (change.endAt) return { ...next, end_at: change.endAt, status: "CLOSED" };
      return next;
    }
  }
}

const sameInstant = (a: string | undefined, b: string | undefined) =>
  a !== undefined && b !== undefined && Date.parse(a) === Date.parse(b);

const breakKey = (b: Break) =>
  `${b.break_type_id}|${Date.parse(b.start_at)}|${b.end_at ? Date.parse(b.end_at) : "open"}`;

/**
 * Whether the shift as the service holds it now already has the change: a change sent again after
 * its answer was lost meets a newer version, and must then count as made, not be made twice.
 */
export function shiftChangeApplied(current: Shift, change: ShiftChange): boolean {
  const breaks = current.breaks ?? [];
  switch (change.op) {
    case "start-break":
      return breaks.some((b) => b.break_type_id === change.breakType.id && sameInstant(b.start_at, change.at));
    case "end-break":
      return breaks.some((b) => sameInstant(b.end_at, change.at));
    case "clock-out":
      return sameInstant(current.end_at, change.at);
    case "set-times": {
      if (!sameInstant(current.start_at, change.startAt)) return false;
      if (change.endAt ? !sameInstant(current.end_at, change.endAt) : current.end_at !== undefined) return false;
      const want = change.breaks.map(breakKey).sort();
      const have = breaks.map(breakKey).sort();
      return want.length === have.length && want.every((k, i) => k === have[i]);
    }
  }
}

/** The profile as a kept update leaves it: a value sets a field, `null` removes it. */
export function applyCustomerUpdate(customer: Customer, update: CustomerUpdate): Customer {
  const next: Record<string, unknown> = { ...customer };
  for (const [field, value] of Object.entries(update)) {
    if (field === "version") continue;
    if (field === "address" && value !== null && typeof value === "object") {
      const address: Record<string, unknown> = { ...(customer.address ?? {}) };
      for (const [part, v] of Object.entries(value)) {
        if (v === null) delete address[part];
        else address[part] = v;
      }
      next.address = address;
    } else if (value === null) delete next[field];
    else next[field] = value;
  }
  return next as Customer;
}

/** Whether the profile as the service holds it now already has every field of the update. */
export function customerUpdateApplied(current: Customer, update: CustomerUpdate): boolean {
  const now = current as Record<string, unknown>;
  return Object.entries(update).every(([field, value]) => {
    if (field === "version") return true;
    if (field === "address" && value !== null && typeof value === "object") {
      const address = (current.address ?? {}) as Record<string, unknown>;
      return Object.entries(value).every(([part, v]) =>
        v === null ? address[part] === undefined : address[part] === v,
      );
    }
    return value === null ? now[field] === undefined || now[field] === "" : now[field] === value;
  });
}

/** Whether a gift card write changes the balance by loading or adjusting it (the kinds kept offline). */
export const GIFT_CARD_KEPT_KINDS = ["load", "adjust-up", "adjust-down"] as const;

/** A write of the outbox as {@link dependencyOf} reads it. */
export type OpenEntry = Pick<KeptEntry, "seq" | "write" | "state">;

/**
 * The earlier write a new one must wait for: the last unsettled (or refused) write of its chain,
 * or the kept write that made the object it acts on. Undefined: it may be sent at once.
 */
export function dependencyOf(write: KeptWrite, open: readonly OpenEntry[]): number | undefined {
  const chain = chainOf(write);
  const target =
    write.kind === "shift-change"
      ? write.shift
      : write.kind === "update-customer" || write.kind === "customer-group"
        ? write.customer
        : undefined;
  let after = target?.kind === "kept" ? target.seq : undefined;
  for (const e of open) {
    if (e.state === "accepted" || e.state === "discarded") continue;
    if (chainOf(e.write) === chain && (after === undefined || e.seq > after)) after = e.seq;
  }
  return after;
}

/** The kept write that made the object `write` acts on, if it was made offline too. */
export function madeBy(write: KeptWrite): number | undefined {
  if (write.kind === "shift-change") return write.shift.kind === "kept" ? write.shift.seq : undefined;
  if (write.kind === "update-customer" || write.kind === "customer-group") {
    return write.customer.kind === "kept" ? write.customer.seq : undefined;
  }
  return undefined;
}

/**
 * The write with another time (a refused clock-in moved after the shift recorded elsewhere; a
 * break or clock-out moved), or undefined for a write without one time to change.
 */
export function withTime(write: KeptWrite, at: Date): KeptWrite | undefined {
  const iso = at.toISOString();
  if (write.kind === "clock-in") {
    return { ...write, request: { ...write.request, shift: { ...write.request.shift, start_at: iso } } };
  }
  if (write.kind === "shift-change" && write.change.op !== "set-times") {
    return { ...write, change: { ...write.change, at: iso } };
  }
  return undefined;
}

/** The time a write carries that {@link withTime} changes. */
export function timeOf(write: KeptWrite): string | undefined {
  if (write.kind === "clock-in") return write.request.shift.start_at;
  if (write.kind === "shift-change" && write.change.op !== "set-times") return write.change.at;
  return undefined;
}

/** The idempotency key a write is sent with, when its operation takes one. */
export function requestKey(write: KeptWrite): string | undefined {
  switch (write.kind) {
    case "clock-in":
    case "add-shift":
    case "create-customer":
    case "gift-card":
      return write.request.idempotency_key;
    default:
      return undefined;
  }
}

/** The write sent under another idempotency key (its body changed: the old key stays with the old body). */
export function withKey(write: KeptWrite, key: string): KeptWrite {
  switch (write.kind) {
    case "clock-in":
    case "add-shift":
      return { ...write, request: { ...write.request, idempotency_key: key } };
    case "create-customer":
      return { ...write, request: { ...write.request, idempotency_key: key } };
    case "gift-card":
      return { ...write, request: { ...write.request, idempotency_key: key } };
    default:
      return write;
  }
}

/** The version of the object a write was based on, when it changes one the service has. */
export function baseVersionOf(write: KeptWrite): number | undefined {
  if (write.kind === "shift-change") return write.shift.kind === "known" ? write.shift.base.version : undefined;
  if (write.kind === "update-customer" || write.kind === "customer-group") {
    return write.customer.kind === "known" ? write.customer.base.version : undefined;
  }
  return undefined;
}
