import { describe, expect, it } from "vitest";
import { seededRandom } from "../seed/random.js";
import { luhnValid, newSquareGan, squareGanProblem } from "./gan.js";

describe("GANs the service issues", () => {
  it("have 16 digits, the Square prefix and a valid check digit", () => {
    const random = seededRandom(7);
    for (let i = 0; i < 200; i++) {
      const gan = newSquareGan(random);
      expect(gan).toMatch(/^7783\d{12}$/);
      expect(luhnValid(gan)).toBe(true);
      expect(squareGanProblem(gan)).toBeUndefined();
    }
  });
});
