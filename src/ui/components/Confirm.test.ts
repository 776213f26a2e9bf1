import { describe, expect, it } from "vitest";
import { answerKeysText, notAnAnswerText } from "./Confirm.js";

describe("the confirmation's words for keys", () => {
  it("tells a key that answers nothing which keys do, esc as the question takes it", () => {
    expect(notAnAnswerText("q", {})).toBe("q quits once the question is answered: y yes, n or esc no.");
    expect(notAnAnswerText("4", { onNeither: () => {} })).toBe(
      "4 does not answer the question: y yes, n no, esc neither.",
    );
  });

  it("says nothing of keys that are not typed characters", () => {
    expect(notAnAnswerText("\u0001", {})).toBeUndefined();
    expect(notAnAnswerText("", {})).toBeUndefined();
  });

  it("lists esc as neither only for a question between two things to do", () => {
    expect(answerKeysText({ risky: false }, "yes")).toContain("n / esc: no");
    expect(answerKeysText({ risky: false, onNeither: () => {} }, "yes")).toContain("esc: neither");
  });
});
