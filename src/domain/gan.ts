// Gift card account numbers (GANs): what a number must look like before it is sent, shared by the
// app (which explains a mistyped number before anything is sent) and the local service (which
// refuses it). One copy, so the two cannot drift.

/** The prefix of the 16-digit account numbers Square issues and prints on its plastic cards. */
export const SQUARE_GAN_PREFIX = "7783";

/** The Luhn check digit of a string of digits, so that a mistyped GAN is caught at the till. */
export function luhnCheckDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

/** Whether a string of digits ends with its Luhn check digit. */
export function luhnValid(digits: string): boolean {
  return /^\d{2,}$/.test(digits) && luhnCheckDigit(digits.slice(0, -1)) === digits.slice(-1);
}

/**
 * Why a custom GAN (source OTHER) is refused, or undefined when it is acceptable: 8 to 20 letters
 * and digits, and not numbered like a payment card (which would route it to a card network).
 */
export function customGanProblem(gan: string): string | undefined {
  if (!/^[A-Za-z0-9]{8,20}$/.test(gan)) return "A custom GAN has 8 to 20 letters and digits.";
  if (/^[3-6]\d{12,}$/.test(gan)) return "A custom GAN must not be numbered like a payment card.";
  return undefined;
}

/** Why a Square GAN given to register a physical card is refused, or undefined. */
export function squareGanProblem(gan: string): string | undefined {
  if (!/^\d{16}$/.test(gan) || !gan.startsWith(SQUARE_GAN_PREFIX) || !luhnValid(gan)) {
    return `A Square gift card number has 16 digits, starts with ${SQUARE_GAN_PREFIX} and ends with its check digit.`;
  }
  return undefined;
}

/** A card number as typed, scanned or read from a file: spaces and dashes between groups dropped. */
export function normalizeGan(text: string): string {
  return text.trim().replace(/[\s-]+/g, "");
}

/** Where a number to register comes from: Square's printed cards, or the seller's own numbering. */
export type GanSource = "SQUARE" | "OTHER";

/**
 * How a card number the service does not know yet would be registered, or why it cannot be: a
 * 16-digit number with Square's prefix is one of Square's printed cards and must pass its check
 * digit (a typo is caught here, not registered as a custom card); anything else is a custom GAN.
 */
export function ganToRegister(gan: string): { ok: true; source: GanSource } | { ok: false; problem: string } {
  if (/^\d{16}$/.test(gan) && gan.startsWith(SQUARE_GAN_PREFIX)) {
    return luhnValid(gan)
      ? { ok: true, source: "SQUARE" }
      : { ok: false, problem: `${gan} does not end with its check digit: a digit is mistyped or misread.` };
  }
  const problem = customGanProblem(gan);
  return problem ? { ok: false, problem } : { ok: true, source: "OTHER" };
}
