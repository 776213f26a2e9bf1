import { enums } from "../spec/generated/schemas.js";
import type { Address, CreateCustomerRequest, Customer, UpdateCustomerRequest } from "../spec/generated/types.js";
import { birthdayText, type Checked, PHONE_MAX_DIGITS, PHONE_MIN_DIGITS, phoneDigits } from "./customers.js";
import { type FormProblem, onField, problemField, problemText } from "./form-problem.js";
import { parsePhone, showPhone } from "./phone.js";

/** Fields of which a profile needs at least one: without them there is nothing to know the customer by. */
export const IDENTIFYING_FIELDS = [
  "given_name",
  "family_name",
  "company_name",
  "email_address",
  "phone_number",
] as const;

/** The rule above in the manager's words, shown by the form before anything is sent. */
export const IDENTIFYING_RULE = "Needs at least a name, company, email or phone.";

/** What the service takes for an email address. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type TextField =
  | "given_name"
  | "family_name"
  | "company_name"
  | "nickname"
  | "email_address"
  | "phone_number"
  | "birthday"
  | "reference_id"
  | "note";
type AddressField =
  | "address_line_1"
  | "address_line_2"
  | "locality"
  | "administrative_district_level_1"
  | "postal_code"
  | "country";

/** A field of the profile form. */
export type ProfileField = TextField | AddressField;

/** One field of the profile form: its wire name, its label, a hint, and whether it is part of the address. */
export interface ProfileFieldSpec {
  name: ProfileField;
  label: string;
  hint?: string;
  address?: true;
  /** Longest value the interface takes, where it says. */
  max?: number;
}

/** The profile form's fields, in the order the form shows them. */
export const PROFILE_FIELDS: readonly ProfileFieldSpec[] = [
  { name: "given_name", label: "Given name", max: 300 },
  { name: "family_name", label: "Family name", max: 300 },
  { name: "company_name", label: "Company", max: 500 },
  { name: "nickname", label: "Nickname", max: 100 },
  { name: "email_address", label: "Email", max: 254 },
  {
    name: "phone_number",
    label: "Phone",
    hint: "any spelling, e.g. (212) 555-0198; + and the code for another country",
  },
  { name: "address_line_1", label: "Street", address: true },
  { name: "address_line_2", label: "Street 2", address: true },
  { name: "locality", label: "City", address: true },
  { name: "administrative_district_level_1", label: "State", address: true },
  { name: "postal_code", label: "Postal code", address: true },
  { name: "country", label: "Country", hint: "two letters, e.g. US", address: true },
  { name: "birthday", label: "Birthday", hint: "MM/DD or MM-DD, with the year: MM/DD/YYYY or YYYY-MM-DD" },
  { name: "reference_id", label: "Reference id", max: 100 },
  { name: "note", label: "Note" },
];

/** The form's values, one string per field ("" is empty). */
export type ProfileValues = Record<ProfileField, string>;

const label = (f: ProfileField) => PROFILE_FIELDS.find((s) => s.name === f)?.label ?? f;

/**
 * The form's values for a profile (or an empty form); the phone number in the national format of
 * the store's `country` (a number of another country, internationally).
 */
export function profileValues(c?: Customer, country?: string): ProfileValues {
  const a: Address = c?.address ?? {};
  return {
    given_name: c?.given_name ?? "",
    family_name: c?.family_name ?? "",
    company_name: c?.company_name ?? "",
    nickname: c?.nickname ?? "",
    email_address: c?.email_address ?? "",
    phone_number: c?.phone_number ? showPhone(c.phone_number, country) : "",
    address_line_1: a.address_line_1 ?? "",
    address_line_2: a.address_line_2 ?? "",
    locality: a.locality ?? "",
    administrative_district_level_1: a.administrative_district_level_1 ?? "",
    postal_code: a.postal_code ?? "",
    country: a.country ?? "",
    birthday: birthdayText(c?.birthday),
    reference_id: c?.reference_id ?? "",
    note: c?.note ?? "",
  };
}

/** The values trimmed, and the country in capitals. */
function clean(values: Partial<ProfileValues>): ProfileValues {
  const out = profileValues();
  for (const f of PROFILE_FIELDS) out[f.name] = (values[f.name] ?? "").trim();
  out.country = out.country.toUpperCase();
  return out;
}

/**
 * Whether a phone number is one the service stores: the usual characters, 9–16 digits. (The
 * service's own rule; the app reads numbers more strictly, with {@link parsePhone}.)
 */
export function isPhoneNumber(phone: string): boolean {
  const digits = phoneDigits(phone);
  return (
    /^\+?[\d\s().-]+$/.test(phone.trim()) && digits.length >= PHONE_MIN_DIGITS && digits.length <= PHONE_MAX_DIGITS
  );
}

/** A phone number as it is saved (E.164, read against the store's country), or the reason it is none. */
function phoneValue(phone: string, country: string | undefined): Checked<string> {
  const read = parsePhone(phone, country);
  return read.ok ? { ok: true, value: read.e164 } : { ok: false, problem: read.problem };
}

