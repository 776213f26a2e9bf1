import type { CatalogObject, Location, TeamMember } from "../../spec/generated/types.js";
import { insertObject, nextSeq } from "../catalog/repo.js";
import { saveLocation, saveTeamMember } from "../directory/repo.js";
import type { SeedContext } from "./context.js";

/**
 * The store a new sandbox account starts with: one location, the account owner as its only team
 * member, and a handful of catalog items. No break types, shifts, wages, customers, stock,
 * gift cards, cash drawers, payouts or webhook subscriptions: integration tests written against
 * the real sandbox create those themselves, and pass here unchanged.
 */
export const SANDBOX = {
  businessName: "Default Test Account",
  locationId: "LSANDBOX00000001",
  locationName: "Default Test Account",
  timezone: "America/Los_Angeles",
  ownerId: "TMSANDBOXOWNER01",
  created: "2024-01-02T17:00:00.000Z",
} as const;

const ITEMS: readonly { name: string; variations: readonly [string, number][] }[] = [
  {
    name: "Coffee",
    variations: [
      ["Small", 300],
      ["Large", 400],
    ],
  },
  { name: "Tea", variations: [["Regular", 275]] },
  { name: "Muffin", variations: [["Regular", 350]] },
  { name: "Sandwich", variations: [["Regular", 850]] },
  { name: "Water", variations: [["Bottle", 150]] },
];

/** Lays out the sandbox's store for the seller of `s` (whose merchant row already exists). */
export function seedSandbox(s: SeedContext): void {
  const location: Location & { id: string } = {
    id: SANDBOX.locationId,
    name: SANDBOX.locationName,
    address: {
      address_line_1: "1600 Pennsylvania Ave NW",
      locality: "Washington",
      administrative_district_level_1: "DC",
      postal_code: "20500",
      country: "US",
    },
    timezone: SANDBOX.timezone,
    capabilities: ["CREDIT_CARD_PROCESSING", "AUTOMATIC_TRANSFERS"],
    status: "ACTIVE",
    created_at: SANDBOX.created,
    merchant_id: s.merchantId,
    country: "US",
    language_code: "en-US",
    currency: "USD",
    business_name: SANDBOX.businessName,
    type: "PHYSICAL",
    mcc: "7299",
  };
  saveLocation(s.db, s.merchantId, location);
  const owner: TeamMember & { id: string } = {
    id: SANDBOX.ownerId,
    is_owner: true,
    status: "ACTIVE",
    given_name: "Sandbox",
    family_name: "Seller",
    email_address: "sandbox-seller@example.com",
    created_at: SANDBOX.created,
    updated_at: SANDBOX.created,
    assigned_locations: { assignment_type: "ALL_CURRENT_AND_FUTURE_LOCATIONS" },
  };
  saveTeamMember(s.db, s.merchantId, owner);
  seedSandboxCatalog(s);
}

function seedSandboxCatalog(s: SeedContext): void {
  let seq = nextSeq(s.db);
  const stamp = { updated_at: SANDBOX.created, version: Date.parse(SANDBOX.created), is_deleted: false };
  const put = (
    object: CatalogObject,
    extra: { name: string; itemId?: string; productType?: string; searchText: string },
  ) => insertObject(s.db, { object, merchantId: s.merchantId, ...extra }, seq++);
  for (const item of ITEMS) {
    const itemId = s.ids.next(24);
    const variations: CatalogObject[] = item.variations.map(([name, amount], ordinal) => ({
      type: "ITEM_VARIATION",
      id: s.ids.next(24),
      ...stamp,
      present_at_all_locations: true,
      item_variation_data: {
        item_id: itemId,
        name,
        ordinal,
        pricing_type: "FIXED_PRICING",
        price_money: { amount, currency: "USD" },
        sellable: true,
        stockable: true,
      },
    }));
    const object: CatalogObject = {
      type: "ITEM",
      id: itemId,
      ...stamp,
      present_at_all_locations: true,
      item_data: { name: item.name, variations, product_type: "REGULAR", is_archived: false },
    };
    const names = variations.map((v) => v.item_variation_data?.name ?? "").join(" ");
    put(object, { name: item.name, productType: "REGULAR", searchText: `${item.name} ${names}`.toLowerCase() });
    for (const v of variations) {
      const name = v.item_variation_data?.name ?? "";
      put(v, { name, itemId, searchText: name.toLowerCase() });
    }
  }
}
