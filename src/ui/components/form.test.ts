import { describe, expect, it } from "vitest";
import { formReducer, initialForm } from "./form.js";

describe("form", () => {
  it("moves between fields both ways, wrapping round", () => {
    let s = initialForm({ date: "2026-05-05", time: "" });
    s = formReducer(s, { type: "move", delta: 1, count: 2 });
    expect(s.focus).toBe(1);
    s = formReducer(s, { type: "move", delta: 1, count: 2 });
    expect(s.focus).toBe(0);
    s = formReducer(s, { type: "move", delta: -1, count: 2 });
    expect(s.focus).toBe(1);
  });

  it("changes a value, marks the form dirty and clears the problem", () => {
    let s = formReducer(initialForm({ date: "" }), { type: "problem", problem: "bad" });
    expect(s.problem).toBe("bad");
    s = formReducer(s, { type: "change", name: "date", value: "2026-05-06" });
    expect(s).toMatchObject({ values: { date: "2026-05-06" }, dirty: true, problem: undefined });
    expect(formReducer(s, { type: "change", name: "date", value: "2026-05-06" })).toBe(s);
  });

  it("resets to new values and keeps the focus", () => {
    let s = formReducer(initialForm({ a: "1", b: "2" }), { type: "move", delta: 1, count: 2 });
    s = formReducer(s, { type: "change", name: "b", value: "3" });
    s = formReducer(s, { type: "reset", values: { a: "x", b: "y" }, problem: "changed elsewhere" });
    expect(s).toEqual({ values: { a: "x", b: "y" }, focus: 1, problem: "changed elsewhere", dirty: false });
  });
});
