// How a customer profile and a gift card are named in a line of text. Apart from their domains
// (customers.ts, gift-cards.ts, which re-export them) because the kept writes' words, shown from the
// first frame, need only these two and not the phone number library or the card rules.
import type { Customer } from "../spec/generated/types.js";

/**
 * What a profile is called: the names, else the company, email or phone. `phone` spells a phone
 * that stands in for the name; here it is left as saved, since formatting it needs the phone
 * number library (customers.ts's customerName formats it as the Phone column does).
 */
export function profileName(c: Customer, phone: (saved: string) => string = (saved) => saved): string {
  const name = [c.given_name, c.family_name].filter((s) => s && s.trim() !== "").join(" ");
  if (name !== "") return name;
  return c.company_name || c.email_address || (c.phone_number && phone(c.phone_number)) || "(no name)";
}

/** `7783 …  0005`: a card number shortened for narrow places, its last four kept. */
export function shortGan(gan: string | undefined): string {
  if (!gan) return "—";
  return gan.length > 8 ? `…${gan.slice(-4)}` : gan;
}
