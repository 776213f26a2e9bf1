// Money, one way for every screen and command: amounts are integers in the currency's minor unit
// (the interface's `Money.amount`), and how many digits that unit has comes from Intl's currency
// data (JPY 0, USD 2, BHD 3), never from a fixed `/ 100`. Formatting goes through
// Intl.NumberFormat on an exact decimal string built by integer arithmetic, so no float rounding
// can show a cent that is not there.

/** An amount of money as the interface carries it: minor units and an ISO 4217 code. */
export interface Money {
  amount: number;
  currency: string;
}

/** The outcome of reading typed money: the amount in minor units, or the problem in words. */
export type MoneyParse = { ok: true; value: number } | { ok: false; problem: string };

/** Locale of every formatted amount: tables and CSV must read the same on every machine. */
const LOCALE = "en-US";

const digitsCache = new Map<string, number>();

/** Digits after the decimal point of a currency's minor unit (JPY 0, USD 2, BHD 3). */
export function minorUnits(currency: string): number {
  const code = currency.toUpperCase();
  let digits = digitsCache.get(code);
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat(LOCALE, { style: "currency", currency: code }).resolvedOptions()
        .maximumFractionDigits as number;
    } catch {
      // Not a currency code Intl knows: two digits, the common case, rather than a crash.
      digits = 2;
    }
    digitsCache.set(code, digits);
  }
  return digits;
}

/** How {@link formatAmount} and {@link formatMoney} write an amount. */
export interface FormatOptions {
  /** Thousands separators (`1,234.50`); off for files that other programs read. Default on. */
  grouping?: boolean;
  /** `always` writes `+` before a positive amount (variances, over/short); default only `-`. */
  sign?: "auto" | "always";
}

const formatterCache = new Map<string, Intl.NumberFormat>();

function formatterFor(digits: number, options: FormatOptions): Intl.NumberFormat {
  const grouping = options.grouping ?? true;
  const sign = options.sign === "always" ? "exceptZero" : "auto";
  const key = `${digits}|${grouping}|${sign}`;
  let f = formatterCache.get(key);
  if (!f) {
    f = new Intl.NumberFormat(LOCALE, {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      useGrouping: grouping,
      signDisplay: sign,
    });
    formatterCache.set(key, f);
  }
  return f;
}

