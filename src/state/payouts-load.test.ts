import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readStatementText } from "./payouts-load.js";

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("reading a statement file", () => {
  it("says in words why the file cannot be read", async () => {
    const d = mkdtempSync(join(tmpdir(), "backroom-statement-"));
    made.push(d);
    writeFileSync(join(d, "a.csv"), "Date,Amount\n");
    expect(await readStatementText(join(d, "a.csv"))).toEqual({ ok: true, text: "Date,Amount\n" });
    expect(await readStatementText(join(d, "none.csv"))).toEqual({
      ok: false,
      problem: `There is no file ${join(d, "none.csv")}.`,
    });
    expect(await readStatementText(d)).toEqual({ ok: false, problem: `${d} is a folder, not a statement.` });
    // A file where a folder was meant: the same words as the commands, not the bare code.
    expect(await readStatementText(join(d, "a.csv", "b.csv"))).toEqual({
      ok: false,
      problem: `${join(d, "a.csv", "b.csv")} cannot be read (part of the path is a file, not a folder).`,
    });
  });

  it("refuses a statement over 20 MB by its size, and reads a pipe or device no further", async () => {
    const d = mkdtempSync(join(tmpdir(), "backroom-statement-"));
    made.push(d);
    const huge = join(d, "year.csv");
    writeFileSync(huge, "");
    truncateSync(huge, 45 * 1024 * 1024);
    expect(await readStatementText(huge)).toEqual({
      ok: false,
      problem: `${huge} is 45 MB; a statement export is far smaller.`,
    });
    // A device has no size: before, it was read until memory ran out.
    expect(await readStatementText("/dev/zero")).toEqual({
      ok: false,
      problem: "/dev/zero is over 20 MB; a statement export is far smaller.",
    });
  });
});
