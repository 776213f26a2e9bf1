// Webhook subscriptions, in the manager's words: where notifications may go, which API version
// shapes them, which event types to pick, and what one notification says. Pure: the screen and
// `backroom webhooks` check input here before anything is sent.
import { DEFAULT_SQUARE_VERSION } from "../spec/version.js";

/** A value read from what was typed, or the problem with it in words. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

/** The notification header that carries the signature. */
export const SIGNATURE_HEADER = "x-square-hmacsha256-signature";

/** The API version a new subscription gets unless another is typed: the client's own. */
export const DEFAULT_API_VERSION = DEFAULT_SQUARE_VERSION;

/** The largest notification body the local receiver reads; anything bigger is refused. */
export const MAX_NOTIFICATION_BYTES = 1024 * 1024;

/** The longest subscription name the interface takes. */
export const MAX_SUBSCRIPTION_NAME = 64;

const LOOPBACK_NAMES = new Set(["localhost", "[::1]"]);

/** Whether a URL's host is this machine (127.0.0.0/8, ::1, localhost): only there may plain http go. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (LOOPBACK_NAMES.has(host) || host.endsWith(".localhost")) return true;
  const octets = host.split(".");
  return octets.length === 4 && octets[0] === "127" && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255);
}

/**
 * Reads a notification URL: https anywhere, or http only to a receiver on this machine (the
 * service would send notifications in the clear otherwise). No user name or password (they
 * would travel with every notification) and no `#fragment` (it is never sent, yet it would be
 * part of what is signed). Kept exactly as typed, trimmed: the receiver checks signatures against
 * the URL as registered.
 */
export function parseNotificationUrl(text: string): Parsed<string> {
  const value = text.trim();
  if (!value) return { ok: false, problem: "A notification URL is needed: where the service sends the events." };
  const space = /\s/.exec(value);
  if (space) {
    const before = clip(value.slice(0, space.index));
    return { ok: false, problem: `A web address has no spaces; this one has one after "${before}".` };
  }
  const withScheme = schemeLeftOff(value);
  if (withScheme) {
    const where = withScheme.startsWith("http:") ? "http:// for a receiver on this machine" : "https://";
    return { ok: false, problem: `Start the address with ${where}: "${clip(withScheme, 80)}".` };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, problem: `"${clip(value)}" is not a web address; it starts with https://.` };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return {
      ok: false,
      problem: `A notification URL is https:// (or http:// on this machine), not ${url.protocol}//.`,
    };
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    return {
      ok: false,
      problem: `Plain http would send every event unencrypted to ${url.hostname}: use https, or http only for a receiver on this machine (127.0.0.1 or localhost).`,
    };
  }
  if (url.username || url.password) {
    return {
      ok: false,
      problem: "Leave the user name and password out of the URL: they would travel with every event.",
    };
  }
  if (url.hash || value.includes("#")) {
    return { ok: false, problem: "Leave the #part out of the URL: it is never sent, so signatures would not match." };
  }
  return { ok: true, value };
}

/**
 * The address as meant when it was typed without its scheme (`localhost:8123/hook`,
 * `hooks.example.com/square`: a host, a port perhaps, a path): http for this machine, https
 * otherwise. Undefined when a scheme is there or the text is no host at all.
 */
function schemeLeftOff(value: string): string | undefined {
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(value)) return undefined;
  const m = /^([a-z\d.-]+|\[[\da-f:]+\])(:\d{1,5})?([/?].*)?$/i.exec(value);
  const host = m?.[1];
  if (!host || !(host.includes(".") || host.startsWith("[") || isLoopbackHost(host))) return undefined;
  return `${isLoopbackHost(host) ? "http" : "https"}://${value}`;
}

/**
 * Reads an API version, `YYYY-MM-DD` and a real day; empty means the client's own version. A
 * version after today's date has not been released.
 */
