import { describe, expect, it } from "vitest";
import { fileProblem, unreadableFile } from "./file-problem.js";

/** A file system error as Node makes one. */
function fsError(code: string, syscall: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: something, ${syscall} '${path}'`), { code, syscall, path, errno: -13 });
}

describe("fileProblem", () => {
  it("names what failed on which file, in words", () => {
    expect(fileProblem(fsError("EROFS", "open", "/mnt/ro/demo.db"))).toBe(
      "cannot open /mnt/ro/demo.db: the disk is read-only (EROFS, open)",
    );
    expect(fileProblem(fsError("ENOSPC", "write", "/x/y.csv"))).toBe(
      "cannot write /x/y.csv: the disk is full (ENOSPC, write)",
    );
    expect(fileProblem(fsError("ENOTDIR", "mkdir", "/x/file/sub"))).toBe(
      "cannot make the folder /x/file/sub: part of the path is a file, not a folder (ENOTDIR, mkdir)",
    );
  });

  it("is undefined for errors that are not about a file", () => {
    expect(fileProblem(new Error("no"))).toBeUndefined();
    expect(fileProblem(Object.assign(new Error("x"), { code: "ECONNREFUSED" }))).toBeUndefined();
  });
});

describe("unreadableFile", () => {
  it("says why a file given on the command line cannot be read", () => {
    expect(unreadableFile("/x/count.csv", fsError("ENOENT", "open", "/x/count.csv"))).toBe(
      "cannot read /x/count.csv: there is no such file",
    );
    expect(unreadableFile("/etc", fsError("EISDIR", "read", "/etc"))).toBe(
      "cannot read /etc: it is a folder, not a file",
    );
    expect(unreadableFile("/root/a.csv", fsError("EACCES", "open", "/root/a.csv"))).toBe(
      "cannot read /root/a.csv: permission denied (EACCES)",
    );
    expect(unreadableFile("/x", fsError("EIO", "read", "/x"))).toBe("cannot read /x (EIO)");
  });
});
