import { EMAIL_PATTERN, IDENTIFYING_FIELDS, interfaceBirthday, isPhoneNumber } from "../../domain/customers-profile.js";
import type {
  Address,
  Card,
  CardBrand,
  CreateCustomerRequest,
  Customer,
  CustomerCreationSource,
  UpdateCustomerRequest,
} from "../../spec/generated/types.js";
import { invalid } from "../errors.js";

/** The profile fields a caller may set, in the order the wire object lists them. */
const TEXT_FIELDS = [
  "given_name",
  "family_name",
  "nickname",
  "company_name",
  "email_address",
  "phone_number",
  "birthday",
  "reference_id",
  "note",
] as const;
type TextField = (typeof TEXT_FIELDS)[number];

/** Fields of which a new profile needs at least one (the app's form says the same rule). */
const IDENTIFYING = IDENTIFYING_FIELDS;

/** A stored profile: the wire object with the fields the service always fills. */
export type StoredCustomer = Customer & {
  id: string;
  created_at: string;
  updated_at: string;
  version: number;
  creation_source: CustomerCreationSource;
};

const EMAIL = EMAIL_PATTERN;

/** The default sort key: given name, then family name, without regard to case. */
export const nameKey = (c: Pick<Customer, "given_name" | "family_name">): string =>
  `${(c.given_name ?? "").toLowerCase()}\u0001${(c.family_name ?? "").toLowerCase()}`;

export { emailKey, phoneDigits } from "../../domain/customers.js";

/**
 * Refuses values the service would not store: a malformed email, a phone number that is not
 * 9–16 digits of the usual characters, a birthday that is neither YYYY-MM-DD nor MM-DD. A
 * birthday without a year is stored with year 0000, as the service returns it.
 */
function checkValue(field: TextField, value: string): string {
  if (field === "email_address" && !EMAIL.test(value.trim())) {
    throw invalid("INVALID_EMAIL_ADDRESS", `Not a valid email address: ${value}.`, field);
  }
  if (field === "phone_number" && !isPhoneNumber(value)) {
    throw invalid("INVALID_PHONE_NUMBER", `Not a valid phone number: ${value}.`, field);
  }
  if (field === "birthday") {
    const stored = interfaceBirthday(value);
    if (!stored) throw invalid("INVALID_DATE", "birthday must be YYYY-MM-DD or MM-DD.", field);
    return stored;
  }
  return value;
}

/** An address with its empty fields dropped; undefined when nothing is left. */
function cleanAddress(a: Address): Address | undefined {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(a)) if (typeof v === "string" && v !== "") out[k] = v;
  return Object.keys(out).length > 0 ? (out as Address) : undefined;
}

/**
 * A new profile from a create request. It must carry a name, a company, an email or a phone
 * number, or there is nothing to know the customer by.
 */
export function newCustomer(
  body: CreateCustomerRequest,
  at: { id: string; now: Date; source?: CustomerCreationSource },
): StoredCustomer {
  if (!IDENTIFYING.some((f) => typeof body[f] === "string" && body[f].trim() !== "")) {
    throw invalid(
      "MISSING_REQUIRED_PARAMETER",
      "Set at least one of given_name, family_name, company_name, email_address or phone_number.",
      "given_name",
    );
  }
  const when = at.now.toISOString();
  const c: StoredCustomer = {
    id: at.id,
    created_at: when,
    updated_at: when,
    version: 0,
    creation_source: at.source ?? "THIRD_PARTY",
  };
  for (const f of TEXT_FIELDS) {
    const v = body[f];
    if (typeof v === "string" && v !== "") c[f] = checkValue(f, v);
  }
  const address = body.address ? cleanAddress(body.address) : undefined;
  if (address) c.address = address;
  const eu = body.tax_ids?.eu_vat;
  if (eu) c.tax_ids = { eu_vat: eu };
  c.preferences = { email_unsubscribed: false };
  return ordered(c);
}

/**
 * Applies an update: a field given a value takes it, a field given "" (or null, or an empty
 * object for the address) is removed, a field not sent is left alone. Address fields merge one
 * by one. The version goes up by one and `updated_at` moves to now.
 */
export function applyUpdate(current: StoredCustomer, body: UpdateCustomerRequest, now: Date): StoredCustomer {
  const next: StoredCustomer = { ...current };
  const raw = body as Record<string, unknown>;
  for (const f of TEXT_FIELDS) {
    if (!(f in raw)) continue;
    const v = raw[f];
    if (v === null || v === "") delete next[f];
    else if (typeof v === "string") next[f] = checkValue(f, v);
  }
  if ("address" in raw) {
    const a = raw.address as Address | null;
    if (a === null || Object.keys(a).length === 0) delete next.address;
    else {
      const merged: Record<string, unknown> = { ...(current.address ?? {}) };
      for (const [k, v] of Object.entries(a)) {
        if (v === null || v === "") delete merged[k];
        else merged[k] = v;
      }
      const cleaned = cleanAddress(merged as Address);
      if (cleaned) next.address = cleaned;
      else delete next.address;
    }
  }
  if ("tax_ids" in raw) {
    const eu = (raw.tax_ids as { eu_vat?: string | null } | null)?.eu_vat;
    if (eu) next.tax_ids = { eu_vat: eu };
    else delete next.tax_ids;
  }
  next.version = current.version + 1;
  next.updated_at = now.toISOString();
  return ordered(next);
}

const ORDER: readonly (keyof Customer)[] = [
  "id",
  "created_at",
  "updated_at",
  "cards",
  "given_name",
  "family_name",
  "nickname",
  "company_name",
  "email_address",
  "address",
  "phone_number",
  "birthday",
  "reference_id",
  "note",
  "preferences",
  "creation_source",
  "group_ids",
  "segment_ids",
  "version",
  "tax_ids",
];

/** The profile with its keys in the wire order, and empty lists left out. */
export function ordered(c: StoredCustomer): StoredCustomer {
  const out: Record<string, unknown> = {};
  for (const k of ORDER) {
    const v = c[k];
    if (v === undefined) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    out[k] = v;
  }
  return out as unknown as StoredCustomer;
}

const BRANDS: readonly { brand: CardBrand; first: string }[] = [
  { brand: "VISA", first: "4" },
  { brand: "MASTERCARD", first: "5" },
  { brand: "AMERICAN_EXPRESS", first: "3" },
  { brand: "DISCOVER", first: "6" },
];

/** What a nonce stands for: a card whose brand, digits and expiry follow from the nonce. */
export function cardFromNonce(
  nonceHash: string,
  now: Date,
): Pick<Card, "card_brand" | "last_4" | "exp_month" | "exp_year"> {
  const n = Number.parseInt(nonceHash.slice(0, 8), 16);
  const brand = BRANDS[n % BRANDS.length] ?? { brand: "VISA" as const };
  return {
    card_brand: brand.brand,
    last_4: String(n % 10_000).padStart(4, "0"),
    exp_month: (n % 12) + 1,
    exp_year: now.getUTCFullYear() + 1 + (n % 5),
  };
}
