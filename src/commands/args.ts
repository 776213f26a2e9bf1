import { parseArgs } from "node:util";
import { type CommandIo, say } from "./io.js";

/**
 * How an option reads its value. `optional-string` is a flag that may carry a value
 * (`--token`, `--token=T`, `--token T`): parseArgs has no such kind, so it is read as a boolean
 * and its value taken from the next argument here.
 */
export type OptionKind = "string" | "boolean" | "optional-string";

/** One option of a command: its kind, short name, the value's placeholder and one line of help. */
export interface OptionSpec {
  readonly type: OptionKind;
  readonly short?: string;
  /** The value's name in the usage (`FILE`, `YYYY-MM-DD`). */
  readonly value?: string;
  readonly help: string;
}

/** A named positional argument; `optional` ones come last, `many` takes every remaining one. */
export interface PositionalSpec {
  readonly name: string;
  readonly optional?: boolean;
  readonly many?: boolean;
  readonly help?: string;
}

/** Everything a command line reader and the usage text need to know about a command. */
export interface CommandSpec<O extends Readonly<Record<string, OptionSpec>> = Readonly<Record<string, OptionSpec>>> {
  /** The words that run it: `backroom shifts export`. */
  readonly name: string;
  /** What it does, in a sentence or a short paragraph. */
  readonly summary: string;
  readonly options: O;
  readonly positionals?: readonly PositionalSpec[];
  /** More paragraphs after the options (examples, exit codes). */
  readonly details?: string;
}

/** The value of one option as the command reads it. */
type ValueOf<S extends OptionSpec> = S["type"] extends "boolean"
  ? boolean
  : S["type"] extends "optional-string"
    ? string | true
    : string;

/** The options a command line gave, each absent when not given. */
export type ArgValues<O extends Readonly<Record<string, OptionSpec>>> = { -readonly [K in keyof O]?: ValueOf<O[K]> };

/** A command line read against its spec. */
export interface ParsedArgs<O extends Readonly<Record<string, OptionSpec>>> {
  values: ArgValues<O>;
  positionals: string[];
}

/** A command line the user got wrong; printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Every command takes `--help`/`-h`; it is added here so no spec can forget it. */
const HELP: OptionSpec = { type: "boolean", short: "h", help: "show this help and exit" };

// An argument that is itself an option, so it cannot be the value of the one before it
// (`--env --json` is a missing value, not an environment called "--json"). A lone `-` is a value.
const looksLikeOption = (arg: string) => /^--./.test(arg) || /^-[A-Za-z]/.test(arg);

/**
 * Reads `argv` against `spec` with `util.parseArgs`, refusing what parseArgs would let through:
 * an unknown option, a missing value, a flag given twice (never last-wins), a value on a
 * boolean, and more positional arguments than the command takes. Returns `"help"` when
 * `--help` or `-h` is anywhere on the line.
 */
