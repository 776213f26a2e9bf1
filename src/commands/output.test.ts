import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureIo } from "../../test/auth-helpers.js";
import { CommandError } from "./io.js";
import { formatCsv, formatJson, formatNdjson, formatRecords, outputFormat, outTarget, writeOut } from "./output.js";

const records = [
  { id: "C1", name: "Ann, Jr.", balance: 1250 },
  { id: "C2", name: '=1+1 "quoted"', balance: null },
];
const columns = [
  { header: "id", cell: (r: (typeof records)[number]) => r.id },
  { header: "name", cell: (r: (typeof records)[number]) => r.name },
  { header: "balance", cell: (r: (typeof records)[number]) => r.balance },
];

describe("printers", () => {
  it("prints exactly the records as JSON, NDJSON or CSV", () => {
    expect(JSON.parse(formatJson(records))).toEqual(records);
    expect(formatJson([])).toBe("[]\n");
    expect(
      formatNdjson(records)
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual(records);
    expect(formatNdjson([])).toBe("");
    expect(formatCsv(records, columns)).toBe('id,name,balance\r\nC1,"Ann, Jr.",1250\r\nC2,"\'=1+1 ""quoted""",\r\n');
    expect(formatRecords("csv", [], columns)).toBe("id,name,balance\r\n");
  });

  it("takes one format at most", () => {
    expect(outputFormat({})).toBe("text");
    expect(outputFormat({ ndjson: true })).toBe("ndjson");
    expect(() => outputFormat({ json: true, csv: true })).toThrow("--json and --csv cannot go together; give one");
  });
});

describe("--out and --force", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "backroom-out-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("is stdout without --out or with -, a file with ~ expanded otherwise", () => {
    expect(outTarget({}, { HOME: dir })).toEqual({ kind: "stdout" });
    expect(outTarget({ out: "-" }, { HOME: dir })).toEqual({ kind: "stdout" });
    expect(outTarget({ out: "~/w.csv" }, { HOME: dir })).toEqual({
      kind: "file",
      path: join(dir, "w.csv"),
      force: false,
    });
    expect(() => outTarget({ force: true }, { HOME: dir })).toThrow("--force only applies with --out FILE");
  });

  it("writes a new file, refuses to overwrite one without --force, and overwrites with it", async () => {
    const cap = captureIo({});
    const path = join(dir, "w.csv");
    await writeOut({ kind: "file", path, force: false }, "one\n", cap.io.stdout);
    expect(await readFile(path, "utf8")).toBe("one\n");
    const refused = await writeOut({ kind: "file", path, force: false }, "two\n", cap.io.stdout).catch((e) => e);
    expect(refused).toBeInstanceOf(CommandError);
    expect(refused.exitCode).toBe(2);
    expect(refused.message).toBe(`${path} already exists; pass --force to overwrite it`);
    expect(await readFile(path, "utf8")).toBe("one\n");
    await writeOut({ kind: "file", path, force: true }, "three\n", cap.io.stdout);
    expect(await readFile(path, "utf8")).toBe("three\n");
    expect(cap.stdout()).toBe("");

    await writeOut({ kind: "stdout" }, "to stdout\n", cap.io.stdout);
    expect(cap.stdout()).toBe("to stdout\n");
    await writeFile(join(dir, "x"), "");
    await expect(
      writeOut({ kind: "file", path: join(dir, "no", "such", "w.csv"), force: false }, "", cap.io.stdout),
    ).rejects.toThrow("its folder does not exist");
  });
});
