import { describe, expect, it } from "vitest";
import { decimalString, formatAmount, formatMoney, formatSigned, minorUnits, parseMoney, sumMoney } from "./money.js";

describe("minorUnits", () => {
  it("takes each currency's digits from Intl, not a fixed two", () => {
    expect(minorUnits("USD")).toBe(2);
    expect(minorUnits("JPY")).toBe(0);
    expect(minorUnits("BHD")).toBe(3);
    expect(minorUnits("usd")).toBe(2);
  });
  it("falls back to two digits for a code Intl does not know", () => {
    expect(minorUnits("??")).toBe(2);
  });
});

describe("formatting one amount in each currency", () => {
  const amount = 123456;
  it.each([
    ["USD", "1,234.56", "1,234.56 USD", "1234.56"],
    ["EUR", "1,234.56", "1,234.56 EUR", "1234.56"],
    ["JPY", "123,456", "123,456 JPY", "123456"],
    ["BHD", "123.456", "123.456 BHD", "123.456"],
  ])("%s", (currency, amountText, moneyText, plain) => {
    expect(formatAmount(amount, currency)).toBe(amountText);
    expect(formatMoney({ amount, currency })).toBe(moneyText);
    expect(formatAmount(amount, currency, { grouping: false })).toBe(plain);
    expect(formatSigned(amount, currency)).toBe(`+${amountText}`);
    expect(formatSigned(-amount, currency, { grouping: false })).toBe(`-${plain}`);
  });
  it("writes small and negative amounts exactly", () => {
    expect(formatAmount(5, "USD")).toBe("0.05");
    expect(formatAmount(-5, "USD")).toBe("-0.05");
    expect(formatAmount(5, "BHD")).toBe("0.005");
    expect(formatAmount(-1, "JPY")).toBe("-1");
    expect(decimalString(-1205, "BHD")).toBe("-1.205");
  });
  it("keeps cents that a float would lose", () => {
    expect(formatAmount(Number.MAX_SAFE_INTEGER, "USD", { grouping: false })).toBe("90071992547409.91");
  });
  it("signs variances when asked", () => {
    expect(formatAmount(250, "USD", { sign: "always" })).toBe("+2.50");
    expect(formatAmount(-100, "USD", { sign: "always" })).toBe("-1.00");
    expect(formatAmount(0, "USD", { sign: "always" })).toBe("0.00");
  });
  it("shows a dash for no money", () => {
    expect(formatMoney(undefined)).toBe("—");
    expect(formatMoney({ amount: 5 })).toBe("—");
  });
});

describe("parseMoney", () => {
  it.each([
    ["12", "USD", 1200],
    ["12.5", "USD", 1250],
    ["1,234.50", "USD", 123450],
    ["$1,234.50", "USD", 123450],
    ["-3", "USD", -300],
    ["(12.50)", "USD", -1250],
    ["($12.50)", "USD", -1250],
    ["$(12.50)", "USD", -1250],
    ["(12.50) USD", "USD", -1250],
    ["(USD 1,234.50)", "USD", -123450],
    ["12.50-", "USD", -1250],
    ["$ 1,234.50", "USD", 123450],
    ["12.50 USD", "USD", 1250],
    ["USD 12.50", "USD", 1250],
    ["-$7.01", "USD", -701],
    [".75", "USD", 75],
    ["1500", "JPY", 1500],
    ["¥1,500", "JPY", 1500],
    ["1.205", "BHD", 1205],
    ["0", "USD", 0],
  ])("%s in %s is %d", (text, currency, value) => {
    expect(parseMoney(text, currency)).toEqual({ ok: true, value });
  });
  it("reads the European way when told", () => {
    expect(parseMoney("1.234,50", "EUR", { decimalMark: "," })).toEqual({ ok: true, value: 123450 });
    expect(parseMoney("-0,99 €", "EUR", { decimalMark: "," })).toEqual({ ok: true, value: -99 });
  });
  it("refuses more decimals than the currency has, in words", () => {
    const jpy = parseMoney("12.5", "JPY");
    expect(jpy.ok).toBe(false);
    if (!jpy.ok) expect(jpy.problem).toMatch(/JPY has no decimals/);
    const usd = parseMoney("1.005", "USD");
    expect(usd.ok).toBe(false);
    if (!usd.ok) expect(usd.problem).toMatch(/2 decimals at most/);
    expect(parseMoney("1.2345", "BHD").ok).toBe(false);
  });
  it("refuses text that is no amount", () => {
    for (const t of ["", "abc", "12..5", "1,23,4", "12.5.6", "--3", "12 EUR", "$(12.50", "12.50)", "((1))", "-(5)-"]) {
      expect(parseMoney(t, "USD").ok, t).toBe(false);
    }
  });
  it("says a word or an unknown code is not an amount, and names another currency only when it is one", () => {
    expect(parseMoney("abc", "USD")).toEqual({ ok: false, problem: '"abc" is not an amount.' });
    expect(parseMoney("n/a", "USD")).toEqual({ ok: false, problem: '"n/a" is not an amount.' });
    expect(parseMoney("12 XYZ", "USD")).toEqual({ ok: false, problem: '"12 XYZ" is not an amount.' });
    expect(parseMoney("12 EUR", "USD")).toEqual({ ok: false, problem: '"12 EUR" is in EUR; this is in USD.' });
    expect(parseMoney("usd 5", "USD")).toEqual({ ok: true, value: 500 });
  });
  it("refuses a negative where none is allowed", () => {
    expect(parseMoney("-5", "USD", { allowNegative: false }).ok).toBe(false);
    expect(parseMoney("-0", "USD", { allowNegative: false })).toEqual({ ok: true, value: 0 });
  });
});

describe("sumMoney", () => {
  it("adds amounts and treats missing ones as zero", () => {
    expect(sumMoney([{ amount: 100, currency: "USD" }, undefined, { amount: -25 }], "USD")).toEqual({
      amount: 75,
      currency: "USD",
    });
  });
});
