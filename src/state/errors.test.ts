import { describe, expect, it } from "vitest";
import { exportProblem, type WriteError } from "./errors.js";

const failed = (code: string | undefined): WriteError => ({
  kind: "failed",
  cause: Object.assign(new Error("x"), code ? { code } : {}),
  problem: { headline: "The file was not written: why." },
});

describe("an export form's problem", () => {
  it("is about the path field when the path typed is why, in the same words", () => {
    expect(exportProblem(failed("ENOENT"))).toEqual({ text: "The file was not written: why.", field: "path" });
    expect(exportProblem(failed("EISDIR"), "file")).toEqual({ text: "The file was not written: why.", field: "file" });
  });

  it("is words only when another path would not help, and nothing for a repeated press", () => {
    expect(exportProblem(failed("ENOSPC"))).toBe("The file was not written: why.");
    expect(exportProblem(failed(undefined))).toBe("The file was not written: why.");
    expect(exportProblem({ kind: "read-only" })).toBe("Read-only mode: changes are disabled.");
    expect(exportProblem({ kind: "exists", paths: ["/a.csv"] })).toBe("/a.csv is already there.");
    expect(exportProblem({ kind: "in-flight" })).toBeUndefined();
  });
});
