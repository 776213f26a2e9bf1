import { describe, expect, it } from "vitest";
import type { Customer, Shift } from "../spec/generated/types.js";
import { cardWithKept, shiftsWithKept } from "./kept-overlay.js";
import { choicesOf, describeKept, refusalCodes, refusalOf } from "./kept-words.js";
import {
  applyCustomerUpdate,
  applyShiftChange,
  customerUpdateApplied,
  dependencyOf,
  type KeptEntry,
  type KeptWrite,
  shiftChangeApplied,
  withTime,
} from "./kept-writes.js";

const LUNCH = { id: "BT1", name: "Lunch", expectedDuration: "PT30M", isPaid: false };
const shift: Shift = {
  id: "S1",
  location_id: "L1",
  team_member_id: "TM1",
  start_at: "2026-03-02T14:00:00Z",
  version: 3,
};
const names = { member: () => "Ana Lopez", timeZone: "America/New_York", today: "2026-03-02" };

const clockIn = (memberId: string, at = "2026-03-02T14:00:00.000Z"): KeptWrite => ({
  kind: "clock-in",
  memberId,
  request: { idempotency_key: `k-${memberId}`, shift: { location_id: "L1", team_member_id: memberId, start_at: at } },
});

const entry = (seq: number, write: KeptWrite, state: KeptEntry["state"] = "kept"): KeptEntry => ({
  seq,
  service: "s",
  idempotencyKey: `key${seq}`,
  write,
  label: "",
  dependsOn: undefined,
  baseVersion: undefined,
  actedAt: "2026-03-02T14:00:00Z",
  actor: "me",
  locationId: "L1",
  state,
  attempts: 0,
  answer: undefined,
  problem: undefined,
  details: undefined,
});

describe("kept shift writes", () => {
  it("change a shift as the time clock would, and know when the service already has the change", () => {
    const onBreak = applyShiftChange(shift, { op: "start-break", breakType: LUNCH, at: "2026-03-02T17:00:00Z" });
    expect(onBreak.breaks).toMatchObject([
      { break_type_id: "BT1", name: "Lunch", start_at: "2026-03-02T17:00:00.000Z" },
    ]);
    expect(onBreak.version).toBe(3);
    // The service keeps its own spelling of the same instant.
    const asStored = {
      ...onBreak,
      breaks: [{ ...onBreak.breaks?.[0], start_at: "2026-03-02T12:00:00-05:00" }],
    } as Shift;
    expect(shiftChangeApplied(asStored, { op: "start-break", breakType: LUNCH, at: "2026-03-02T17:00:00Z" })).toBe(
      true,
    );
    expect(shiftChangeApplied(shift, { op: "start-break", breakType: LUNCH, at: "2026-03-02T17:00:00Z" })).toBe(false);
    const out = applyShiftChange(onBreak, { op: "clock-out", at: "2026-03-02T22:00:00Z" });
    expect(out).toMatchObject({ status: "CLOSED", end_at: "2026-03-02T22:00:00.000Z" });
    expect(out.breaks?.[0]?.end_at).toBe("2026-03-02T22:00:00.000Z");
    expect(shiftChangeApplied(out, { op: "clock-out", at: "2026-03-02T22:00:00Z" })).toBe(true);
  });

  it("wait for the unsettled write of the same member, and for the write that made their shift", () => {
    const open = [entry(1, clockIn("TM1")), entry(2, clockIn("TM2")), entry(3, clockIn("TM3"), "accepted")];
    const brk: KeptWrite = {
      kind: "shift-change",
      memberId: "TM1",
      shift: { kind: "kept", seq: 1 },
      change: { op: "end-break", at: "2026-03-02T18:00:00Z" },
    };
    expect(dependencyOf(brk, open)).toBe(1);
    expect(dependencyOf(clockIn("TM2"), open)).toBe(2);
    expect(dependencyOf(clockIn("TM3"), open)).toBeUndefined();
    expect(dependencyOf(clockIn("TM4"), open)).toBeUndefined();
  });

  it("move to another time: a clock-in's start, a break's or clock-out's time", () => {
    const moved = withTime(clockIn("TM1"), new Date("2026-03-02T14:06:00Z"));
    expect(moved?.kind === "clock-in" && moved.request.shift.start_at).toBe("2026-03-02T14:06:00.000Z");
    const set: KeptWrite = {
      kind: "shift-change",
      memberId: "TM1",
      shift: { kind: "known", id: "S1", base: shift },
      change: { op: "set-times", startAt: "x", endAt: undefined, breaks: [] },
    };
    expect(withTime(set, new Date())).toBeUndefined();
  });

  it("lay kept clock-ins, breaks and clock-outs over the open shifts read", () => {
    const entries = [
      entry(1, clockIn("TM2")),
      entry(2, {
        kind: "shift-change",
        memberId: "TM2",
        shift: { kind: "kept", seq: 1 },
        change: { op: "start-break", breakType: LUNCH, at: "2026-03-02T15:00:00Z" },
      }),
      entry(3, {
        kind: "shift-change",
        memberId: "TM1",
        shift: { kind: "known", id: "S1", base: shift },
        change: { op: "clock-out", at: "2026-03-02T16:00:00Z" },
      }),
      entry(4, clockIn("TM5"), "refused"),
    ];
    const { shifts, keptMembers } = shiftsWithKept([shift], entries, "L1", {});
    expect(shifts.map((s) => [s.id, s.team_member_id, s.breaks?.length ?? 0])).toEqual([["kept:1", "TM2", 1]]);
    expect([...keptMembers].sort()).toEqual(["TM1", "TM2"]);
    // Once the clock-in is made, its break is laid over the service's shift.
    const made = shiftsWithKept([{ ...shift, id: "S9", team_member_id: "TM2" }], entries.slice(1, 2), "L1", {
      1: "S9",
    });
    expect(made.shifts[0]?.breaks).toHaveLength(1);
  });
});

