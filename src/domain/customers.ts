import { enums } from "../spec/generated/schemas.js";
import type {
  Card,
  Customer,
  CustomerCreationSource,
  CustomerFilter,
  CustomerGroup,
  CustomerQuery,
  SearchCustomersRequest,
} from "../spec/generated/types.js";
import { profileName } from "./names.js";
import { phoneSearchDigits, showPhone } from "./phone.js";
import { addDays, parseDate, zonedInstant } from "./time.js";

/** The digits of a phone number, every other character dropped: what a phone search compares. */
export const phoneDigits = (phone: string): string => phone.replace(/\D/g, "");

/** An email compared without regard to case or surrounding space. */
export const emailKey = (email: string): string => email.trim().toLowerCase();

/** Fewest digits a phone number may have for the service to store it. */
export const PHONE_MIN_DIGITS = 9;
/** Most digits a phone number may have for the service to store it. */
export const PHONE_MAX_DIGITS = 16;

/** What the search line was taken to mean. */
export type LookupQuery =
  | { kind: "all" }
  | { kind: "email"; text: string }
  | { kind: "phone"; digits: string }
  | { kind: "reference"; text: string }
  | { kind: "name"; text: string };

const PREFIXES: Record<string, LookupQuery["kind"]> = {
  email: "email",
  phone: "phone",
  tel: "phone",
  ref: "reference",
  name: "name",
};

/**
 * Reads the search line: an email fragment (has `@`, or a dotted word like `gmail.com`), a phone
 * number in any common spelling (only digits and `+ ( ) - . space`, at least three digits), a
 * reference id (letters and digits together, like `CRM-100123`), otherwise a name. A prefix
 * `email:`, `phone:`, `ref:` or `name:` says which outright. A phone number is looked for by its
 * national digits in the store's `country`, so `+1 212 555`, `(212) 555` and `212.555` find the same.
 */
export function classifyQuery(line: string, country?: string): LookupQuery {
  const text = line.trim();
  // Nothing to look for yet (a lone "(" or "@" as a phone number or email is begun): everyone.
  if (!/[\p{L}\p{N}]/u.test(text)) return { kind: "all" };
  const prefixed = /^([a-z]+):\s*(.*)$/i.exec(text);
  const forced = prefixed ? PREFIXES[(prefixed[1] ?? "").toLowerCase()] : undefined;
  if (prefixed && forced) return make(forced, (prefixed[2] ?? "").trim(), country);
  const digits = phoneDigits(text);
  const phone = () => ({ kind: "phone" as const, digits: phoneSearchDigits(text, country) });
  if (/^\+?[\d\s().-]+$/.test(text) && digits.length >= 3) return phone();
  if (text.includes("@") || /^[^\s]+\.[^\s]+$/.test(text)) return { kind: "email", text };
  if (/\p{L}/u.test(text) && /\d/.test(text)) return { kind: "reference", text };
  if (digits.length > 0 && !/\p{L}/u.test(text)) return phone();
  return { kind: "name", text };
}

function make(kind: LookupQuery["kind"], text: string, country: string | undefined): LookupQuery {
  if (text === "" || (kind !== "phone" && !/[\p{L}\p{N}]/u.test(text))) return { kind: "all" };
  if (kind === "phone") return { kind, digits: phoneDigits(text) === "" ? "" : phoneSearchDigits(text, country) };
  if (kind === "all") return { kind };
  return { kind, text };
}

/** The search line's meaning in the manager's words, for the line under the search box. */
export function describeQuery(q: LookupQuery): string {
  switch (q.kind) {
    case "all":
      return "everyone";
    case "email":
      return `email contains “${q.text}”`;
    case "phone":
      return q.digits === "" ? "phone: type some digits" : `phone contains ${q.digits}`;
    case "reference":
      return `reference id contains “${q.text}”`;
    case "name":
      // The interface has no name filter; names are looked for in the email addresses.
      return `name “${q.text}” (looked for in email addresses)`;
  }
}

/** How the list is ordered: the service's default (given name, then family name) or newest first. */
export type LookupSort = "name" | "created";

/** Creation sources to keep or to leave out. */
export interface SourceFilter {
  rule: "INCLUDE" | "EXCLUDE";
  values: CustomerCreationSource[];
}

/** The filter panel's choices and the explicit fields of the command line. */
export interface LookupFilters {
  /** Only members of this group. */
  groupId?: string;
  sources?: SourceFilter;
  /** First and last local day of creation, `YYYY-MM-DD`, both included. */
  createdFrom?: string;
  createdTo?: string;
  /** Explicit fields (the command line's `--email`, `--phone`). */
  email?: string;
  phone?: string;
}

