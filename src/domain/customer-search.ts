// What a search of the customer index looks for: the search line read into the words every
// profile must contain and the fields they may be in, and that in the manager's words.
import { phoneDigits } from "./customers.js";
import { phoneSearchDigits } from "./phone.js";

/** Where a search looks: every field, or one kind. */
export type SearchField = "any" | "name" | "email" | "phone" | "reference";

/** A search of the customer index. */
export interface CustomerSearch {
  field: SearchField;
  /** What a profile must contain, every one of them, case and accents aside; none: everyone. */
  terms: string[];
  /** What was typed (without its prefix), for saying what was looked for. */
  text: string;
}

const PREFIXES: Record<string, SearchField> = {
  email: "email",
  phone: "phone",
  tel: "phone",
  ref: "reference",
  name: "name",
};

/** A phone number or its start in any spelling: digits with `+ ( ) - .` and spaces. */
const PHONE_LIKE = /^\+?[\d\s().-]+$/;

/** Lower case without accents: how terms are compared (the index folds the same way). */
export const foldText = (text: string): string =>
  text
    .normalize("NFKD")
    .replaceAll(/[\u0300-\u036f]/g, "")
    .toLowerCase();

/**
 * Reads the search line. Words are looked for anywhere — given name, family name, nickname,
 * company, email, phone number and reference id — and a profile must hold every one. A line that
 * is a phone number (or its start) in any spelling is looked for as the number's national digits
 * in the store's `country`, so `+1 212 555`, `(212) 555` and `212.555` find the same profiles
 * (bare digits are looked for everywhere, phone numbers included, by their national digits). A
 * prefix `name:`, `email:`, `phone:` or `ref:` (or `nameOnly`, the command line's `--name`) keeps
 * the search to that field.
 */
export function customerSearchOf(line: string, country: string | undefined, nameOnly = false): CustomerSearch {
  let text = line.trim();
  let field: SearchField = nameOnly ? "name" : "any";
  const prefixed = /^([a-z]+):\s*(.*)$/i.exec(text);
  const forced = prefixed ? PREFIXES[(prefixed[1] ?? "").toLowerCase()] : undefined;
  if (prefixed && forced && !nameOnly) {
    field = forced;
    text = (prefixed[2] ?? "").trim();
  }
  const digits = phoneDigits(text);
  // Written like a phone number (a +, brackets, dashes, dots or spaces among its digits): a phone
  // number. Bare digits may be part of a reference id too, and are looked for everywhere.
  const spelled = /[\s().+-]/.test(text);
  if (field === "phone" || (field === "any" && PHONE_LIKE.test(text) && digits.length > 0 && spelled)) {
    const national = digits === "" ? "" : phoneSearchDigits(text, country);
    return { field: "phone", terms: national === "" ? [] : [national], text };
  }
  const terms = foldText(text)
    .split(/\s+/)
    .filter((w) => /[\p{L}\p{N}]/u.test(w));
  return { field, terms: [...new Set(terms)], text: text.replaceAll(/\s+/g, " ") };
}

const PLACES: Record<SearchField, string> = {
  // Short enough for the info line at 80 columns: companies and nicknames are names here.
  any: "names, emails, phones, reference ids",
  name: "names and companies",
  email: "email addresses",
  phone: "phone numbers",
  reference: "reference ids",
};

/**
 * The search in the manager's words: `“Summit Roofing” in names, companies, emails, …`, a phone
 * number as it is looked for (`phone numbers containing 212555`), or `everyone`.
 */
export function describeCustomerSearch(s: CustomerSearch): string {
  if (s.terms.length === 0)
    return s.field === "any" ? "everyone" : `everyone (type what to find in ${PLACES[s.field]})`;
  if (s.field === "phone") return `phone numbers containing ${s.terms[0]}`;
  return `“${s.text}” in ${PLACES[s.field]}`;
}
