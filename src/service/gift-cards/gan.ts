/** The prefix of the 16-digit account numbers the service issues, like the real one's. */
const SQUARE_GAN_PREFIX = "7783";

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

/** A new 16-digit GAN: the prefix, 11 random digits and a check digit. */
export function newSquareGan(random: () => number): string {
  let body = SQUARE_GAN_PREFIX;
  while (body.length < 15) body += String(Math.floor(random() * 10));
  return body + luhnCheckDigit(body);
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
