import { describe, expect, it } from "vitest";
import { fitList, initialList, listActionOf, listReducer, visibleRange } from "./windowed-list.js";

const size = { count: 100, height: 10 };

describe("windowed list", () => {
  it("scrolls the window only when the cursor leaves it", () => {
    let s = initialList;
    for (let i = 0; i < 9; i++) s = listReducer(s, { type: "move", delta: 1, ...size });
    expect(s).toEqual({ cursor: 9, offset: 0 });
    s = listReducer(s, { type: "move", delta: 1, ...size });
    expect(s).toEqual({ cursor: 10, offset: 1 });
    s = listReducer(s, { type: "move", delta: -5, ...size });
    expect(s).toEqual({ cursor: 5, offset: 1 });
  });

  it("stops at both ends", () => {
    expect(listReducer(initialList, { type: "move", delta: -1, ...size })).toEqual(initialList);
    const end = listReducer(initialList, { type: "bottom", ...size });
    expect(end).toEqual({ cursor: 99, offset: 90 });
    expect(listReducer(end, { type: "move", delta: 1, ...size })).toEqual(end);
    expect(listReducer(end, { type: "top", ...size })).toEqual(initialList);
  });

  it("pages by the window height", () => {
    const s = listReducer(initialList, { type: "page", direction: 1, ...size });
    expect(s).toEqual({ cursor: 10, offset: 10 });
    expect(listReducer(s, { type: "page", direction: -1, ...size })).toEqual(initialList);
  });

  it("refits when rows disappear or the window shrinks", () => {
    expect(fitList({ cursor: 50, offset: 45 }, 20, 10)).toEqual({ cursor: 19, offset: 10 });
    expect(fitList({ cursor: 50, offset: 45 }, 100, 3)).toEqual({ cursor: 50, offset: 48 });
    expect(fitList({ cursor: 3, offset: 1 }, 0, 10)).toEqual(initialList);
  });

  it("renders only the rows that fit", () => {
    expect(visibleRange({ cursor: 5000, offset: 4995 }, 10_000, 20)).toEqual({ start: 4995, end: 5015 });
    expect(visibleRange(initialList, 3, 20)).toEqual({ start: 0, end: 3 });
  });

  it("reads the list commands as list actions, and nothing else", () => {
    expect(listActionOf("down", 100, 10)).toEqual({ type: "move", delta: 1, ...size });
    expect(listActionOf("pageUp", 100, 10)).toEqual({ type: "page", direction: -1, ...size });
    expect(listActionOf("bottom", 100, 10)).toEqual({ type: "bottom", ...size });
    expect(listActionOf("open", 100, 10)).toBeUndefined();
  });
});
