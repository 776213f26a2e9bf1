// One phone number, however it was typed: read with libphonenumber-js against the store's country,
// saved in E.164 (`+12125554881`), shown in the country's national format (`(212) 555-4881`), and
// refused with a reason when no such number can exist ("too short for US").
//
// The `min` metadata build: it holds each country's possible lengths and leading digits, which
// are what `validatePhoneNumberLength` needs for "too short"/"too long" and what parsing and
// national formatting need. `max` adds only the patterns that tell a fixed line from a mobile and
// reject numbers not yet allocated — about 65 kB more in the bundle for nothing this app shows.
import {
  AsYouType,
  type CountryCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
  validatePhoneNumberLength,
} from "libphonenumber-js/min";

/** A phone number read: its E.164 form to save, and how it is shown; or why it is no number. */
export type PhoneParse = { ok: true; e164: string; national: string } | { ok: false; problem: string };

/** The country code libphonenumber knows, or undefined (then only `+…` numbers can be read). */
function countryOf(country: string | undefined): CountryCode | undefined {
  const code = country?.trim().toUpperCase();
  return code && isSupportedCountry(code) ? code : undefined;
}

/** What a phone number may be written with besides digits: `+`, brackets, dashes, dots, spaces, slashes. */
const PHONE_CHARACTERS = /^[\d\s+().\-/]+$/;

/**
 * Reads a phone number typed in any spelling — `(212) 555-4881`, `212.555.4881`, `2125554881`,
 * `+1 212 555 4881`, `001 212 555 4881` — as a number of `country` unless it starts with `+` (or
 * the international prefix). Refused, in words, when it holds letters, has too few or too many
 * digits for the country, or is not a number there.
 */
export function parsePhone(text: string, country: string | undefined): PhoneParse {
  const typed = text.trim();
  const region = countryOf(country);
  const where = region ? `a ${region} phone number` : "a phone number";
  if (typed === "") return { ok: false, problem: "A phone number needs digits." };
  if (!PHONE_CHARACTERS.test(typed)) {
    return { ok: false, problem: `“${typed}” is not a phone number: use digits, with + ( ) - . or spaces.` };
  }
  switch (validatePhoneNumberLength(typed, region)) {
    case undefined:
      break;
    case "TOO_SHORT":
      return { ok: false, problem: `“${typed}” is too short for ${where}.` };
    case "TOO_LONG":
      return { ok: false, problem: `“${typed}” is too long for ${where}.` };
    case "INVALID_LENGTH":
      return { ok: false, problem: `“${typed}” has the wrong number of digits for ${where}.` };
    case "INVALID_COUNTRY":
      return {
        ok: false,
        problem: typed.startsWith("+")
          ? `“${typed}” starts with no country's calling code.`
          : `“${typed}” needs its country: write it with + and the country code, e.g. +44 20 7946 0958.`,
      };
    default:
      return { ok: false, problem: `“${typed}” is not a phone number.` };
  }
  const parsed = parsePhoneNumberFromString(typed, region);
  if (!parsed?.isValid()) {
    const of = parsed?.country ?? region;
    return { ok: false, problem: `“${typed}” is not ${of ? `a ${of} phone number` : "a phone number"} in use.` };
  }
  return { ok: true, e164: parsed.number, national: showPhone(parsed.number, region) };
}

/**
 * A saved number as the manager reads it: in the national format when it is of the store's
 * country (`(212) 555-4881`), in the international one otherwise (`+44 20 7946 0958`), and as it
 * was saved when it cannot be read (numbers saved as typed before, by another app).
 */
export function showPhone(saved: string, country: string | undefined): string {
  const region = countryOf(country);
  const parsed = parsePhoneNumberFromString(saved, region);
  if (!parsed?.isPossible()) return saved;
  return parsed.country === region ? parsed.formatNational() : parsed.formatInternational();
}

/**
 * The same number in one spelling, for telling two profiles apart: its E.164 form without the
 * `+` (`12125554881`), or undefined when it is no possible number of the store's country (or of
 * the country its `+` names).
 */
export function phoneKey(text: string, country: string | undefined): string | undefined {
  const parsed = parsePhoneNumberFromString(text, countryOf(country));
  return parsed?.isPossible() ? parsed.number.slice(1) : undefined;
}

/**
 * The digits a search for a phone number (or the start of one) looks for, whatever the spelling:
 * the national significant digits, without the country's calling code, the international prefix
 * or the trunk `0` — so `+1 212 555`, `1-212-555`, `(212) 555` and `212.555` all look for `212555`,
 * which a number saved as `+12125554881` and one saved long ago as `(212) 555-4881` both hold.
 */
export function phoneSearchDigits(text: string, country: string | undefined): string {
  const typing = new AsYouType(countryOf(country));
  typing.input(text);
  return typing.getNumber()?.nationalNumber ?? text.replace(/\D/g, "");
}