/**
 * A birthday as the service stores it (`YYYY-MM-DD`, year `0000` when left out), or undefined if
 * it is no date. Month and day come first, joined by `-` or `/` (`03/15`, `3-15`), with the year
 * after them (`03/15/1990`) or before them (`1990-03-15`).
 */
export function normalizeBirthday(text: string): string | undefined {
  const t = text.trim();
  const yearFirst = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(t);
  const monthFirst = /^(\d{1,2})[-/](\d{1,2})(?:[-/](\d{4}))?$/.exec(t);
  const [year, m, d] = yearFirst
    ? [yearFirst[1], yearFirst[2], yearFirst[3]]
    : monthFirst
      ? [monthFirst[3] ?? "0000", monthFirst[1], monthFirst[2]]
      : [];
  return year === undefined || m === undefined || d === undefined ? undefined : birthdayOf(year, m, d);
}

/**
 * A birthday exactly as the interface takes it — `YYYY-MM-DD` or `MM-DD`, nothing else — as it
 * stores it (year `0000` when left out), or undefined: the local service's rule.
 */
export function interfaceBirthday(text: string): string | undefined {
  const m = /^(?:(\d{4})-)?(\d{2})-(\d{2})$/.exec(text);
  return m?.[2] && m[3] ? birthdayOf(m[1] ?? "0000", m[2], m[3]) : undefined;
}

