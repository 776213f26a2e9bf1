// Sending a kept write: the one place a write of the outbox becomes a call to the service, used
// for the first try (when the service answers, the write is simply made) and for every try after
// it from the outbox. A change to a shift or a profile is made over the newest copy known — the
// one it was based on, or the answer of an earlier kept write — and carries that copy's version.
// Sent again after its answer was lost, such a change meets a newer version: the object is read,
// and if it already has the change, the change counts as made (it is not made twice).
import {
  applyShiftChange,
  customerUpdateApplied,
  type KeptAnswer,
  type KeptEntry,
  type KeptTarget,
  type KeptWrite,
  shiftChangeApplied,
} from "../domain/kept-writes.js";
import type { Customer, Shift } from "../spec/generated/types.js";
import { SquareApiError } from "../square/errors.js";
import { isVersionConflict } from "./errors.js";
import type { StoreClient } from "./types.js";

/** The part of the client kept writes use. */
export interface KeptClient {
  labor: Pick<StoreClient["labor"], "createShift" | "updateShift" | "deleteShift" | "getShift">;
  customers: Pick<
    StoreClient["customers"],
    "createCustomer" | "updateCustomer" | "retrieveCustomer" | "addGroupToCustomer" | "removeGroupFromCustomer"
  >;
  giftCards: Pick<StoreClient["giftCards"], "createGiftCardActivity">;
}

/** What a write needs besides itself: the answers of the kept writes before it. */
export interface SendContext {
  client: KeptClient;
  /** Accepted kept writes before this one, newest first (their answers hold the newest copies). */
  earlier: readonly Pick<KeptEntry, "seq" | "answer">[];
}

/** A write that cannot go yet: what it acts on was made by a kept write with no answer on file. */
export class KeptTargetMissing extends Error {
  override name = "KeptTargetMissing";
}

const notFound = (err: unknown) => err instanceof SquareApiError && err.status === 404;

/** The newest copy of the object a write acts on, and its id. */
function newest<T extends { id?: string; version?: number }>(
  target: KeptTarget<T>,
  ctx: SendContext,
  pick: (a: KeptAnswer) => T | undefined,
): T & { id: string } {
  let base: T | undefined;
  if (target.kind === "known") base = target.base;
  else {
    const maker = ctx.earlier.find((e) => e.seq === target.seq);
    base = maker?.answer ? pick(maker.answer) : undefined;
  }
  const id = target.kind === "known" ? target.id : base?.id;
  if (!base || !id) throw new KeptTargetMissing("what this change acts on was not made at the service");
  for (const e of ctx.earlier) {
    const copy = e.answer ? pick(e.answer) : undefined;
    if (copy?.id === id && (copy.version ?? 0) > (base.version ?? 0)) base = copy;
  }
  return { ...base, id };
}

/** Makes a kept write at the service and returns what it answered. */
export async function sendKept(write: KeptWrite, ctx: SendContext): Promise<KeptAnswer> {
  const { labor, customers, giftCards } = ctx.client;
  switch (write.kind) {
    case "clock-in":
    case "add-shift": {
      const res = await labor.createShift(write.request);
      return res.shift ? { shift: res.shift } : {};
    }
    case "shift-change":
      return sendShiftChange(write, ctx);
    case "delete-shift":
      try {
        await labor.deleteShift(write.shiftId);
        return {};
      } catch (err) {
        // Sent again after its answer was lost: the shift is gone already, as wanted.
        if (notFound(err)) return { gone: true };
        throw err;
      }
    case "create-customer": {
      const res = await customers.createCustomer(write.request);
      return res.customer ? { customer: res.customer } : {};
    }
    case "update-customer":
      return sendCustomerUpdate(write, ctx);
    case "customer-group": {
      const c = newest(write.customer, ctx, (a) => a.customer);
      if (write.member) await customers.addGroupToCustomer(c.id, write.groupId);
      else await customers.removeGroupFromCustomer(c.id, write.groupId);
      // The membership moves the profile's version: a later kept edit is based on this copy.
      const now = (await customers.retrieveCustomer(c.id)).customer;
      return now ? { customer: now } : {};
    }
    case "gift-card": {
      const res = await giftCards.createGiftCardActivity(write.request);
      return res.gift_card_activity ? { activity: res.gift_card_activity } : {};
    }
  }
}

async function sendShiftChange(
  write: Extract<KeptWrite, { kind: "shift-change" }>,
  ctx: SendContext,
): Promise<KeptAnswer> {
  const base: Shift & { id: string } = newest(write.shift, ctx, (a) => a.shift);
  const { id, created_at: _c, updated_at: _u, ...rest } = applyShiftChange(base, write.change);
  try {
    const res = await ctx.client.labor.updateShift(base.id, { shift: rest });
    return res.shift ? { shift: res.shift } : {};
  } catch (err) {
    if (!isVersionConflict(err)) throw err;
    const now = (await ctx.client.labor.getShift(base.id)).shift;
    if (now && shiftChangeApplied(now, write.change)) return { shift: now };
    throw err;
  }
}

async function sendCustomerUpdate(
  write: Extract<KeptWrite, { kind: "update-customer" }>,
  ctx: SendContext,
): Promise<KeptAnswer> {
  const base: Customer & { id: string } = newest(write.customer, ctx, (a) => a.customer);
  const body = { ...write.update, ...(base.version === undefined ? {} : { version: base.version }) };
  try {
    const res = await ctx.client.customers.updateCustomer(base.id, body);
    return res.customer ? { customer: res.customer } : {};
  } catch (err) {
    if (!isVersionConflict(err)) throw err;
    const now = (await ctx.client.customers.retrieveCustomer(base.id)).customer;
    if (now && customerUpdateApplied(now, write.update)) return { customer: now };
    throw err;
  }
}
