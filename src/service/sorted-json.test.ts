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

  it("leaves the top object's members named in omit out, and only there", () => {
    const v = { limit: 1, a: { limit: 2 }, cursor: "c", b: [{ cursor: 3 }] };
    expect(sortedJson(v, new Set(["limit", "cursor"]))).toBe('{"a":{"limit":2},"b":[{"cursor":3}]}');
    expect(sortedJson([{ limit: 1 }], new Set(["limit"]))).toBe('[{"limit":1}]');
  });

  it("writes numeric keys the same way whatever order they came in", () => {
    expect(sortedJson({ b: 1, 10: 2, 9: 3 })).toBe(sortedJson(JSON.parse('{"9":3,"b":1,"10":2}')));
  });

  it("writes what a copy without a prototype writes, for values of every kind", () => {
    // The plain way: keys sorted into an object that has no prototype, then JSON.stringify.
    const plain = (v: unknown): unknown => {
      if (v === null || typeof v !== "object") return v;
      if (Array.isArray(v)) return v.map(plain);
      const copy: Record<string, unknown> = Object.create(null);
      for (const k of Object.keys(v).sort()) {
        const x = (v as Record<string, unknown>)[k];
        if (x !== undefined) copy[k] = plain(x);
      }
      return copy;
    };
    let seed = 7;
    const next = () => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      return seed >>> 8;
    };
    const KEYS = ["b", "a", "__proto__", "10", "9", "é", "a b", "constructor", "toString", "z\n"];
    const value = (depth: number): unknown => {
      const kind = next() % (depth > 3 ? 4 : 6);
      if (kind === 0) return null;
      if (kind === 1) return next() % 1000;
      if (kind === 2) return next() % 2 === 0;
      if (kind === 3) return `s${next() % 50}"`;
      if (kind === 4) return Array.from({ length: next() % 4 }, () => value(depth + 1));
      return JSON.parse(
        `{${Array.from({ length: next() % 5 }, () => `${JSON.stringify(KEYS[next() % KEYS.length])}:${JSON.stringify(value(depth + 1))}`).join(",")}}`,
      );
    };
    for (let i = 0; i < 500; i++) {
      const v = value(0);
      expect(sortedJson(v)).toBe(JSON.stringify(plain(v)) ?? "null");
    }
  });
});
