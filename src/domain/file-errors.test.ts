import { describe, expect, it } from "vitest";
import { errorCode, fileErrorWords, isPathProblem, sizeInWords, sizeOverWords } from "./file-errors.js";

describe("file error codes in words", () => {
  it("says a code the same way everywhere, better where reading or writing says more", () => {
    expect(fileErrorWords("ENOSPC")).toBe("the disk is full");
    expect(fileErrorWords("ENOSPC", "write")).toBe("the disk is full");
    expect(fileErrorWords("EROFS", "write")).toBe("the disk is read-only");
    expect(fileErrorWords("ENOENT")).toBe("no such file or folder");
    expect(fileErrorWords("ENOENT", "read")).toBe("there is no such file");
    expect(fileErrorWords("ENOENT", "write")).toBe("its folder does not exist");
    expect(fileErrorWords("EPERM", "write")).toBe("that folder may not be written to");
    expect(fileErrorWords("EACCES", "read")).toBe("permission denied");
  });

  it("has no words for a code that is not about files, or none", () => {
    expect(fileErrorWords("ECONNREFUSED")).toBeUndefined();
    expect(fileErrorWords(undefined, "write")).toBeUndefined();
    expect(fileErrorWords("toString")).toBeUndefined();
  });

  it("knows which codes another path would cure", () => {
    for (const code of ["ENOENT", "ENOTDIR", "EISDIR", "EACCES", "EPERM", "EROFS"])
      expect(isPathProblem(code)).toBe(true);
    for (const code of ["ENOSPC", "EDQUOT", "EIO", "ECONNREFUSED", "toString", undefined]) {
      expect(isPathProblem(code)).toBe(false);
    }
  });

  it("finds an error's code", () => {
    expect(errorCode(Object.assign(new Error("x"), { code: "EIO" }))).toBe("EIO");
    expect(errorCode(new Error("x"))).toBeUndefined();
    expect(errorCode(undefined)).toBeUndefined();
  });
});

describe("file sizes in words", () => {
  it("says a size as a file manager does", () => {
    expect(sizeInWords(300)).toBe("1 KB");
    expect(sizeInWords(840 * 1024)).toBe("840 KB");
    expect(sizeInWords(2.34 * 1024 * 1024)).toBe("2.3 MB");
    expect(sizeInWords(45.4 * 1024 * 1024)).toBe("45 MB");
    expect(sizeInWords(1000 * 1024 * 1024)).toBe("1,000 MB");
    expect(sizeInWords(2 * 1024 ** 3)).toBe("2 GB");
  });

  it("says 'over' the limit where the size would read as the limit itself, or is not known", () => {
    const limit = 30 * 1024 * 1024;
    expect(sizeOverWords(45 * 1024 * 1024, limit)).toBe("45 MB");
    expect(sizeOverWords(limit + 1000, limit)).toBe("over 30 MB");
    expect(sizeOverWords(limit + 1, limit, false)).toBe("over 30 MB");
    expect(sizeOverWords(2.5 * 1024 * 1024, 2 * 1024 * 1024)).toBe("2.5 MB");
  });
});