/** `YYYY-MM-DD` of a real day (any day of a leap year when the year is `0000`), or undefined. */
function birthdayOf(year: string, m: string, d: string): string | undefined {
  const month = Number(m);
  const day = Number(d);
  // Checked against a leap year when there is no year, so that 02-29 is a birthday.
  const last = new Date(Date.UTC(year === "0000" ? 2000 : Number(year), month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > last) return undefined;
  return `${year}-${m.padStart(2, "0")}-${d.padStart(2, "0")}`;
}

/**
 * The first thing wrong with the form's values, in words; undefined when they can be sent. The
 * phone number is read against the store's `country`.
 */
export function checkProfile(values: Partial<ProfileValues>, country?: string): string | undefined {
  return problemText(profileProblem(values, country));
}

/**
 * As {@link checkProfile}, naming the field a problem is about (the identifying rule is about
 * several, so it names none).
 */
export function profileProblem(values: Partial<ProfileValues>, country?: string): FormProblem {
  const v = clean(values);
  if (!IDENTIFYING_FIELDS.some((f) => v[f] !== "")) return IDENTIFYING_RULE;
  for (const f of PROFILE_FIELDS) {
    if (f.max !== undefined && v[f.name].length > f.max) {
      return onField(`${f.label} is too long: at most ${f.max} characters.`, f.name);
    }
  }
  if (v.email_address !== "" && !EMAIL_PATTERN.test(v.email_address)) {
    return onField(`“${v.email_address}” is not an email address.`, "email_address");
  }
  if (v.phone_number !== "") {
    const phone = phoneValue(v.phone_number, country);
    if (!phone.ok) return onField(phone.problem, "phone_number");
  }
  if (v.birthday !== "" && !normalizeBirthday(v.birthday)) {
    const text = `“${v.birthday}” is not a birthday: write MM/DD or MM-DD, with the year MM/DD/YYYY or YYYY-MM-DD.`;
    return onField(text, "birthday");
  }
  if (v.country !== "" && !(enums.Country ?? []).includes(v.country)) {
    return onField(`“${v.country}” is not a country: use its two letters, e.g. US.`, "country");
  }
  return undefined;
}

/** A request built from the form, or the rule it breaks and the field that is about (if one). */
export type CheckedProfile<T> = { ok: true; value: T } | { ok: false; problem: string; field?: string };

/** The profile's problem as a refused {@link CheckedProfile}, or undefined when there is none. */
function refused(values: Partial<ProfileValues>, country: string | undefined) {
  const problem = profileProblem(values, country);
  const text = problemText(problem);
  if (text === undefined) return undefined;
  const field = problemField(problem);
  return { ok: false as const, problem: text, ...(field ? { field } : {}) };
}

const ADDRESS_FIELDS = PROFILE_FIELDS.filter((f) => f.address).map((f) => f.name as AddressField);
const TEXT_FIELDS = PROFILE_FIELDS.filter((f) => !f.address).map((f) => f.name as TextField);

/** A text field's value as it is sent: a birthday as the service stores it, a phone number in E.164. */
function sent(f: TextField, value: string, country: string | undefined): string {
  if (f === "birthday") return normalizeBirthday(value) ?? value;
  if (f === "phone_number") {
    const phone = phoneValue(value, country);
    return phone.ok ? phone.value : value;
  }
  return value;
}

/**
 * The create request for the form's values, empty fields left out, the phone number in E.164
 * (read against the store's `country`); or the rule it breaks.
 */
export function createBody(values: Partial<ProfileValues>, country?: string): CheckedProfile<CreateCustomerRequest> {
  const problem = refused(values, country);
  if (problem) return problem;
  const v = clean(values);
  const body: CreateCustomerRequest = {};
  for (const f of TEXT_FIELDS) {
    if (v[f] !== "") body[f] = sent(f, v[f], country);
  }
  const address: Record<string, string> = {};
  for (const f of ADDRESS_FIELDS) if (v[f] !== "") address[f] = v[f];
  // The country was checked against the interface's list by checkProfile.
  if (Object.keys(address).length > 0) body.address = address as Address;
  return { ok: true, value: body };
}

/** An update request: a value sets a field, `null` removes it (as the interface defines), absent leaves it. */
export type CustomerUpdate = {
  [K in Exclude<keyof UpdateCustomerRequest, "address">]?: UpdateCustomerRequest[K] | null;
} & { address?: { [K in keyof Address]?: Address[K] | null } | null };

/**
 * The update request that takes `original` to the form's values: only changed fields (the phone
 * number compared as shown, in the store's `country`, and sent in E.164); a field the
 * manager cleared is sent as `null`, which the interface defines as "remove" (an empty string works
 * for text fields only); a cleared address goes as a whole, a changed one sends only its changed
 * parts. It carries the version the form was opened on, so a colleague's change in between is a
 * conflict instead of being overwritten. "Nothing changed" when the values match the profile.
 */
export function updateBody(
  original: Customer,
  values: Partial<ProfileValues>,
  country?: string,
): CheckedProfile<CustomerUpdate> {
  const problem = refused(values, country);
  if (problem) return problem;
  const before = profileValues(original, country);
  const v = clean(values);
  const body: CustomerUpdate = {};
  for (const f of TEXT_FIELDS) {
    if (v[f] === before[f]) continue;
    if (v[f] === "") body[f] = null;
    else body[f] = sent(f, v[f], country);
  }
  const changed = ADDRESS_FIELDS.filter((f) => v[f] !== before[f]);
  if (changed.length > 0) {
    if (ADDRESS_FIELDS.every((f) => v[f] === "")) body.address = null;
    // The country was checked against the interface's list by checkProfile.
    else
      body.address = Object.fromEntries(changed.map((f) => [f, v[f] === "" ? null : v[f]])) as NonNullable<
        CustomerUpdate["address"]
      >;
  }
  if (Object.keys(body).length === 0) return { ok: false, problem: "Nothing changed." };
  if (original.version !== undefined) body.version = original.version;
  return { ok: true, value: body };
}

/** Who changed a field since the form was opened. */
export type FieldChange = "mine" | "theirs" | "both-same" | "both";

/** One field of a version conflict: the value when the form opened, the manager's, and the colleague's. */
export interface FieldDiff {
  field: ProfileField;
  label: string;
  base: string;
  mine: string;
  theirs: string;
  change: FieldChange;
}

/**
 * The fields that differ between the version the form was opened on (`base`), the manager's values
 * (`mine`) and the profile as it is now (`theirs`), in form order.
 */
export function conflictDiff(
  base: Customer,
  mine: Partial<ProfileValues>,
  theirs: Customer,
  country?: string,
): FieldDiff[] {
  const b = profileValues(base, country);
  const m = clean(mine);
  const t = profileValues(theirs, country);
  const out: FieldDiff[] = [];
  for (const { name } of PROFILE_FIELDS) {
    const mineChanged = m[name] !== b[name];
    const theirsChanged = t[name] !== b[name];
    if (!mineChanged && !theirsChanged) continue;
    const change: FieldChange =
      mineChanged && theirsChanged ? (m[name] === t[name] ? "both-same" : "both") : mineChanged ? "mine" : "theirs";
    out.push({ field: name, label: label(name), base: b[name], mine: m[name], theirs: t[name], change });
  }
  return out;
}

/**
 * One side's value of a conflicting field, in words: "(removed)" only where that side took a value
 * out; a field that was empty and stayed so is "—", never reported as removed.
 */
export function conflictSide(d: FieldDiff, side: "mine" | "theirs"): string {
  const value = d[side];
  if (value !== "") return value;
  return d.base === "" ? "—" : "(removed)";
}

/**
 * The fields to re-apply by default: every change of the manager's that the new version does not
 * already hold. Where both changed the same field the manager's change is offered too, and the
 * side-by-side view shows the colleague's value beside it.
 */
export function defaultReapply(diff: readonly FieldDiff[]): ProfileField[] {
  return diff.filter((d) => d.change === "mine" || d.change === "both").map((d) => d.field);
}

/** The form's values for the new version with the picked fields of the manager's put back. */
export function reapplyValues(
  theirs: Customer,
  mine: Partial<ProfileValues>,
  picked: readonly ProfileField[],
  country?: string,
): ProfileValues {
  const out = profileValues(theirs, country);
  const m = clean(mine);
  for (const f of picked) out[f] = m[f];
  return out;
}