/** The exact decimal of an amount in minor units: 123450 USD → "1234.50", 5 BHD → "0.005". */
export function decimalString(amount: number, currency: string): string {
  const digits = minorUnits(currency);
  const negative = amount < 0;
  const abs = Math.abs(Math.trunc(amount));
  if (digits === 0) return `${negative ? "-" : ""}${abs}`;
  const text = String(abs).padStart(digits + 1, "0");
  return `${negative ? "-" : ""}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** An amount without its currency code, by the currency's digits: `1,234.50`, `¥`-less `1,234`. */
export function formatAmount(amount: number, currency: string, options: FormatOptions = {}): string {
  // Intl reads a numeric string as an exact decimal (no float in between).
  return formatterFor(minorUnits(currency), options).format(decimalString(amount, currency) as unknown as number);
}

/** An amount with its sign always written, so it reads without colour: `+2.50`, `-1.00`, `0.00` (over/short, variances). */
export function formatSigned(amount: number, currency: string, options: Omit<FormatOptions, "sign"> = {}): string {
  return formatAmount(amount, currency, { ...options, sign: "always" });
}

/** Money with its code, as tables show it: `1,234.50 USD`, `1,234 JPY`; `—` when there is none. */
export function formatMoney(money: Partial<Money> | undefined | null, options: FormatOptions = {}): string {
  if (!money || typeof money.amount !== "number" || !money.currency) return "—";
  return `${formatAmount(money.amount, money.currency, options)} ${money.currency}`;
}

/** Sums amounts of one currency; `undefined` amounts count as zero. */
export function sumMoney<C extends string>(
  items: readonly (Partial<Money> | undefined)[],
  currency: C,
): { amount: number; currency: C } {
  let amount = 0;
  for (const m of items) if (m && typeof m.amount === "number") amount += m.amount;
  return { amount, currency };
}

/** An amount for a file other programs read (`1234.50`, no separators); empty when there is none. */
export function plainMoney(money: Partial<Money> | undefined | null): string {
  if (!money || typeof money.amount !== "number") return "";
  return formatAmount(money.amount, money.currency ?? "USD", { grouping: false });
}

/** How {@link parseMoney} reads text. */
export interface ParseOptions {
  /** The decimal mark; `,` for statements written the European way (`1.234,50`). Default `.`. */
  decimalMark?: "." | ",";
  /** Whether a negative amount is allowed (an adjustment down); default yes. */
  allowNegative?: boolean;
}

let currencyCodes: ReadonlySet<string> | undefined;

/** Whether `code` is an ISO 4217 currency code this runtime knows (`USD`, `EUR`; not `ABC`). */
function isCurrencyCode(code: string): boolean {
  currencyCodes ??= new Set(Intl.supportedValuesOf("currency"));
  return currencyCodes.has(code);
}

/**
 * Reads an amount typed by a person or found in a file, in the currency's minor units: `12`,
 * `12.5`, `1,234.50`, `$1,234.50`, `-3`, `(12.50)` (a negative in an accountant's brackets),
 * `12.50 USD`. More decimals than the currency has are refused rather than rounded away.
 */
export function parseMoney(text: string, currency: string, options: ParseOptions = {}): MoneyParse {
  const decimalMark = options.decimalMark ?? ".";
  const group = decimalMark === "." ? "," : ".";
  const digits = minorUnits(currency);
  let t = text.trim();
  if (t === "") return { ok: false, problem: "Type an amount." };
  let negative = false;
  // Accountants' brackets around the number, with a symbol or code inside or outside them:
  // `(12.50)`, `($12.50)`, `$(12.50)`, `(12.50) USD`. A bracket without its pair is no amount.
  const brackets = /^([^\d()]*)\(([^()]*)\)([^\d()]*)$/.exec(t);
  if (brackets) {
    negative = true;
    t = `${brackets[1]}${brackets[2]}${brackets[3]}`.trim();
  } else if (/[()]/.test(t)) return { ok: false, problem: `"${text.trim()}" is not an amount.` };
  // A minus after the number, as some bank exports write a withdrawal: `12.50-`.
  if (/\d\s*-$/.test(t)) {
    if (negative) return { ok: false, problem: `"${text.trim()}" is not an amount.` };
    negative = true;
    t = t.replace(/\s*-$/, "");
  }
  // A currency code or symbol before or after the number is not part of it.
  const code = /^([A-Za-z]{3})\s*|\s*([A-Za-z]{3})$/.exec(t);
  if (code) {
    const named = (code[1] ?? code[2] ?? "").toUpperCase();
    // A word ("abc", "n/a") is no amount in another currency: only a known code beside digits is.
    if (!/\d/.test(t) || !isCurrencyCode(named)) return { ok: false, problem: `"${text.trim()}" is not an amount.` };
    if (named !== currency.toUpperCase()) {
      return { ok: false, problem: `"${text.trim()}" is in ${named}; this is in ${currency.toUpperCase()}.` };
    }
    t = t.replace(code[0], "");
  }
  if (/^[-−]/.test(t)) {
    negative = !negative;
    t = t.slice(1).trim();
  } else if (t.startsWith("+")) t = t.slice(1).trim();
  t = t.replace(/^[^\d.,\s-]+\s*/u, "").replace(/\s*[^\d.,\s]+$/u, "");
  if (/^[-−]/.test(t) && !negative) {
    // A sign after the symbol: `$-5`.
    negative = true;
    t = t.slice(1);
  }
  t = t.replace(/[\s\u00a0\u202f']/g, "");
  const pattern = new RegExp(`^(\\d{1,3}(?:\\${group}\\d{3})+|\\d+)?(?:\\${decimalMark}(\\d*))?$`);
  const m = pattern.exec(t);
  if (!m || (m[1] === undefined && !m[2])) return { ok: false, problem: `"${text.trim()}" is not an amount.` };
  const whole = (m[1] ?? "0").split(group).join("");
  const fraction = m[2] ?? "";
  if (fraction.length > digits) {
    return {
      ok: false,
      problem:
        digits === 0
          ? `${currency.toUpperCase()} has no decimals: "${text.trim()}" cannot be paid.`
          : `${currency.toUpperCase()} has ${digits} decimals at most: "${text.trim()}".`,
    };
  }
  const minor = Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0");
  if (!Number.isSafeInteger(minor)) return { ok: false, problem: `"${text.trim()}" is too large.` };
  if (negative && minor !== 0 && options.allowNegative === false) {
    return { ok: false, problem: "The amount must not be negative." };
  }
  return { ok: true, value: negative && minor !== 0 ? -minor : minor };
}
