import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createFullStore } from "../../test/helpers/store.js";
import { exportsFolder, type FileWriter, resolveExportPath, writeCsvFiles, wroteMessage } from "./export-csv.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});
const temp = () => {
  dir = mkdtempSync(join(tmpdir(), "backroom-export-"));
  return dir;
};

describe("where an export goes", () => {
  const where = { dataDir: "/data/backroom", defaultName: "shifts.csv", home: "/home/ann", cwd: "/work" };
  it("is the data folder's exports/ by default, and for a bare file name", () => {
    expect(resolveExportPath("", where)).toBe("/data/backroom/exports/shifts.csv");
    expect(resolveExportPath("  week.csv ", where)).toBe("/data/backroom/exports/week.csv");
  });
  it("follows a folder when one is given: ~, absolute, or relative to the current folder", () => {
    expect(resolveExportPath("~/week.csv", where)).toBe("/home/ann/week.csv");
    expect(resolveExportPath("/tmp/week.csv", where)).toBe("/tmp/week.csv");
    expect(resolveExportPath("out/week.csv", where)).toBe("/work/out/week.csv");
    expect(resolveExportPath("./week.csv", where)).toBe("/work/week.csv");
  });
});

describe("writing the files of an export", () => {
  it("makes the exports folder, writes every file and names the whole paths", async () => {
    const data = temp();
    const a = join(exportsFolder(data), "a.csv");
    const files = [
      { path: a, text: "x\r\n", what: "2 shifts" },
      { path: join(exportsFolder(data), "a-summary.csv"), text: "y\r\n", what: "the weekly summary" },
    ];
    const result = await writeCsvFiles(files, { overwrite: false, dataDir: data });
    expect(result).toEqual({ ok: true, value: files.map((f) => f.path) });
    expect(readFileSync(a, "utf8")).toBe("x\r\n");
    expect(wroteMessage(files)).toBe(`Wrote 2 shifts to ${a} and the weekly summary to ${files[1]?.path}.`);
  });

  it("writes nothing when any file is there, unless told to replace", async () => {
    const d = temp();
    const first = join(d, "a.csv");
    const second = join(d, "b.csv");
    writeFileSync(second, "mine");
    const files = [
      { path: first, text: "new", what: "a" },
      { path: second, text: "new", what: "b" },
    ];
    expect(await writeCsvFiles(files, { overwrite: false })).toEqual({
      ok: false,
      error: { kind: "exists", paths: [second] },
    });
    expect(() => readFileSync(first)).toThrow();
    expect((await writeCsvFiles(files, { overwrite: true })).ok).toBe(true);
    expect(readFileSync(second, "utf8")).toBe("new");
  });

  it("says in words why a file could not be written", async () => {
    const d = temp();
    const result = await writeCsvFiles([{ path: join(d, "missing", "a.csv"), text: "", what: "a" }], {
      overwrite: false,
    });
    expect(result.ok).toBe(false);
    if (!result.ok && result.error.kind === "failed") {
      expect(result.error.problem.headline).toBe("The file was not written: its folder does not exist.");
      expect(result.error.problem.details).toContain("ENOENT");
    } else throw new Error("expected a failure");
  });

  it("says a read-only or full disk in the same words as the commands", async () => {
    for (const [code, words] of [
      ["EROFS", "the disk is read-only"],
      ["ENOSPC", "the disk is full"],
      ["EACCES", "that folder may not be written to"],
    ] as const) {
      const refusing: FileWriter = {
        exists: async () => false,
        makeFolder: async () => undefined,
        write: async (path) => {
          throw Object.assign(new Error(`${code}: refused, open '${path}'`), { code, syscall: "open", path });
        },
      };
      const result = await writeCsvFiles([{ path: "/mnt/usb/a.csv", text: "", what: "a" }], {
        overwrite: true,
        files: refusing,
      });
      expect(result).toMatchObject({
        ok: false,
        error: {
          kind: "failed",
          problem: { headline: `The file was not written: ${words}.`, details: `${code} · /mnt/usb/a.csv` },
        },
      });
    }
  });
});

describe("the store's exportCsv", () => {
  it("asks before replacing (enter would be no), writes on yes, and keeps the file on no", async () => {
    const data = temp();
    const store = await createFullStore({ client: {} as never, dataDir: data });
    const path = store.getState().exportTarget("", "week.csv");
    const file = { path, text: "new", what: "3 shifts" };
    expect((await store.getState().exportCsv([file])).ok).toBe(true);
    expect(store.getState().status).toMatchObject({ kind: "info", text: `Wrote 3 shifts to ${path}.` });
    writeFileSync(path, "mine");
    const again = await store.getState().exportCsv([{ ...file, text: "newer" }]);
    expect(again).toEqual({ ok: false, error: { kind: "exists", paths: [path] } });
    const overlay = store.getState().overlay;
    expect(overlay.kind === "confirm" && overlay.question).toMatchObject({
      message: `${path} is already there. Replace it?`,
      risky: true,
    });
    store.getState().answer(false);
    expect(store.getState().status).toMatchObject({
      kind: "info",
      text: `Nothing written: ${path} is kept as it was.`,
    });
    expect(readFileSync(path, "utf8")).toBe("mine");
    await store.getState().exportCsv([{ ...file, text: "newer" }]);
    store.getState().answer(true);
    await vi.waitFor(() => expect(readFileSync(path, "utf8")).toBe("newer"));
  });
});
