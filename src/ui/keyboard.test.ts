import type { Key } from "ink";
import { describe, expect, it } from "vitest";
import { splitEnter } from "./keyboard.js";

const plain = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
} as Key;

describe("splitEnter", () => {
  it("splits text that arrived with an Enter into the text and a real Enter", () => {
    const parts = splitEnter("Aisha Khan\r", plain);
    expect(parts.map((p) => [p.input, p.key.return])).toEqual([
      ["Aisha Khan", false],
      ["", true],
    ]);
    expect(splitEnter("a\rb", plain).map((p) => [p.input, p.key.return])).toEqual([
      ["a", false],
      ["", true],
      ["b", false],
    ]);
  });

  it("leaves single keys and text without line breaks alone", () => {
    expect(splitEnter("abc", plain)).toEqual([{ input: "abc", key: plain }]);
    expect(splitEnter("j", plain)).toEqual([{ input: "j", key: plain }]);
  });
});
