import { describe, expect, it } from "vitest";
import { customGanProblem, ganToRegister, luhnCheckDigit, luhnValid, normalizeGan, squareGanProblem } from "./gan.js";

describe("gift card numbers", () => {
  it("computes the Luhn check digit of a known number", () => {
    expect(luhnCheckDigit("7992739871")).toBe("3");
    expect(luhnValid("79927398713")).toBe(true);
    expect(luhnValid("79927398714")).toBe(false);
  });

  it("refuses a printed Square GAN with a wrong prefix, length or check digit", () => {
    const good = `778300000000000${luhnCheckDigit("778300000000000")}`;
    expect(squareGanProblem(good)).toBeUndefined();
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

  it("reads a number typed in groups", () => {
    expect(normalizeGan(" 7783 3200-0000 0005 ")).toBe("7783320000000005");
  });

  it("registers a Square number as SQUARE, a mistyped one not at all, and the seller's own as OTHER", () => {
    const body = "778312345678901";
    const good = body + luhnCheckDigit(body);
    expect(ganToRegister(good)).toEqual({ ok: true, source: "SQUARE" });
    const typo = body + String((Number(luhnCheckDigit(body)) + 3) % 10);
    const refused = ganToRegister(typo);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.problem).toContain("check digit");
    expect(ganToRegister("CORNER2025GIFT")).toEqual({ ok: true, source: "OTHER" });
    expect(ganToRegister("4111111111111111").ok).toBe(false);
  });
});
