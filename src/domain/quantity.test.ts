import { describe, expect, it } from "vitest";
import {
  addQuantities,
  compareQuantities,
  formatQuantity,
  groupedQuantity,
  isQuantity,
  normalizeQuantity,
  parseQuantity,
  subtractQuantities,
  sumQuantities,
} from "./quantity.js";

describe("quantities", () => {
  it("parses decimal strings into exact units of 0.00001", () => {
    expect(parseQuantity("1")).toBe(100_000);
    expect(parseQuantity("0.1")).toBe(10_000);
    expect(parseQuantity("3.14159")).toBe(314_159);
    expect(parseQuantity("-2.5")).toBe(-250_000);
    expect(parseQuantity("-0")).toBe(0);
  });

  it("refuses what is not a quantity", () => {
    for (const bad of ["", "abc", "1.234567", "1e3", ".5", "1.", "+1", "1,5", "12345678901", "NaN"]) {
      expect(isQuantity(bad), bad).toBe(false);
    }
  });

  it("reads exactly what the pattern of a quantity allows, and the same value", () => {
    // The spelling as a regular expression, the reference the parser is checked against.
    const pattern = /^(-)?(\d{1,10})(?:\.(\d{1,5}))?$/;
    const byPattern = (text: string): number | undefined => {
      const m = pattern.exec(text.trim());
      if (!m) return undefined;
      const units = Number(m[2]) * 100_000 + Number((m[3] ?? "").padEnd(5, "0"));
      return m[1] && units !== 0 ? -units : units;
    };
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return Math.floor((seed / 2_147_483_648) * n);
    };
    const digits = (n: number) => Array.from({ length: n }, () => String(next(10))).join("");
    const odd = ["", "", "", "", "+", " ", "e", "٣", "\t", ".", "-", "x"];
    for (let n = 0; n < 20_000; n++) {
      // Near a quantity: a sign, 0–12 digits, a point and 0–7 digits, with now and then a stray
      // character anywhere.
      let text = `${next(3) === 0 ? "-" : ""}${digits(next(13))}${next(2) === 0 ? `.${digits(next(8))}` : ""}`;
      const at = next(text.length + 1);
      text = `${text.slice(0, at)}${odd[next(odd.length)]}${text.slice(at)}`;
      expect(parseQuantity(text), JSON.stringify(text)).toBe(byPattern(text));
    }
    expect(parseQuantity("9999999999.99999")).toBe(999_999_999_999_999);
    expect(parseQuantity(" 12.5 ")).toBe(1_250_000);
  });

  it("formats the shortest spelling", () => {
    expect(formatQuantity(30_000)).toBe("0.3");
    expect(formatQuantity(200_000)).toBe("2");
    expect(formatQuantity(0)).toBe("0");
    expect(formatQuantity(-1_500_000)).toBe("-15");
    expect(formatQuantity(-50)).toBe("-0.0005");
    expect(formatQuantity(123_456_789)).toBe("1234.56789");
    expect(normalizeQuantity("007.50")).toBe("7.5");
  });

  it("adds without float drift", () => {
    expect(addQuantities("0.1", "0.2")).toBe("0.3");
    expect(sumQuantities(Array.from({ length: 10 }, () => "0.1"))).toBe("1");
    expect(sumQuantities([])).toBe("0");
    expect(addQuantities("9999999999.99999", "0.00001")).toBe("10000000000");
  });

  it("subtracts into a signed variance and compares numerically", () => {
    expect(subtractQuantities("10", "12.25")).toBe("-2.25");
    expect(subtractQuantities("0.3", "0.1")).toBe("0.2");
    expect(compareQuantities("1.50", "1.5")).toBe(0);
    expect(compareQuantities("2", "10")).toBe(-1);
    expect(compareQuantities("-1", "-2")).toBe(1);
  });

  it("throws on arithmetic over a non-quantity", () => {
    expect(() => addQuantities("1", "x")).toThrow(RangeError);
  });

  it("groups the whole units of a quantity for people to read, as money is", () => {
    expect(groupedQuantity("15065")).toBe("15,065");
    expect(groupedQuantity("-1234567.125")).toBe("-1,234,567.125");
    expect(groupedQuantity("999")).toBe("999");
    expect(groupedQuantity("0.5")).toBe("0.5");
  });
});
