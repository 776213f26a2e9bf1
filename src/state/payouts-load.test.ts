import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
});
