import { describe, expect, it } from "vitest";
import { problemField, problemOn, problemText } from "./form-problem.js";

describe("a form's problem", () => {
  it("is about a field only when it has words and names one", () => {
    expect(problemOn("Give the statement's file.", "path")).toEqual({
      text: "Give the statement's file.",
      field: "path",
    });
    expect(problemOn("The service refused.", undefined)).toBe("The service refused.");
    expect(problemOn(undefined, "path")).toBeUndefined();
    expect(problemField(problemOn("x", "to"))).toBe("to");
    expect(problemText(problemOn("x", "to"))).toBe("x");
  });
});
