import { mkdirSync, mkdtempSync, rmSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readTextFile } from "./read-text-file.js";

const dir = mkdtempSync(join(tmpdir(), "backroom-read-text-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("reading a file from outside up to its limit", () => {
  it("reads a file at the limit whole, as UTF-8, with when it was last changed", async () => {
    const path = join(dir, "count.csv");
    writeFileSync(path, "sku,quantity\nCAFÉ-1,3\n");
    utimesSync(path, new Date("2026-11-20T10:00:00Z"), new Date("2026-11-20T10:00:00Z"));
    const size = Buffer.byteLength("sku,quantity\nCAFÉ-1,3\n");
    expect(await readTextFile(path, size)).toEqual({
      ok: true,
      text: "sku,quantity\nCAFÉ-1,3\n",
      modified: new Date("2026-11-20T10:00:00Z"),
    });
    expect(await readTextFile(path, size - 1)).toEqual({ ok: false, bytes: size, exact: true });
  });

  it("refuses a file over the limit by its size, without reading it", async () => {
    // A sparse file of 2 GB: reading it whole would take seconds and gigabytes.
    const path = join(dir, "huge.csv");
    writeFileSync(path, "");
    truncateSync(path, 2 * 1024 ** 3);
    expect(await readTextFile(path, 30 * 1024 * 1024)).toEqual({ ok: false, bytes: 2 * 1024 ** 3, exact: true });
  });

  it("reads what has no size known in advance only up to one byte past the limit", async () => {
    // /dev/zero never ends: only a bounded read comes back at all.
    expect(await readTextFile("/dev/zero", 100_000)).toEqual({ ok: false, bytes: 100_001, exact: false });
    expect(await readTextFile("/dev/null", 10)).toMatchObject({ ok: true, text: "" });
  });

  it("throws the file system's errors with their codes", async () => {
    await expect(readTextFile(join(dir, "missing.csv"), 10)).rejects.toMatchObject({ code: "ENOENT" });
    mkdirSync(join(dir, "folder"));
    await expect(readTextFile(join(dir, "folder"), 10)).rejects.toMatchObject({ code: "EISDIR" });
  });
});
