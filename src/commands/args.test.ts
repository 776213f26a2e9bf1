import { describe, expect, it } from "vitest";
import { captureIo } from "../../test/auth-helpers.js";
import {
  type CommandSpec,
  groupUsage,
  intOption,
  oneOf,
  parseCommandLine,
  readArgs,
  UsageError,
  usage,
} from "./args.js";

const SPEC = {
  name: "backroom thing do",
  summary: "Does the thing.",
  options: {
    env: { type: "string", short: "e", value: "NAME", help: "where" },
    out: { type: "string", value: "FILE", help: "where to write" },
    json: { type: "boolean", help: "records only" },
    token: { type: "optional-string", value: "TOKEN", help: "a token, or ask for one" },
  },
  positionals: [
    { name: "ID", help: "the thing's id" },
    { name: "NOTE", optional: true },
  ],
} as const satisfies CommandSpec;

const problem = (argv: string[]) => {
  try {
    parseCommandLine(SPEC, argv);
  } catch (err) {
    if (err instanceof UsageError) return err.message;
    throw err;
  }
  throw new Error(`${argv.join(" ")} was accepted`);
};

describe("parseCommandLine", () => {
  it("reads long, short, inline and attached values, booleans and positionals", () => {
    expect(parseCommandLine(SPEC, ["X1", "--env", "sandbox", "--out=a.csv", "--json", "a note"])).toEqual({
      values: { env: "sandbox", out: "a.csv", json: true },
      positionals: ["X1", "a note"],
    });
    expect(parseCommandLine(SPEC, ["-esandbox", "X1"])).toEqual({ values: { env: "sandbox" }, positionals: ["X1"] });
    expect(parseCommandLine(SPEC, ["X1", "--out", "-"])).toMatchObject({ values: { out: "-" } });
    // After `--`, what looks like an option is an argument.
    expect(parseCommandLine(SPEC, ["--", "--json"])).toEqual({ values: {}, positionals: ["--json"] });
  });

  it("takes an optional value only from the very next argument or after =", () => {
    expect(parseCommandLine(SPEC, ["X1", "--token"])).toMatchObject({ values: { token: true }, positionals: ["X1"] });
    expect(parseCommandLine(SPEC, ["--token", "T0", "X1"])).toMatchObject({
      values: { token: "T0" },
      positionals: ["X1"],
    });
    expect(parseCommandLine(SPEC, ["X1", "--token=T0"])).toMatchObject({ values: { token: "T0" } });
    expect(parseCommandLine(SPEC, ["X1", "--token", "--json"])).toMatchObject({ values: { token: true, json: true } });
  });

  it("names what was typed when it refuses it", () => {
    expect(problem(["--bogus"])).toBe("unknown option --bogus");
    expect(problem(["-x"])).toBe("unknown option -x");
    expect(problem(["X1", "--env"])).toBe("--env needs a value (NAME)");
    expect(problem(["X1", "--env", "--json"])).toBe("--env needs a value (NAME)");
    expect(problem(["X1", "--json=yes"])).toBe("--json takes no value");
    expect(problem(["X1", "two", "three"])).toBe('unexpected argument "three"');
    expect(problem([])).toBe("missing ID");
  });

  it("refuses a flag given twice instead of keeping the last", () => {
    expect(problem(["X1", "--env", "a", "--env", "b"])).toBe("--env is given more than once; give it once");
    expect(problem(["X1", "-e", "a", "--env=b"])).toBe("-e and --env are given more than once; give it once");
    expect(problem(["X1", "--json", "--json"])).toBe("--json is given more than once; give it once");
  });

  it("answers help wherever --help or -h stands, even beside mistakes", () => {
    expect(parseCommandLine(SPEC, ["--help"])).toBe("help");
    expect(parseCommandLine(SPEC, ["X1", "--bogus", "-h"])).toBe("help");
  });
});

describe("usage", () => {
  it("is built from the spec: every option with its value and help, the positionals, --help", () => {
    const text = usage(SPEC);
    expect(text.split("\n")[0]).toBe("usage: backroom thing do [options] ID [NOTE]");
    expect(text).toContain("Does the thing.");
    expect(text).toMatch(/^ {2}-e, --env NAME +where$/m);
    expect(text).toMatch(/^ {6}--token \[TOKEN\] +a token, or ask for one$/m);
    expect(text).toMatch(/^ {2}-h, --help +show this help and exit$/m);
    expect(text).toMatch(/^ {2}ID +the thing's id$/m);
  });

  it("lists a group's subcommands", () => {
    const text = groupUsage({ name: "backroom shifts", summary: "Shifts.", subcommands: { export: "as CSV" } });
    expect(text).toContain("usage: backroom shifts <export> [options]");
    expect(text).toMatch(/^ {2}export +as CSV$/m);
  });
});

describe("readArgs", () => {
  it("prints the usage on stdout for --help (exit 0) and with the problem on stderr (exit 2)", () => {
    const help = captureIo({});
    expect(readArgs(help.io, SPEC, ["--help"])).toEqual({ exit: 0 });
    expect(help.stdout()).toBe(`${usage(SPEC)}\n`);
    expect(help.stderr()).toBe("");

    const wrong = captureIo({});
    expect(readArgs(wrong.io, SPEC, ["X1", "nope", "again"])).toEqual({ exit: 2 });
    expect(wrong.stderr()).toBe(`backroom thing do: unexpected argument "again"\n\n${usage(SPEC)}\n`);
    expect(wrong.stdout()).toBe("");
  });

  it("shows a problem found by the command's own check the same way", () => {
    const cap = captureIo({});
    const read = readArgs(cap.io, SPEC, ["X1", "--out", "7"], (a) => intOption("out", a.values.out, 10, 20));
    expect(read).toEqual({ exit: 2 });
    expect(cap.stderr()).toMatch(/^backroom thing do: --out must be a whole number from 10 to 20, not "7"\n\nusage:/);
    expect(readArgs(cap.io, SPEC, ["X1", "--out", "12"], (a) => intOption("out", a.values.out, 10, 20))).toEqual({
      value: 12,
    });
  });

  it("checks words against a list", () => {
    expect(oneOf("seed", "demo", ["demo", "empty"])).toBe("demo");
    expect(oneOf("seed", undefined, ["demo", "empty"])).toBeUndefined();
    expect(() => oneOf("seed", "full", ["demo", "empty"])).toThrow('--seed must be one of demo, empty, not "full"');
  });
});