describe("kept customer writes", () => {
  it("set and remove fields, and see an edit the service already has", () => {
    const c: Customer = {
      id: "C1",
      given_name: "Rosa",
      nickname: "Ro",
      address: { locality: "Austin", postal_code: "1" },
    };
    const update = { phone_number: "+19175550134", nickname: null, address: { postal_code: null }, version: 2 };
    const after = applyCustomerUpdate(c, update);
    expect(after).toEqual({
      id: "C1",
      given_name: "Rosa",
      phone_number: "+19175550134",
      address: { locality: "Austin" },
    });
    expect(customerUpdateApplied(after, update)).toBe(true);
    expect(customerUpdateApplied(c, update)).toBe(false);
  });
});

describe("words and ways out", () => {
  it("say what a write does and why it was refused, with the choices that fit", () => {
    expect(describeKept(clockIn("TM1", "2026-03-02T14:00:00Z"), names)).toBe("Clock in Ana Lopez at 09:00");
    const overlap = refusalOf(
      clockIn("TM1"),
      { status: 400, code: "BAD_REQUEST", detail: "The shift overlaps another shift of the team member (S2)." },
      "Clock in Ana Lopez at 09:00",
    );
    expect(overlap).toEqual({
      problem: "Clock in Ana Lopez at 09:00: it overlaps a shift recorded elsewhere meanwhile.",
      choices: ["change-time", "discard", "open"],
    });
    const change: KeptWrite = {
      kind: "update-customer",
      customer: { kind: "known", id: "C1", base: { id: "C1" } },
      update: { note: "x" },
    };
    expect(choicesOf(change, refusalCodes("CONFLICT · HTTP 409 · UpdateCustomer"))).toEqual([
      "apply-again",
      "discard",
      "open",
    ]);
    expect(choicesOf(change, refusalCodes("NOT_FOUND · HTTP 404 · UpdateCustomer"))).toEqual(["discard"]);
  });

  it("say a kept decrement was refused because the card was spent meanwhile, in money, not the service's cents", () => {
    const take: KeptWrite = {
      kind: "gift-card",
      gan: "7783320000000005",
      cardId: "G1",
      request: {
        idempotency_key: "g9",
        gift_card_activity: { type: "ADJUST_DECREMENT", location_id: "L1", gift_card_id: "G1" },
      },
      before: { amount: 900, currency: "USD" },
      after: { amount: 300, currency: "USD" },
    };
    const refused = refusalOf(
      take,
      { status: 400, code: "INSUFFICIENT_FUNDS", detail: "The gift card holds 400 and cannot give 600." },
      "Take 6.00 USD off card …0005 (balance 9.00 USD → 3.00 USD)",
    );
    expect(refused).toEqual({
      problem:
        "Take 6.00 USD off card …0005 (balance 9.00 USD → 3.00 USD): the card holds less than 6.00 USD now (it was spent elsewhere meanwhile).",
      choices: ["discard", "open"],
    });
  });

  it("show a card's balance after its kept loads", () => {
    const load = (seq: number, after: number): KeptEntry =>
      entry(seq, {
        kind: "gift-card",
        gan: "7783",
        cardId: "G1",
        request: {
          idempotency_key: `g${seq}`,
          gift_card_activity: { type: "LOAD", location_id: "L1", gift_card_id: "G1" },
        },
        before: { amount: after - 500, currency: "USD" },
        after: { amount: after, currency: "USD" },
      });
    expect(cardWithKept({ id: "G1" }, [load(1, 1500), load(2, 2000)])).toEqual({
      balance: { amount: 2000, currency: "USD" },
      kept: 2,
    });
    expect(cardWithKept({ id: "G2" }, [load(1, 1500)])).toBeUndefined();
  });
});
