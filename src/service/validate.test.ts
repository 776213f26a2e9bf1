import { describe, expect, it } from "vitest";
import { operations } from "../spec/generated/operations.js";
import { ServiceError } from "./errors.js";
import { validateBody } from "./validate.js";

/** The first refusal of a body, as code, field and detail. */
function refusal(op: keyof typeof operations, body: unknown) {
  try {
    validateBody(operations[op], body);
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    const [e] = err.errors;
    return { code: e?.code, field: e?.field, detail: e?.detail };
  }
  return undefined;
}

const count = (physical: Record<string, unknown>) => ({ type: "PHYSICAL_COUNT", physical_count: physical });

describe("validateBody", () => {
  it("names a refused field by its path through objects and arrays", () => {
    const body = {
      idempotency_key: "k",
      changes: [count({ quantity: "1" }), count({ quantity: "2" }), count({ quantity: 3 })],
    };
    expect(refusal("BatchChangeInventory", body)).toEqual({
      code: "EXPECTED_STRING",
      field: "changes[2].physical_count.quantity",
      detail: "Expected a string at changes[2].physical_count.quantity.",
    });
  });

  it("names a missing required field inside an array item", () => {
    const body = { shift: { location_id: "L1", start_at: "2026-11-27T09:00:00Z", breaks: [{ start_at: "x" }] } };
    expect(refusal("CreateShift", body)).toMatchObject({
      code: "MISSING_REQUIRED_PARAMETER",
      field: "shift.breaks[0].break_type_id",
    });
  });

  it("a path is not carried over from an earlier, accepted field", () => {
    const body = { idempotency_key: "k", changes: [count({ state: "IN_STOCK" })], ignore_unchanged_counts: "yes" };
    expect(refusal("BatchChangeInventory", body)).toMatchObject({
      code: "EXPECTED_BOOLEAN",
      field: "ignore_unchanged_counts",
    });
  });

  it("checks enumeration values, top-level lengths and bounds", () => {
    const state = { idempotency_key: "k", changes: [count({ state: "ON_THE_MOON" })] };
    expect(refusal("BatchChangeInventory", state)).toMatchObject({
      code: "INVALID_ENUM_VALUE",
      field: "changes[0].physical_count.state",
    });
    expect(refusal("BatchChangeInventory", { idempotency_key: "" })).toMatchObject({
      code: "VALUE_EMPTY",
      field: "idempotency_key",
    });
    expect(refusal("BatchRetrieveInventoryCounts", { limit: 1001 })).toMatchObject({
      code: "VALUE_TOO_HIGH",
      field: "limit",
    });
  });

  it("drops fields the schema does not name and nulls that mean not sent, and keeps the rest", () => {
    const body = { idempotency_key: "k", extra: 1, changes: [count({ state: "IN_STOCK", reference_id: null })] };
    expect(validateBody(operations.BatchChangeInventory, body)).toEqual({
      idempotency_key: "k",
      changes: [count({ state: "IN_STOCK" })],
    });
  });

  it("keeps a null that clears a customer's field", () => {
    const body = { note: null, nickname: "Sam" };
    expect(validateBody(operations.UpdateCustomer, body)).toEqual({ note: null, nickname: "Sam" });
  });

  it("checks each body on its own: a definition's checks are made once and keep nothing from an earlier body", () => {
    const money = (amount: unknown) => ({
      idempotency_key: "k",
      gift_card_activity: {
        type: "LOAD",
        location_id: "L1",
        load_activity_details: { amount_money: { amount, currency: "USD" } },
      },
    });
    expect(refusal("CreateGiftCardActivity", money(500))).toBeUndefined();
    expect(refusal("CreateGiftCardActivity", money("500"))).toEqual({
      code: "EXPECTED_INTEGER",
      field: "gift_card_activity.load_activity_details.amount_money.amount",
      detail: "Expected an integer at gift_card_activity.load_activity_details.amount_money.amount.",
    });
    // The same definition (Money) reached from another operation, after a refusal.
    const body = {
      idempotency_key: "k",
      location_id: "L1",
      gift_card: { type: "DIGITAL", balance_money: { currency: "XX" } },
    };
    expect(refusal("CreateGiftCard", body)).toMatchObject({
      code: "INVALID_ENUM_VALUE",
      field: "gift_card.balance_money.currency",
    });
    expect(refusal("CreateGiftCardActivity", money(1))).toBeUndefined();
  });
});
