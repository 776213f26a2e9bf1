import { luhnCheckDigit, SQUARE_GAN_PREFIX } from "../../domain/gan.js";

// What a GAN must look like is shared with the app (domain/gan.ts); issuing new ones is the service's.
export { customGanProblem, luhnCheckDigit, luhnValid, squareGanProblem } from "../../domain/gan.js";

/** A new 16-digit GAN: the prefix, 11 random digits and a check digit. */
export function newSquareGan(random: () => number): string {
  let body = SQUARE_GAN_PREFIX;
  while (body.length < 15) body += String(Math.floor(random() * 10));
  return body + luhnCheckDigit(body);
}
