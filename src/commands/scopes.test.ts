import { describe, expect, it } from "vitest";
import { operations } from "../spec/generated/operations.js";
import { LOGIN_SCOPES, loginScopes, readScopes, V1_SCOPES } from "./scopes.js";

// The operations the app's screens and commands call, and so the scopes sign-in must cover.
const USED = [
  "ListLocations",
  "SearchTeamMembers",
  "ListTeamMemberWages",
  "SearchShifts",
  "CreateShift",
  "UpdateShift",
  "ListBreakTypes",
  "CreateBreakType",
  "UpdateBreakType",
  "DeleteBreakType",
  "ListWorkweekConfigs",
  "SearchCatalogObjects",
  "BatchRetrieveInventoryCounts",
  "BatchRetrieveInventoryChanges",
  "BatchChangeInventory",
  "SearchCustomers",
  "RetrieveCustomer",
  "UpdateCustomer",
  "ListCustomerGroups",
  "ListCashDrawerShifts",
  "ListCashDrawerShiftEvents",
  "ListPayouts",
  "ListGiftCards",
  "RetrieveGiftCard",
  "RetrieveGiftCardFromGAN",
  "ListGiftCardActivities",
  "CreateGiftCard",
  "CreateGiftCardActivity",
  "ListWebhookSubscriptions",
] as const;

describe("the scopes sign-in asks for", () => {
  const byName = operations as Record<string, { scopes: readonly string[] }>;

  it("are each a scope of the interface, listed once, with a reason", () => {
    const known = new Set(Object.values(byName).flatMap((o) => o.scopes));
    for (const { scope, why } of LOGIN_SCOPES) {
      expect(known, scope).toContain(scope);
      expect(why.length).toBeGreaterThan(10);
    }
    expect(new Set(loginScopes()).size).toBe(LOGIN_SCOPES.length);
  });

  it("cover every operation the screens use", () => {
    const asked = new Set(loginScopes());
    for (const name of USED) {
      const op = byName[name];
      expect(op, name).toBeDefined();
      for (const scope of op?.scopes ?? []) expect(asked, `${name} needs ${scope}`).toContain(scope);
    }
  });

  it("ask for nothing that moves money or touches orders", () => {
    for (const scope of loginScopes()) expect(scope).not.toMatch(/^(PAYMENTS|ORDERS|SETTLEMENTS|BANK_ACCOUNTS)/);
  });

  it("name the V1 set apart: every V1 operation's scope, asked for only with --scopes default,v1", () => {
    const v1 = V1_SCOPES.map((s) => s.scope);
    for (const name of Object.keys(byName).filter((n) => n.startsWith("V1"))) {
      for (const scope of byName[name]?.scopes ?? []) expect(v1, `${name} needs ${scope}`).toContain(scope);
    }
    expect(readScopes("default, v1")).toEqual([...loginScopes(), ...v1]);
    expect(readScopes("CUSTOMERS_READ,V1,customers_read")).toEqual(["CUSTOMERS_READ", ...v1]);
  });
});
