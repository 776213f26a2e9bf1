import { type OperationSpec, operations } from "../spec/generated/operations.js";

interface CompiledRoute {
  op: OperationSpec;
  segments: readonly string[];
}

/** The outcome of matching a request line. */
export type RouteMatch =
  | { kind: "found"; op: OperationSpec; params: Record<string, string> }
  | { kind: "method-not-allowed"; allowed: string[] }
  | { kind: "not-found" };

/**
 * Matches method and path against the contract's paths. Literal segments win over parameters
 * (`/v2/customers/search` before `/v2/customers/{customer_id}`), so routes are tried from the
 * most literal to the least.
 */
export function createRouter(ops: readonly OperationSpec[] = Object.values(operations)) {
  const routes: CompiledRoute[] = ops.map((op) => ({ op, segments: op.path.split("/").filter(Boolean) }));
  const rank = (r: CompiledRoute) => r.segments.map((s) => (s.startsWith("{") ? "1" : "0")).join("");
  routes.sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0));

  return (method: string, pathname: string): RouteMatch => {
    const parts = pathname.split("/").filter(Boolean);
    const allowed = new Set<string>();
    let literalMatched = false;
    for (const route of routes) {
      if (route.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        const seg = route.segments[i] ?? "";
        const part = parts[i] ?? "";
        if (seg.startsWith("{")) {
          try {
            params[seg.slice(1, -1)] = decodeURIComponent(part);
          } catch {
            ok = false;
          }
        } else ok = seg === part;
      }
      if (!ok) continue;
      // A more literal path that matched but lacks this method shadows looser templates with
      // the same shape only for 405 purposes; a looser template may still own the method.
      if (route.op.method === method) return { kind: "found", op: route.op, params };
      allowed.add(route.op.method);
      literalMatched = true;
    }
    return literalMatched ? { kind: "method-not-allowed", allowed: [...allowed] } : { kind: "not-found" };
  };
}
