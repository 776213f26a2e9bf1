import { describe, expect, it } from "vitest";
import { formReducer, initialForm, typedOverSelection } from "./form.js";

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

  it("moves to the field a refusal is about, its value selected so typing replaces it", () => {
    const fields = { startDate: "2026-11-272026-11-26", startTime: "08:55", breaks: "Lunch 12:00-12:30" };
    let s = formReducer(initialForm(fields), { type: "move", delta: 2, count: 3 });
    s = formReducer(s, { type: "change", name: "breaks", value: "Lunch 12:00-12:31" });
    expect(s).toMatchObject({ focus: 2, selected: false });
    s = formReducer(s, { type: "submit" });
    s = formReducer(s, { type: "problem", problem: "bad start date", focus: 0 });
    expect(s).toMatchObject({ focus: 0, selected: true, problem: "bad start date" });
    // The text field reports the old value with the typed character after it: the character stands alone.
    s = formReducer(s, { type: "change", name: "startDate", value: "2026-11-272026-11-262" });
    expect(s.values.startDate).toBe("2");
  });

  it("keeps the focus where it is for a refusal not about one field", () => {
    let s = formReducer(initialForm({ a: "1", b: "2" }), { type: "move", delta: 1, count: 2 });
    s = formReducer(s, { type: "change", name: "b", value: "3" });
    s = formReducer(s, { type: "submit" });
    s = formReducer(s, { type: "problem", problem: "the service refused" });
    expect(s).toMatchObject({ focus: 1, selected: false, problem: "the service refused" });
    s = formReducer(s, { type: "problem", problem: "no such field", focus: -1 });
    expect(s).toMatchObject({ focus: 1, selected: false });
  });

  it("resets to new values and keeps the focus", () => {
    let s = formReducer(initialForm({ a: "1", b: "2" }), { type: "move", delta: 1, count: 2 });
    s = formReducer(s, { type: "change", name: "b", value: "3" });
    s = formReducer(s, { type: "reset", values: { a: "x", b: "y" }, problem: "changed elsewhere" });
    expect(s).toEqual({
      values: { a: "x", b: "y" },
      focus: 1,
      problem: "changed elsewhere",
      dirty: false,
      selected: false,
      untouched: false,
    });
  });

  it("lets a slow answer take the focus only if nothing was moved or typed since enter", () => {
    const opened = formReducer(initialForm({ name: "", url: "http://x", version: "2099-01-01" }), {
      type: "move",
      delta: 1,
      count: 3,
    });
    const sent = formReducer(opened, { type: "submit" });
    // Nothing done since: the answer about the version takes the manager there, selected.
    const refused = { type: "problem", problem: "2099-01-01 is not released", focus: 2 } as const;
    expect(formReducer(sent, refused)).toMatchObject({ focus: 2, selected: true, problem: refused.problem });
    // Moved on to another field, typed, or let the selection go meanwhile: the problem only shows.
    const moved = formReducer(sent, { type: "move", delta: -1, count: 3 });
    expect(formReducer(moved, refused)).toMatchObject({ focus: 0, selected: true, problem: refused.problem });
    const typed = formReducer(sent, { type: "change", name: "url", value: "http://xy" });
    expect(formReducer(typed, refused)).toMatchObject({ focus: 1, selected: false, problem: refused.problem });
    const cursor = formReducer(sent, { type: "deselect" });
    expect(formReducer(cursor, refused)).toMatchObject({ focus: 1, selected: false });
    // Enter again after moving: its answer may move the focus again.
    expect(formReducer(formReducer(moved, { type: "submit" }), refused)).toMatchObject({ focus: 2, selected: true });
  });

  it("does not move for a problem that answers no enter", () => {
    const s = formReducer(initialForm({ a: "1", b: "2" }), { type: "problem", problem: "x", focus: 1 });
    expect(s).toMatchObject({ focus: 0, problem: "x" });
  });
});

describe("a field moved to with tab", () => {
  it("is selected: typing goes over its value, backspace empties it, and either ends the selection", () => {
    let s = formReducer(initialForm({ name: "", minutes: "15" }), { type: "move", delta: 1, count: 2 });
    expect(s.selected).toBe(true);
    // The text field reports the value with the typed key after it.
    s = formReducer(s, { type: "change", name: "minutes", value: "155" });
    expect(s).toMatchObject({ values: { minutes: "5" }, selected: false, dirty: true });
    s = formReducer(s, { type: "change", name: "minutes", value: "50" });
    expect(s.values.minutes).toBe("50");
    s = formReducer(s, { type: "move", delta: 1, count: 2 });
    s = formReducer(s, { type: "move", delta: 1, count: 2 });
    s = formReducer(s, { type: "change", name: "minutes", value: "5" });
    expect(s).toMatchObject({ values: { minutes: "" }, selected: false });
  });

  it("is let go by a cursor key, after which typing edits as usual", () => {
    let s = formReducer(initialForm({ a: "", b: "15" }), { type: "move", delta: -1, count: 2 });
    s = formReducer(s, { type: "deselect" });
    expect(s.selected).toBe(false);
    s = formReducer(s, { type: "change", name: "b", value: "105" });
    expect(s.values.b).toBe("105");
  });

  it("opens with a value already in its first field selected: what is typed replaces it", () => {
    const opened = initialForm({ startDate: "2026-11-27", startTime: "" }, "startDate");
    expect(opened.selected).toBe(true);
    const typed = formReducer(opened, { type: "change", name: "startDate", value: "2026-11-272" });
    expect(typed.values.startDate).toBe("2");
    // An empty first field has nothing to select.
    expect(initialForm({ name: "", minutes: "15" }, "name").selected).toBe(false);
  });

  it("is not selected after a reset", () => {
    const moved = formReducer(initialForm({ a: "1", b: "2" }), { type: "move", delta: 1, count: 2 });
    expect(formReducer(moved, { type: "reset", values: { a: "x", b: "y" } }).selected).toBe(false);
  });

  it("keeps a pasted or typed change that is not at the end as it is", () => {
    expect(typedOverSelection("15", "125")).toBe("125");
    expect(typedOverSelection("15", "15x")).toBe("x");
    expect(typedOverSelection("15", "1")).toBe("");
  });
});
