import { describe, expect, it } from "vitest";
import { refusalCode } from "../refusal.js";
import { applyUpdate, cardFromNonce, nameKey, newCustomer, phoneDigits } from "./rules.js";

const now = new Date("2026-03-01T12:00:00.000Z");
const later = new Date("2026-03-02T08:30:00.000Z");

describe("newCustomer", () => {
  it("needs one identifying field; a note or nickname alone is not enough", () => {
    expect(refusalCode(() => newCustomer({ note: "n", nickname: "x" }, { id: "C1", now }))).toBe(
      "MISSING_REQUIRED_PARAMETER",
    );
    for (const f of ["given_name", "family_name", "company_name"] as const) {
      expect(newCustomer({ [f]: "X" }, { id: "C1", now })[f]).toBe("X");
    }
    expect(newCustomer({ email_address: "a@b.co" }, { id: "C1", now }).email_address).toBe("a@b.co");
    expect(newCustomer({ phone_number: "212 555 0100" }, { id: "C1", now }).phone_number).toBe("212 555 0100");
  });

  it("fills the service's fields and leaves empty ones out", () => {
    const c = newCustomer({ given_name: "Ada", note: "", address: { locality: "" } }, { id: "C1", now });
    expect(c).toEqual({
      id: "C1",
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      given_name: "Ada",
      preferences: { email_unsubscribed: false },
      creation_source: "THIRD_PARTY",
      version: 0,
    });
  });

  it("checks birthdays, including 29 February without a year", () => {
    expect(newCustomer({ given_name: "A", birthday: "02-29" }, { id: "C", now }).birthday).toBe("0000-02-29");
    expect(refusalCode(() => newCustomer({ given_name: "A", birthday: "2023-02-29" }, { id: "C", now }))).toBe(
      "INVALID_DATE",
    );
    expect(refusalCode(() => newCustomer({ given_name: "A", birthday: "13-01" }, { id: "C", now }))).toBe(
      "INVALID_DATE",
    );
  });
});

describe("applyUpdate", () => {
  const base = newCustomer(
    {
      given_name: "Ada",
      family_name: "Byron",
      nickname: "Countess",
      address: { address_line_1: "1 St James's Sq", locality: "London", postal_code: "SW1" },
    },
    { id: "C1", now },
  );

  it("sets, removes with empty string or null, and leaves unsent fields alone", () => {
    const u = applyUpdate(base, { family_name: "Lovelace", nickname: "" }, later);
    expect(u.family_name).toBe("Lovelace");
    expect(u.nickname).toBeUndefined();
    expect(u.given_name).toBe("Ada");
    expect(applyUpdate(base, { nickname: null } as never, later).nickname).toBeUndefined();
    expect(u.version).toBe(1);
    expect(u.updated_at).toBe(later.toISOString());
    expect(u.created_at).toBe(base.created_at);
  });

  it("merges address fields one by one; an empty address removes it", () => {
    const merged = applyUpdate(base, { address: { postal_code: "SW1Y 4LE", locality: "" } }, later);
    expect(merged.address).toEqual({ address_line_1: "1 St James's Sq", postal_code: "SW1Y 4LE" });
    expect(applyUpdate(base, { address: {} }, later).address).toBeUndefined();
  });

  it("validates new values", () => {
    expect(refusalCode(() => applyUpdate(base, { email_address: "nope" }, later))).toBe("INVALID_EMAIL_ADDRESS");
  });
});

describe("keys", () => {
  it("the name key orders by given name, then family name, without regard to case", () => {
    const names = [
      { given_name: "bob", family_name: "Zed" },
      { given_name: "Bob", family_name: "adams" },
      { given_name: "Al" },
    ];
    expect(names.map(nameKey).sort()).toEqual([
      nameKey(names[2] ?? {}),
      nameKey(names[1] ?? {}),
      nameKey(names[0] ?? {}),
    ]);
  });

  it("phone digits drop punctuation", () => {
    expect(phoneDigits("+1 (212) 555-0100")).toBe("12125550100");
  });
});

describe("cardFromNonce", () => {
  it("makes the same card of the same nonce, and cards that expire after today", () => {
    const now = new Date("2024-01-18T12:00:00Z");
    const a = cardFromNonce("00000005ab", now);
    expect(cardFromNonce("00000005ab", now)).toEqual(a);
    expect(a).toMatchObject({ card_brand: "MASTERCARD", last_4: "0005", exp_month: 6 });
    for (const hash of ["00000000", "ffffffff", "12345678"]) {
      const c = cardFromNonce(hash, now);
      expect(c.last_4).toMatch(/^\d{4}$/);
      expect(c.exp_year ?? 0).toBeGreaterThan(2024);
    }
  });
});
