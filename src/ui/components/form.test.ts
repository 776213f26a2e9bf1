import { describe, expect, it } from "vitest";
import { editText, formReducer, initialForm } from "./form.js";

const fields = [
  { name: "date", label: "Date" },
  { name: "time", label: "Time" },
];
const none = {
  tab: false,
  shift: false,
  backspace: false,
  delete: false,
  upArrow: false,
  downArrow: false,
  ctrl: false,
  meta: false,
};

describe("form", () => {
  it("types into the focused field and moves with tab", () => {
    let s = initialForm({ date: "2026-05-05", time: "" });
    s = formReducer(s, { type: "key", input: "", key: { ...none, tab: true }, fields });
    for (const c of "17:30") s = formReducer(s, { type: "key", input: c, key: none, fields });
    expect(s.values).toEqual({ date: "2026-05-05", time: "17:30" });
    expect(s.dirty).toBe(true);
    s = formReducer(s, { type: "key", input: "", key: { ...none, tab: true, shift: true }, fields });
    s = formReducer(s, { type: "key", input: "", key: { ...none, delete: true }, fields });
    expect(s.values.date).toBe("2026-05-0");
  });

  it("clears a problem when the user edits", () => {
    let s = formReducer(initialForm({ date: "" }), { type: "problem", problem: "bad" });
    s = formReducer(s, { type: "key", input: "x", key: none, fields });
    expect(s.problem).toBeUndefined();
  });

  it("ignores control characters and clears with ctrl+u", () => {
    expect(editText("ab", "c\u0007d", none)).toBe("abcd");
    expect(editText("abc", "u", { ...none, ctrl: true })).toBe("");
  });
});
