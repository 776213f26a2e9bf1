import { type OperationSpec, operations } from "../spec/generated/operations.js";

/** The outcome of matching a request line. */
export type RouteMatch =
  | { kind: "found"; op: OperationSpec; params: Record<string, string> }
  | { kind: "method-not-allowed"; allowed: string[] }
  | { kind: "not-found" };

/** A decoded id that would name another path, or is not text at all. */
const UNSAFE_ID = /[/\\\p{Cc}]/u;

/**
 * One step of the path templates: the literal segments that go on from here, the parameter that
 * does (every template's parameter at this depth, whatever its name), and the operations of the
 * template that ends here, by method, with the name each gives its parameters.
 */
interface Node {
  literals: Map<string, Node>;
  param: Node | undefined;
  ops: { op: OperationSpec; names: readonly string[] }[];
}

const node = (): Node => ({ literals: new Map(), param: undefined, ops: [] });

/** A parameter segment's value: percent-decoded, and undefined when it can name no id. */
function paramValue(part: string): string | undefined {
  let value = part;
  // Only a `%` starts an escape: an id without one is read as it is.
  if (part.includes("%")) {
    try {
      value = decodeURIComponent(part);
    } catch {
      return undefined;
    }
  }
  return value === "" || UNSAFE_ID.test(value) ? undefined : value;
}

/**
 * Matches method and raw path against the contract's paths. Literal segments win over
 * parameters: the first template (most literal first) that matches the path owns it, and only
 * its methods are allowed there — `POST /v2/customers/groups` is 405 "use GET", never a customer
 * whose id is "groups". Parameters are percent-decoded; one that decodes to a `/`, a `\` or a
 * control character matches nothing.
 *
 * The templates are kept as a tree of segments, searched depth first with the literal branch
 * before the parameter one: the order "most literal first" names, at the cost of the path's own
 * length rather than of every template.
 */
export function createRouter(ops: readonly OperationSpec[] = Object.values(operations)) {
  const root = node();
  for (const op of ops) {
    let at = root;
    const names: string[] = [];
    for (const seg of op.path.split("/").filter(Boolean)) {
      if (seg.startsWith("{")) {
        names.push(seg.slice(1, -1));
        at.param ??= node();
        at = at.param;
      } else {
        let next = at.literals.get(seg);
        if (!next) {
          next = node();
          at.literals.set(seg, next);
        }
        at = next;
      }
    }
    at.ops.push({ op, names });
  }

  /** The template node that owns `parts` from depth `i`, with the parameter values on its way. */
  const owner = (at: Node, parts: readonly string[], i: number, values: string[]): Node | undefined => {
    if (i === parts.length) return at.ops.length > 0 ? at : undefined;
    const part = parts[i] ?? "";
    const literal = at.literals.get(part);
    const found = literal && owner(literal, parts, i + 1, values);
    if (found) return found;
    if (!at.param) return undefined;
    const value = paramValue(part);
    if (value === undefined) return undefined;
    values.push(value);
    const viaParam = owner(at.param, parts, i + 1, values);
    if (!viaParam) values.pop();
    return viaParam;
  };

  return (method: string, pathname: string): RouteMatch => {
    const parts = pathname.split("/").filter(Boolean);
    const values: string[] = [];
    const at = owner(root, parts, 0, values);
    if (!at) return { kind: "not-found" };
    for (const { op, names } of at.ops) {
      if (op.method !== method) continue;
      const params: Record<string, string> = {};
      for (let i = 0; i < names.length; i++) params[names[i] ?? ""] = values[i] ?? "";
      return { kind: "found", op, params };
    }
    return { kind: "method-not-allowed", allowed: at.ops.map((o) => o.op.method) };
  };
}
