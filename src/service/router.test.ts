import { describe, expect, it } from "vitest";
import { type OperationSpec, operations } from "../spec/generated/operations.js";
import { createRouter, type RouteMatch } from "./router.js";

const OPS = Object.values(operations);

/**
 * The rule the router keeps, written the plain way: every template in order, most literal first
 * (a literal segment before a parameter at the first place two templates differ), the first that
 * matches owns the path, and only its methods are allowed there.
 */
function byEveryTemplate(ops: readonly OperationSpec[]): (method: string, pathname: string) => RouteMatch {
  const rank = (op: OperationSpec) =>
    op.path
      .split("/")
      .filter(Boolean)
      .map((s) => (s.startsWith("{") ? "1" : "0"))
      .join("");
  const sorted = [...ops].sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0));
  const compiled = sorted.map((op) => {
    const segments = op.path.split("/").filter(Boolean);
    return { op, segments, template: segments.map((s) => (s.startsWith("{") ? "{}" : s)).join("/") };
  });
  return (method, pathname) => {
    const parts = pathname.split("/").filter(Boolean);
    let owner: string | undefined;
    const allowed: string[] = [];
    for (const { op, segments, template } of compiled) {
      if ((owner !== undefined && template !== owner) || segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      const matches = segments.every((seg, i) => {
        const part = parts[i] ?? "";
        if (!seg.startsWith("{")) return seg === part;
        let value: string;
        try {
          value = decodeURIComponent(part);
        } catch {
          return false;
        }
        params[seg.slice(1, -1)] = value;
        return value !== "" && !/[/\\\p{Cc}]/u.test(value);
      });
      if (!matches) continue;
      owner = template;
      if (op.method === method) return { kind: "found", op, params };
      allowed.push(op.method);
    }
    return owner === undefined ? { kind: "not-found" } : { kind: "method-not-allowed", allowed };
  };
}

/**
 * Every operation's path with one parameter replaced by each of `ids` or one literal segment by
 * each of `odd`, the other parameters filled in; each also cut short by a segment and made a
 * segment longer.
 */
function pathsFrom(ids: readonly string[], odd: readonly string[]): string[] {
  const paths = new Set<string>();
  for (const op of OPS) {
    const segments = op.path.split("/").filter(Boolean);
    for (let at = 0; at < segments.length; at++) {
      for (const v of segments[at]?.startsWith("{") ? ids : odd) {
        const filled = segments.map((s, i) => (i === at ? v : s.startsWith("{") ? `id${i}` : s));
        paths.add(`/${filled.join("/")}`);
        paths.add(`/${filled.slice(0, -1).join("/")}`);
        paths.add(`/${[...filled, v].join("/")}`);
      }
    }
  }
  return [...paths];
}

/** A match in a few words: what it found, with which parameters, or which methods it allows. */
const summary = (m: RouteMatch): string =>
  m.kind === "found" ? `${m.op.name} ${JSON.stringify(m.params)}` : m.kind === "not-found" ? "404" : `405 ${m.allowed}`;

describe("the router", () => {
  const route = createRouter();
  // Every literal segment of the contract, as an id: where a literal and a parameter compete.
  const literals = [...new Set(OPS.flatMap((op) => op.path.split("/").filter((s) => s && !s.startsWith("{"))))];
  const odd = ["abc", "a%20b", "%2F", "a%5Cb", "%0A", "%E0%A4%A", "%", "caf%C3%A9", "{customer_id}"];
  const paths = pathsFrom([...literals, ...odd], odd);

  // GET and POST: a method only picks among the owner's operations, which the 405 lists show whole.
  it("answers every path and method as the plain rule does: owner, 404, or 405 with the methods in order", () => {
    const plain = byEveryTemplate(OPS);
    expect(paths.length).toBeGreaterThan(5_000);
    const differ: string[] = [];
    for (const path of paths) {
      for (const method of ["GET", "POST"]) {
        const [got, want] = [route(method, path), plain(method, path)];
        if (summary(got) !== summary(want)) differ.push(`${method} ${path}`);
      }
    }
    expect(differ).toEqual([]);
  });

  it("gives literal segments the path before parameters, at any depth", () => {
    expect(route("POST", "/v2/customers/groups")).toEqual({ kind: "method-not-allowed", allowed: ["GET"] });
    const found = route("GET", "/v2/customers/groups/G1");
    expect(found.kind === "found" && [found.op.name, found.params]).toEqual([
      "RetrieveCustomerGroup",
      { group_id: "G1" },
    ]);
    const customer = route("GET", "/v2/customers/caf%C3%A9");
    expect(customer.kind === "found" && [customer.op.name, customer.params]).toEqual([
      "RetrieveCustomer",
      { customer_id: "café" },
    ]);
  });

  it("falls back to a parameter where a literal branch leads nowhere, and refuses ids that name other paths", () => {
    const ops: OperationSpec[] = [
      { ...operations.RetrieveCustomer, name: "a", path: "/x/lit/deep" },
      { ...operations.RetrieveCustomer, name: "b", path: "/x/{p}/other", pathParams: ["p"] },
    ];
    const small = createRouter(ops);
    const viaParam = small("GET", "/x/lit/other");
    expect(viaParam.kind === "found" && [viaParam.op.name, viaParam.params]).toEqual(["b", { p: "lit" }]);
    expect(small("GET", "/x/a%2Fb/other")).toEqual({ kind: "not-found" });
    expect(small("GET", "/x/lit")).toEqual({ kind: "not-found" });
  });
});
