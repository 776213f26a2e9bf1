import type { ServiceError } from "../errors.js";
import type { Json, ShapeContext } from "./shapes.js";
import { type Rewrite, VERSION_CHANGES } from "./table.js";

/** What the table asks of one operation for callers on one Square-Version. */
interface OperationPlan {
  /** Refusals, then rewrites of the request as sent (oldest change first). */
  refuse: ((body: Json) => ServiceError | undefined)[];
  request: Rewrite[];
  /** Rewrites of the answer (newest change first: each undoes one step). */
  answer: Rewrite[];
}

/** The version table compiled for one Square-Version. */
export interface VersionShape {
  readonly version: string;
  /** The request body as sent → what the rules read; throws the refusal of a change. */
  request(op: string, body: unknown, s: ShapeContext): void;
  /** Whether answers of `op` are rewritten (otherwise they go out as the rules wrote them). */
  rewritesAnswer(op: string): boolean;
  /** The answer as the rules wrote it → the shape this version reads. */
  answer(op: string, body: unknown, s: ShapeContext): void;
  /** A notification's `data.object` → the shape of a subscription on this version. */
  event(type: string, object: Json, s: ShapeContext): void;
}

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const byVersion = [...VERSION_CHANGES].sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0));

function compile(version: string): VersionShape {
  const ops = new Map<string, OperationPlan>();
  const events = new Map<string, Rewrite[]>();
  const plan = (op: string) => {
    const found = ops.get(op);
    if (found) return found;
    const made: OperationPlan = { refuse: [], request: [], answer: [] };
    ops.set(op, made);
    return made;
  };
  for (const c of byVersion) {
    if (c.version <= version) {
      for (const [op, f] of Object.entries(c.newerRefuses ?? {})) if (f) plan(op).refuse.push(f);
      continue;
    }
    for (const [op, f] of Object.entries(c.olderRequest ?? {})) if (f) plan(op).request.push(f);
    for (const [op, f] of Object.entries(c.olderAnswer ?? {})) if (f) plan(op).answer.unshift(f);
    for (const [type, f] of Object.entries(c.olderEvent ?? {})) events.set(type, [f, ...(events.get(type) ?? [])]);
  }
  return {
    version,
    request(op, body, s) {
      const p = ops.get(op);
      if (!p || !isObject(body)) return;
      for (const refuse of p.refuse) {
        const err = refuse(body);
        if (err) throw err;
      }
      for (const f of p.request) f(body, s);
    },
    rewritesAnswer: (op) => (ops.get(op)?.answer.length ?? 0) > 0,
    answer(op, body, s) {
      if (!isObject(body)) return;
      for (const f of ops.get(op)?.answer ?? []) f(body, s);
    },
    event(type, object, s) {
      for (const f of events.get(type) ?? []) f(object, s);
    },
  };
}

const compiled = new Map<string, VersionShape>();

/** The table applied for callers on `version` (a known version; compiled once). */
export function versionShape(version: string): VersionShape {
  let shape = compiled.get(version);
  if (!shape) {
    shape = compile(version);
    compiled.set(version, shape);
  }
  return shape;
}
