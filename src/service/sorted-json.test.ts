import { describe, expect, it } from "vitest";
import { sortedJson } from "./sorted-json.js";

describe("sortedJson", () => {
  it("writes the same text for the same value whatever the key order", () => {
    const a = { b: 1, a: { d: [1, { z: 1, y: "é" }], c: null } };
    const b = { a: { c: null, d: [1, { y: "é", z: 1 }] }, b: 1 };
    expect(sortedJson(a)).toBe(sortedJson(b));
    expect(sortedJson(a)).toBe('{"a":{"c":null,"d":[1,{"y":"é","z":1}]},"b":1}');
  });

  it("leaves out undefined members, writes undefined array items as null, and reads as JSON", () => {
    const v = { x: undefined, y: [undefined, 'q"uote'], "k\n": 2 };
    expect(sortedJson(v)).toBe('{"k\\n":2,"y":[null,"q\\"uote"]}');
    expect(JSON.parse(sortedJson(v))).toEqual({ "k\n": 2, y: [null, 'q"uote'] });
  });

  it("keeps a member named __proto__ as JSON.parse read it, so two bodies that differ there differ", () => {
    const a = JSON.parse('{"__proto__":{"x":1},"k":1}');
    const b = JSON.parse('{"__proto__":{"x":2},"k":1}');
    expect(sortedJson(a)).toBe('{"__proto__":{"x":1},"k":1}');
    expect(sortedJson(a)).not.toBe(sortedJson(b));
  });

  it("writes numeric keys the same way whatever order they came in", () => {
    expect(sortedJson({ b: 1, 10: 2, 9: 3 })).toBe(sortedJson(JSON.parse('{"9":3,"b":1,"10":2}')));
  });
});
