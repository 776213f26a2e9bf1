import { describe, expect, it } from "vitest";
import { errorCode, fileErrorWords } from "./file-errors.js";

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

  it("finds an error's code", () => {
    expect(errorCode(Object.assign(new Error("x"), { code: "EIO" }))).toBe("EIO");
    expect(errorCode(new Error("x"))).toBeUndefined();
    expect(errorCode(undefined)).toBeUndefined();
  });
});