/** Every creation source the interface names, in its order. */
export const CREATION_SOURCES: readonly CustomerCreationSource[] = (enums.CustomerCreationSource ??
  []) as CustomerCreationSource[];

/** A creation source in words: `INSTANT_PROFILE` → "Instant profile". */
export function sourceLabel(source: string | undefined): string {
  if (!source) return "—";
  const words = source.toLowerCase().replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Parses a comma- or space-separated list of creation sources, by code or in words. */
export function parseSources(
  text: string,
): { ok: true; value: CustomerCreationSource[] } | { ok: false; problem: string } {
  const out: CustomerCreationSource[] = [];
  for (const word of text.split(/[,;]+/)) {
    const code = word
      .trim()
      .toUpperCase()
      .replace(/[\s-]+/g, "_");
    if (code === "") continue;
    const found = CREATION_SOURCES.find((s) => s === code);
    if (!found) {
      const known = CREATION_SOURCES.map(sourceLabel).join(", ");
      return { ok: false, problem: `Not a creation source: ${word.trim()}. They are: ${known}.` };
    }
    if (!out.includes(found)) out.push(found);
  }
  return { ok: true, value: out };
}

/** A result of a check that may refuse with a problem in words. */
export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * The searchCustomers query for the search line and the filters: filters combine with AND (the
 * interface has no OR). Email, reference id and name are fuzzy (every word must occur); a phone is
 * sent as its national digits in the store's `country`, so any spelling finds the same numbers.
 * Created-at days are local days of `timeZone`, both ends included. Newest first when sorted by
 * creation date.
 */
export function lookupQuery(
  q: LookupQuery,
  filters: LookupFilters,
  sort: LookupSort,
  timeZone: string,
  country?: string,
): Checked<CustomerQuery> {
  const filter: CustomerFilter = {};
  const set = (field: "email_address" | "phone_number" | "reference_id", fuzzy: string, what: string) => {
    if (filter[field]) return `Search ${what} once: the search line and a filter both ask for it.`;
    filter[field] = { fuzzy };
    return undefined;
  };
  let clash: string | undefined;
  switch (q.kind) {
    case "all":
      break;
    case "email":
    case "name":
      clash = set("email_address", q.text, "email");
      break;
    case "phone":
      if (q.digits === "") return { ok: false, problem: "A phone search needs some digits." };
      clash = set("phone_number", q.digits, "phone");
      break;
    case "reference":
      clash = set("reference_id", q.text, "reference id");
      break;
  }
  if (clash) return { ok: false, problem: clash };
  if (filters.email !== undefined && filters.email.trim() !== "") {
    clash = set("email_address", filters.email.trim(), "email");
    if (clash) return { ok: false, problem: clash };
  }
  if (filters.phone !== undefined && filters.phone.trim() !== "") {
    if (phoneDigits(filters.phone) === "") return { ok: false, problem: `Not a phone number: ${filters.phone}.` };
    const digits = phoneSearchDigits(filters.phone, country);
    clash = set("phone_number", digits, "phone");
    if (clash) return { ok: false, problem: clash };
  }
  if (filters.groupId) filter.group_ids = { any: [filters.groupId] };
  if (filters.sources && filters.sources.values.length > 0) {
    filter.creation_source = { rule: filters.sources.rule, values: [...filters.sources.values] };
  }
  const range = createdRange(filters.createdFrom, filters.createdTo, timeZone);
  if (!range.ok) return range;
  if (range.value) filter.created_at = range.value;
  const query: CustomerQuery = {};
  if (Object.keys(filter).length > 0) query.filter = filter;
  if (sort === "created") query.sort = { field: "CREATED_AT", order: "DESC" };
  return { ok: true, value: query };
}

/** The first search request of a lookup; later pages send the same query with the cursor. */
export function searchRequest(query: CustomerQuery, limit: number, count: boolean): SearchCustomersRequest {
  return {
    ...(Object.keys(query).length > 0 ? { query } : {}),
    limit,
    ...(count ? { count: true } : {}),
  };
}

/**
 * A created-at range from local days: the first instant of `from` to the last millisecond of `to`
 * in `timeZone`. Either end may be left out; undefined when both are.
 */
export function createdRange(
  from: string | undefined,
  to: string | undefined,
  timeZone: string,
): Checked<{ start_at?: string; end_at?: string } | undefined> {
  const f = from?.trim() ?? "";
  const t = to?.trim() ?? "";
  if (f !== "" && !parseDate(f)) return { ok: false, problem: `“${f}” is not a date; write YYYY-MM-DD.` };
  if (t !== "" && !parseDate(t)) return { ok: false, problem: `“${t}” is not a date; write YYYY-MM-DD.` };
  if (f !== "" && t !== "" && f > t) return { ok: false, problem: `The range starts (${f}) after it ends (${t}).` };
  if (f === "" && t === "") return { ok: true, value: undefined };
  const out: { start_at?: string; end_at?: string } = {};
  if (f !== "") out.start_at = zonedInstant(f, "00:00", timeZone).toISOString();
  if (t !== "") out.end_at = new Date(zonedInstant(addDays(t, 1), "00:00", timeZone).getTime() - 1).toISOString();
  return { ok: true, value: out };
}

/**
 * What a profile is called in a list: the names, else the company, email or phone — the phone as
 * the Phone column shows it, in the national format of the store's `country` (every caller passes
 * it, so one profile is named alike on every line and in every message; undefined: international).
 */
export const customerName = (c: Customer, country: string | undefined): string =>
  profileName(c, (saved) => showPhone(saved, country));

/** The profile's address on one line, parts left out when empty. */
export function addressLine(c: Customer): string {
  const a = c.address;
  if (!a) return "";
  const cityLine = [a.locality, [a.administrative_district_level_1, a.postal_code].filter(Boolean).join(" ")]
    .filter((s) => s && s !== "")
    .join(", ");
  return [a.address_line_1, a.address_line_2, a.address_line_3, cityLine, a.country]
    .filter((s) => s && s !== "")
    .join(", ");
}

/** A birthday as the manager wrote it: `0000-07-04` (no year) reads `07-04`. */
export function birthdayText(birthday: string | undefined): string {
  if (!birthday) return "";
  return birthday.startsWith("0000-") ? birthday.slice(5) : birthday;
}

/** The names of the groups a profile is in, in the order the groups are listed; unknown ids as they are. */
export function groupNames(ids: readonly string[] | undefined, groups: readonly CustomerGroup[]): string[] {
  if (!ids || ids.length === 0) return [];
  const byId = new Map(groups.map((g) => [g.id, g.name]));
  const known = groups.filter((g) => g.id && ids.includes(g.id)).map((g) => g.name);
  const unknown = ids.filter((id) => !byId.has(id));
  return [...known, ...unknown];
}

const BRANDS: Partial<Record<string, string>> = {
  VISA: "Visa",
  MASTERCARD: "Mastercard",
  AMERICAN_EXPRESS: "American Express",
  DISCOVER: "Discover",
  DISCOVER_DINERS: "Diners Club",
  JCB: "JCB",
  CHINA_UNIONPAY: "UnionPay",
  SQUARE_GIFT_CARD: "Square gift card",
  INTERAC: "Interac",
  EFTPOS: "EFTPOS",
  EBT: "EBT",
};

/** A card on file in words: "Visa ending 1234, expires 04/2027" (and "expired" when it has). */
export function cardLabel(card: Card, now: Date): string {
  const brand = BRANDS[card.card_brand ?? ""] ?? sourceLabel(card.card_brand ?? "card");
  const ending = card.last_4 ? ` ending ${card.last_4}` : "";
  if (!card.exp_month || !card.exp_year) return `${brand}${ending}`;
  const expiry = `${String(card.exp_month).padStart(2, "0")}/${card.exp_year}`;
  return `${brand}${ending}, ${cardExpired(card, now) ? "expired" : "expires"} ${expiry}`;
}

/** Whether a card's expiry month is over (a card is good through the last day of its month). */
export function cardExpired(card: Pick<Card, "exp_month" | "exp_year">, now: Date): boolean {
  if (!card.exp_month || !card.exp_year) return false;
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth() + 1;
  return card.exp_year < y || (card.exp_year === y && card.exp_month < m);
}

/** Columns of the customers CSV export. */
export const CUSTOMER_CSV_HEADER = [
  "id",
  "given_name",
  "family_name",
  "nickname",
  "company_name",
  "email_address",
  "phone_number",
  "address",
  "birthday",
  "reference_id",
  "note",
  "group_ids",
  "creation_source",
  "created_at",
  "updated_at",
  "version",
] as const;

/** One profile as a CSV row in the order of {@link CUSTOMER_CSV_HEADER}; the address on one line, groups by `;`. */
export function customerCsvRow(c: Customer): string[] {
  return [
    c.id ?? "",
    c.given_name ?? "",
    c.family_name ?? "",
    c.nickname ?? "",
    c.company_name ?? "",
    c.email_address ?? "",
    c.phone_number ?? "",
    addressLine(c),
    c.birthday ?? "",
    c.reference_id ?? "",
    c.note ?? "",
    (c.group_ids ?? []).join(";"),
    c.creation_source ?? "",
    c.created_at ?? "",
    c.updated_at ?? "",
    c.version === undefined ? "" : String(c.version),
  ];
}
