import { describe, expect, it } from "vitest";
import { seededRandom } from "../seed/random.js";
import { customGanProblem, luhnCheckDigit, luhnValid, newSquareGan, squareGanProblem } from "./gan.js";

describe("GANs", () => {
  it("computes the Luhn check digit of a known number", () => {
    expect(luhnCheckDigit("7992739871")).toBe("3");
    expect(luhnValid("79927398713")).toBe(true);
    expect(luhnValid("79927398714")).toBe(false);
  });

  it("issues 16-digit numbers with the Square prefix and a valid check digit", () => {
    const random = seededRandom(7);
    for (let i = 0; i < 200; i++) {
      const gan = newSquareGan(random);
      expect(gan).toMatch(/^7783\d{12}$/);
      expect(luhnValid(gan)).toBe(true);
      expect(squareGanProblem(gan)).toBeUndefined();
    }
  });

  it("refuses a printed Square GAN with a wrong prefix, length or check digit", () => {
    const good = newSquareGan(seededRandom(1));
    const wrongCheck = good.slice(0, -1) + String((Number(good.at(-1)) + 1) % 10);
    for (const gan of ["1234567890123456", "7783123", wrongCheck]) expect(squareGanProblem(gan)).toBeDefined();
  });

  it("accepts custom GANs of 8 to 20 letters and digits that do not look like payment cards", () => {
    expect(customGanProblem("STORE-1")).toBeDefined();
    expect(customGanProblem("SHORT7")).toBeDefined();
    expect(customGanProblem("A".repeat(21))).toBeDefined();
    expect(customGanProblem("4111111111111111")).toBeDefined();
    expect(customGanProblem("CORNER2025GIFT")).toBeUndefined();
  });
});