export function parseApiVersion(text: string, today?: Date): Parsed<string> {
  const value = text.trim();
  if (!value) return { ok: true, value: DEFAULT_API_VERSION };
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return { ok: false, problem: `An API version is a date, YYYY-MM-DD (such as ${DEFAULT_API_VERSION}).` };
  const day = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (day.toISOString().slice(0, 10) !== value) return { ok: false, problem: `${value} is not a day of the calendar.` };
  if (today && value > today.toISOString().slice(0, 10)) {
    return { ok: false, problem: `${value} is in the future; no API version has that date yet.` };
  }
  return { ok: true, value };
}

/** Reads a subscription name: optional, at most 64 characters. */
export function parseSubscriptionName(text: string): Parsed<string | undefined> {
  const value = text.trim();
  if (value.length > MAX_SUBSCRIPTION_NAME) {
    return {
      ok: false,
      problem: `A name is at most ${MAX_SUBSCRIPTION_NAME} characters (this one has ${value.length}).`,
    };
  }
  return { ok: true, value: value || undefined };
}

/**
 * What the filter compares: dots, underscores and the punctuation of an address are word breaks
 * (`gift act` finds gift_card.activity.*, `hook` finds http://127.0.0.1:8123/hook).
 */
const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[\s._\-:/?&=#@]+/)
    .filter(Boolean);

/**
 * The event types that match a filter: each word typed must begin a word of the type, in any
 * order (`shift created`, `labor`, `cust del`). The order of the list is kept.
 */
export function filterEventTypes(types: readonly string[], filter: string): string[] {
  return types.filter((t) => matchesWords(t, filter));
}

/** Whether every word of the filter begins a word of the text, in any order. */
export function matchesWords(text: string, filter: string): boolean {
  const wanted = words(filter);
  if (wanted.length === 0) return true;
  const have = words(text);
  return wanted.every((w) => have.some((h) => h.startsWith(w)));
}

/** Picked event types the chosen version does not offer, or none: a version change can drop some. */
export function unofferedEventTypes(picked: readonly string[], offered: readonly string[]): string[] {
  const known = new Set(offered);
  return picked.filter((t) => !known.has(t));
}

/** Checks the picked event types against what the version offers; a problem in words, or undefined. */
export function checkEventTypes(picked: readonly string[], offered: readonly string[], version: string) {
  if (picked.length === 0) return "Pick at least one event type (space marks one).";
  const missing = unofferedEventTypes(picked, offered);
  if (missing.length > 0) {
    return `API version ${version} does not offer ${missing.join(", ")}: unmark ${missing.length > 1 ? "them" : "it"}, or pick a later version.`;
  }
  return undefined;
}

/** What one notification says, read from its body. */
export interface NotificationSummary {
  eventType: string;
  eventId: string | undefined;
  /** The object the event is about (`data.id`). */
  objectId: string | undefined;
  /** The kind of object (`data.type`), such as `shift` or `customer`. */
  objectType: string | undefined;
  merchantId: string | undefined;
  createdAt: string | undefined;
  /** The body, parsed. */
  event: unknown;
}

/**
 * Reads a notification body: it must be JSON (UTF-8) and an object. Unknown fields are kept in
 * `event`; a missing `type` reads as "unknown" rather than failing, so a changed shape is still
 * shown.
 */
export function readNotification(raw: Uint8Array): Parsed<NotificationSummary> {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(raw);
  } catch {
    return { ok: false, problem: "the body is not UTF-8 text" };
  }
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch {
    return { ok: false, problem: "the body is not JSON" };
  }
  if (typeof event !== "object" || event === null || Array.isArray(event)) {
    return { ok: false, problem: "the body is JSON but not an object" };
  }
  const e = event as Record<string, unknown>;
  const data = typeof e.data === "object" && e.data !== null ? (e.data as Record<string, unknown>) : {};
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  return {
    ok: true,
    value: {
      eventType: str(e.type) ?? "unknown",
      eventId: str(e.event_id),
      objectId: str(data.id),
      objectType: str(data.type),
      merchantId: str(e.merchant_id),
      createdAt: str(e.created_at),
      event,
    },
  };
}

/** Keeps a quoted value short in a message. */
function clip(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