export function parseCommandLine<O extends Readonly<Record<string, OptionSpec>>>(
  spec: CommandSpec<O>,
  argv: readonly string[],
): ParsedArgs<O> | "help" {
  const all: Record<string, OptionSpec> = { ...spec.options, help: HELP };
  const options: Record<string, { type: "string" | "boolean"; short?: string }> = {};
  for (const [name, o] of Object.entries(all)) {
    options[name] = { type: o.type === "string" ? "string" : "boolean", ...(o.short ? { short: o.short } : {}) };
  }
  // Non-strict, so every token comes back and the messages below are ours, naming what was typed.
  const { tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  const knownHelp = tokens.some((t) => t.kind === "option" && t.name === "help");
  if (knownHelp) return "help";

  const values: Record<string, string | boolean> = {};
  const given = new Map<string, string>();
  const positionals: string[] = [];
  const consumed = new Set<number>();
  for (const [i, t] of tokens.entries()) {
    if (t.kind === "option-terminator") continue;
    if (t.kind === "positional") {
      if (!consumed.has(t.index)) positionals.push(t.value);
      continue;
    }
    const o = all[t.name];
    if (!o) throw new UsageError(`unknown option ${t.rawName}`);
    const earlier = given.get(t.name);
    if (earlier !== undefined) {
      const same = earlier === t.rawName ? `${t.rawName} is` : `${earlier} and ${t.rawName} are`;
      throw new UsageError(`${same} given more than once; give it once`);
    }
    given.set(t.name, t.rawName);
    if (o.type === "boolean") {
      if (t.value !== undefined) throw new UsageError(`${t.rawName} takes no value`);
      values[t.name] = true;
    } else if (o.type === "string") {
      if (t.value === undefined || (!t.inlineValue && looksLikeOption(t.value))) {
        throw new UsageError(`${t.rawName} needs a value${o.value ? ` (${o.value})` : ""}`);
      }
      values[t.name] = t.value;
    } else {
      // optional-string: an inline value, else the very next argument when it is not an option.
      const next = tokens[i + 1];
      if (t.value !== undefined) values[t.name] = t.value;
      else if (next?.kind === "positional" && next.index === t.index + 1) {
        values[t.name] = next.value;
        consumed.add(next.index);
      } else values[t.name] = true;
    }
  }
  checkPositionals(spec, positionals);
  return { values: values as ArgValues<O>, positionals };
}

function checkPositionals(spec: CommandSpec, positionals: readonly string[]): void {
  const declared = spec.positionals ?? [];
  const many = declared.some((p) => p.many);
  const required = declared.filter((p) => !p.optional).length;
  if (!many && positionals.length > declared.length) {
    const extra = positionals[declared.length] ?? "";
    throw new UsageError(`unexpected argument ${JSON.stringify(extra)}`);
  }
  if (positionals.length < required) {
    const missing = declared.filter((p) => !p.optional)[positionals.length];
    throw new UsageError(`missing ${missing?.name ?? "argument"}`);
  }
}

/** The usage text of a command, built from its spec so the two cannot drift apart. */
export function usage(spec: CommandSpec): string {
  const pos = (spec.positionals ?? []).map((p) => {
    const word = p.many ? `${p.name}...` : p.name;
    return p.optional ? `[${word}]` : word;
  });
  const lines = [
    `usage: ${[spec.name, Object.keys(spec.options).length ? "[options]" : "", ...pos].filter(Boolean).join(" ")}`,
  ];
  lines.push("", wrap(spec.summary, 100));
  const withHelp = (spec.positionals ?? []).filter((p) => p.help);
  if (withHelp.length) {
    lines.push("", "arguments:");
    const width = Math.max(...withHelp.map((p) => p.name.length));
    for (const p of withHelp) lines.push(`  ${p.name.padEnd(width)}  ${p.help}`);
  }
  const rows = Object.entries({ ...spec.options, help: HELP }).map(([name, o]) => {
    const short = o.short ? `-${o.short}, ` : "    ";
    const value =
      o.type === "boolean" ? "" : o.type === "optional-string" ? ` [${o.value ?? "VALUE"}]` : ` ${o.value ?? "VALUE"}`;
    return [`${short}--${name}${value}`, o.help] as const;
  });
  const width = Math.max(...rows.map(([left]) => left.length));
  lines.push("", "options:");
  // Help that does not fit beside the option goes on under itself, at the help column.
  const room = Math.max(40, 100 - width - 4);
  for (const [left, help] of rows) {
    const [first, ...more] = wrap(help, room).split("\n");
    lines.push(`  ${left.padEnd(width)}  ${first}`);
    for (const line of more) lines.push(`  ${"".padEnd(width)}  ${line}`);
  }
  if (spec.details) lines.push("", ...spec.details.split("\n").map((l) => (/^\s/.test(l) ? l : wrap(l, 100))));
  return lines.join("\n");
}

/** Breaks a paragraph into lines of at most `width` characters, at spaces. */
function wrap(text: string, width: number): string {
  const out: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out.join("\n");
}

/** A command line read: its value, or the exit code the command ends with (usage already shown). */
export type ReadArgs<T> = { value: T } | { exit: number };

/**
 * Reads a command line and lets `check` turn it into the command's options. `--help` prints the
 * usage on stdout (exit 0); a {@link UsageError} from parsing or from `check` prints
 * `<name>: <problem>` and the usage on stderr (exit 2). Every command starts here.
 */
export function readArgs<O extends Readonly<Record<string, OptionSpec>>, T = ParsedArgs<O>>(
  io: CommandIo,
  spec: CommandSpec<O>,
  argv: readonly string[],
  check?: (args: ParsedArgs<O>) => T,
): ReadArgs<T> {
  try {
    const parsed = parseCommandLine(spec, argv);
    if (parsed === "help") {
      say(io.stdout, usage(spec));
      return { exit: 0 };
    }
    return { value: check ? check(parsed) : (parsed as T) };
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    say(io.stderr, `${spec.name}: ${err.message}\n\n${usage(spec)}`);
    return { exit: 2 };
  }
}

/** Checks a string option against a fixed list of words. */
export function oneOf<const W extends string>(
  flag: string,
  value: string | undefined,
  words: readonly W[],
): W | undefined {
  if (value === undefined) return undefined;
  if (!(words as readonly string[]).includes(value)) {
    throw new UsageError(`--${flag} must be one of ${words.join(", ")}, not ${JSON.stringify(value)}`);
  }
  return value as W;
}

/** Reads a whole number option within bounds. */
export function intOption(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${flag} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/** A group of subcommands (`backroom shifts`): its name, summary and each subcommand's line. */
export interface CommandGroup {
  readonly name: string;
  readonly summary: string;
  readonly subcommands: Readonly<Record<string, string>>;
}

/** The usage of a group of subcommands. */
export function groupUsage(group: CommandGroup): string {
  const names = Object.keys(group.subcommands);
  const width = Math.max(...names.map((n) => n.length));
  return [
    `usage: ${group.name} <${names.join("|")}> [options]`,
    "",
    wrap(group.summary, 100),
    "",
    "commands:",
    ...names.map((n) => `  ${n.padEnd(width)}  ${group.subcommands[n]}`),
    "",
    `\`${group.name} <command> --help\` shows a command's options.`,
  ].join("\n");
}
