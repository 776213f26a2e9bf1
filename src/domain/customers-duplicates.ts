import type { Customer } from "../spec/generated/types.js";
import { customerName, emailKey } from "./customers.js";
import { phoneKey } from "./phone.js";

/** Why two profiles look like the same person. */
export type DuplicateReason = "email" | "phone";

/** Profiles that share one email address or one phone number. */
export interface DuplicateGroup {
  reason: DuplicateReason;
  /** The shared value as the first profile spells it. */
  value: string;
  /** The comparison key: the lower-cased email, or the phone's E.164 digits. */
  key: string;
  customers: Customer[];
}

/** The keys under which a profile may have duplicates; a phone number is read against the store's `country`. */
export function duplicateKeys(c: Customer, country: string | undefined): { reason: DuplicateReason; key: string }[] {
  const out: { reason: DuplicateReason; key: string }[] = [];
  if (c.email_address && c.email_address.trim() !== "") out.push({ reason: "email", key: emailKey(c.email_address) });
  const phone = c.phone_number ? phoneKey(c.phone_number, country) : undefined;
  if (phone) out.push({ reason: "phone", key: phone });
  return out;
}

/**
 * Groups of two or more profiles that share an email address (without regard to case) or a phone
 * number (in any spelling, read against the store's `country`: see `phoneKey`). A profile may be
 * in an email group and a phone group.
 * Groups are ordered by their first profile's name, emails before phones for the same name.
 */
export function duplicateGroups(customers: readonly Customer[], country: string | undefined): DuplicateGroup[] {
  const groups = new Map<string, DuplicateGroup>();
  const seen = new Set<string>();
  for (const c of customers) {
    // The same profile met twice (two pages that overlap after an edit) counts once.
    const id = c.id ?? "";
    if (id !== "" && seen.has(id)) continue;
    if (id !== "") seen.add(id);
    for (const { reason, key } of duplicateKeys(c, country)) {
      const k = `${reason}:${key}`;
      let g = groups.get(k);
      if (!g) {
        g = { reason, key, value: (reason === "email" ? c.email_address : c.phone_number) ?? key, customers: [] };
        groups.set(k, g);
      }
      g.customers.push(c);
    }
  }
  const rank = (g: DuplicateGroup) => customerName(g.customers[0] ?? {}, country).toLowerCase();
  return [...groups.values()]
    .filter((g) => g.customers.length > 1)
    .sort((a, b) => rank(a).localeCompare(rank(b)) || (a.reason === b.reason ? 0 : a.reason === "email" ? -1 : 1));
}

/** For each profile id in some group, why: the marks the list shows. */
export function duplicateMarks(groups: readonly DuplicateGroup[]): Map<string, DuplicateReason[]> {
  const marks = new Map<string, DuplicateReason[]>();
  for (const g of groups) {
    for (const c of g.customers) {
      if (!c.id) continue;
      const reasons = marks.get(c.id) ?? [];
      if (!reasons.includes(g.reason)) reasons.push(g.reason);
      marks.set(c.id, reasons);
    }
  }
  return marks;
}

/** A mark in words for a list cell: "same email", "same phone", "same email and phone". */
export function markText(reasons: readonly DuplicateReason[] | undefined): string {
  if (!reasons || reasons.length === 0) return "";
  return `same ${reasons.join(" and ")}`;
}
