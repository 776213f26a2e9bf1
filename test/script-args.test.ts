import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

// The scripts a developer runs by hand refuse a wrong argument with a message and the usage line
// (exit 2) before doing any work: no stack trace, no build, no benchmark run on a default.
const run = (script: string, ...args: string[]) =>
  spawnSync(process.execPath, [`scripts/${script}`, ...args], { encoding: "utf8", timeout: 30_000 });

describe("script arguments", () => {
  it.each([
    ["bench.mjs", ["nope"], /no section named nope; the sections are client, service/],
    ["bench-service.mjs", ["--bogus"], /Unknown option '--bogus'/],
    ["bench-service.mjs", ["--only", "retrieveCustomers"], /no row named retrieveCustomers/],
    ["bench-service.mjs", ["0"], /the scale is a whole number from 1 to 1000, got "0"/],
    ["bench-customers.mjs", ["2x"], /the scale is a whole number from 1 to 1000, got "2x"/],
    ["bench-client.mjs", ["-5"], /Unknown option '-5'/],
    ["bench-stocktake.mjs", ["memroy"], /the only mode is memory, got memroy/],
    ["bench-ui.mjs", ["extra"], /Unexpected argument 'extra'/],
    ["build.mjs", ["--outdir"], /argument missing/],
    ["gen-spec.mjs", ["a", "b"], /one folder at most/],
  ])("%s %j is refused with the usage", (script, args, message) => {
    const r = run(script, ...args);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/\nusage: /);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe("");
  });

  it("--help prints the usage and exits 0", () => {
    const r = run("bench-service.mjs", "--help");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^usage: node scripts\/bench-service\.mjs \[scale\]/);
  });
});
