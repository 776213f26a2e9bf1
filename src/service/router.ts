import { type OperationSpec, operations } from "../spec/generated/operations.js";

interface CompiledRoute {
  op: OperationSpec;
  segments: readonly string[];
  /** The path template with its parameters blanked: routes of one template share it. */
  template: string;
}

/** The outcome of matching a request line. */
export type RouteMatch =
  | { kind: "found"; op: OperationSpec; params: Record<string, string> }
  | { kind: "method-not-allowed"; allowed: string[] }
  | { kind: "not-found" };

/** A decoded id that would name another path, or is not text at all. */
const UNSAFE_ID = /[/\\\p{Cc}]/u;

/**
 * Matches method and raw path against the contract's paths. Literal segments win over
 * parameters: the first template (most literal first) that matches the path owns it, and only
 * its methods are allowed there — `POST /v2/customers/groups` is 405 "use GET", never a customer
 * whose id is "groups". Parameters are percent-decoded; one that decodes to a `/`, a `\` or a
 * control character matches nothing.
 */
export function createRouter(ops: readonly OperationSpec[] = Object.values(operations)) {
  const routes: CompiledRoute[] = ops.map((op) => {
    const segments = op.path.split("/").filter(Boolean);
    return { op, segments, template: segments.map((s) => (s.startsWith("{") ? "{}" : s)).join("/") };
  });
  const rank = (r: CompiledRoute) => r.segments.map((s) => (s.startsWith("{") ? "1" : "0")).join("");
  routes.sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0));

  const matchParams = (route: CompiledRoute, parts: readonly string[]): Record<string, string> | undefined => {
    if (route.segments.length !== parts.length) return undefined;
    const params: Record<string, string> = {};
    for (let i = 0; i < parts.length; i++) {
      const seg = route.segments[i] ?? "";
      const part = parts[i] ?? "";
      if (!seg.startsWith("{")) {
        if (seg !== part) return undefined;
        continue;
      }
      let value: string;
      try {
        value = decodeURIComponent(part);
      } catch {
        return undefined;
      }
      if (value === "" || UNSAFE_ID.test(value)) return undefined;
      params[seg.slice(1, -1)] = value;
    }
    return params;
  };

  return (method: string, pathname: string): RouteMatch => {
    const parts = pathname.split("/").filter(Boolean);
    let owner: string | undefined;
    const allowed: string[] = [];
    for (const route of routes) {
      if (owner !== undefined && route.template !== owner) continue;
      const params = matchParams(route, parts);
      if (!params) continue;
      owner = route.template;
      if (route.op.method === method) return { kind: "found", op: route.op, params };
      allowed.push(route.op.method);
    }
    return owner === undefined ? { kind: "not-found" } : { kind: "method-not-allowed", allowed };
  };
}
