// The arguments of a script run by hand (a bench, the build), read by util.parseArgs like the
// app's own commands: a flag it does not know, a missing value or a value out of range prints
// what was wrong and the usage line, and exits 2, instead of a stack trace or a silent default.
import { parseArgs } from "node:util";

/**
 * Parses `process.argv` for script `name`; `--help` prints the usage and exits 0. Returns the
 * values, the positionals and `fail(message)`, which refuses a value the caller finds wrong.
 */
export function scriptArgs(name, usage, { options = {}, allowPositionals = false } = {}) {
  const fail = (message) => {
    console.error(`${name}: ${message}\nusage: ${usage}`);
    process.exit(2);
  };
  let parsed;
  try {
    parsed = parseArgs({ options: { ...options, help: { type: "boolean", short: "h" } }, allowPositionals });
  } catch (e) {
    fail(e instanceof Error ? e.message : String(e));
  }
  if (parsed.values.help) {
    console.log(`usage: ${usage}`);
    process.exit(0);
  }
  return { values: parsed.values, positionals: parsed.positionals, fail };
}

/** `text` as a whole number from `min` to `max` (`fallback` when absent); anything else is refused through `fail`. */
export function wholeNumber(text, { fallback, min, max, what, fail }) {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max) {
    fail(`${what} is a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`);
  }
  return n;
}
