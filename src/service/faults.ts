import { operations } from "../spec/generated/operations.js";
import { type ErrorBody, invalid, ServiceError } from "./errors.js";

/** The fields a rule takes: anything else is a mistake (`latency` for `latency_ms`), refused. */
const RULE_FIELDS: ReadonlySet<string> = new Set([
  "operation",
  "status",
  "code",
  "category",
  "probability",
  "count",
  "latency_ms",
]);

/** The operations a rule may name (as the interface names them), besides `*`. */
const OPERATION_NAMES: ReadonlySet<string> = new Set(Object.values(operations).map((op) => op.name));

/**
 * An injected fault: for one operation (or `*`), a delay and/or a failure (a status and error
 * code), how often, how many. A rule without a status, or with a 2xx one, only slows calls down.
 */
export interface FaultRule {
  operation: string;
  /** The failure's HTTP status; null when the rule only delays. */
  status: number | null;
  code: string;
  category: string;
  probability: number;
  /** How many more times it may fire; Infinity when not limited. */
  remaining: number;
  latencyMs: number;
}

/** The chaos switchboard of `/_emulator/faults`. */
export class Faults {
  #rules: FaultRule[] = [];
  readonly #random: () => number;

  constructor(random: () => number = Math.random) {
    this.#random = random;
  }

  /** Adds a rule from the admin API's JSON, refusing malformed ones with the envelope. */
  add(input: unknown): FaultRule {
    if (typeof input !== "object" || input === null) throw invalid("EXPECTED_OBJECT", "Send a JSON object.");
    const o = input as Record<string, unknown>;
    // A field not known would otherwise be dropped, and the rule left to fail every call with 500.
    const unknown = Object.keys(o).find((k) => !RULE_FIELDS.has(k));
    if (unknown !== undefined) {
      throw invalid(
        "UNKNOWN_BODY_PARAMETER",
        `A fault rule has no field ${JSON.stringify(unknown)}; it takes ${[...RULE_FIELDS].join(", ")}.`,
        unknown,
      );
    }
    const operation = o.operation ?? "*";
    if (typeof operation !== "string") throw invalid("EXPECTED_STRING", "operation must be a string.", "operation");
    // A misspelt name would match no call, and the rule would never fire.
    if (operation !== "*" && !OPERATION_NAMES.has(operation)) {
      throw invalid(
        "INVALID_VALUE",
        `No operation is named ${JSON.stringify(operation)}; use * or a name such as CreateShift or SearchCustomers.`,
        "operation",
      );
    }
    // `{"latency_ms": 200}` alone slows calls down; a failure is asked for with a status or a code.
    const delayOnly = o.status === undefined && o.code === undefined && o.latency_ms !== undefined;
    const status = delayOnly ? null : (o.status ?? 500);
    if (status !== null && (typeof status !== "number" || status < 100 || status > 599)) {
      throw invalid("INVALID_VALUE", "status must be an HTTP status (100–599).", "status");
    }
    const probability = o.probability ?? 1;
    if (typeof probability !== "number" || probability < 0 || probability > 1) {
      throw invalid("INVALID_VALUE", "probability must be between 0 and 1.", "probability");
    }
    const count = o.count ?? null;
    if (count !== null && (typeof count !== "number" || !Number.isInteger(count) || count < 1)) {
      throw invalid("INVALID_VALUE", "count must be a positive integer.", "count");
    }
    const latency = o.latency_ms ?? 0;
    if (typeof latency !== "number" || latency < 0 || latency > 60_000) {
      throw invalid("INVALID_VALUE", "latency_ms must be between 0 and 60000.", "latency_ms");
    }
    const rule: FaultRule = {
      operation,
      status,
      code: typeof o.code === "string" ? o.code : status === 429 ? "RATE_LIMITED" : "INTERNAL_SERVER_ERROR",
      category: typeof o.category === "string" ? o.category : status === 429 ? "RATE_LIMIT_ERROR" : "API_ERROR",
      probability,
      remaining: count ?? Number.POSITIVE_INFINITY,
      latencyMs: latency,
    };
    this.#rules.push(rule);
    return rule;
  }

  clear(): void {
    this.#rules = [];
  }

  list(): readonly FaultRule[] {
    return this.#rules;
  }

  /** The rule that applies to this call now, consuming one of its count; undefined for none. */
  pick(operation: string): { latencyMs: number; error?: ServiceError } | undefined {
    let latencyMs = 0;
    for (const rule of this.#rules) {
      if (rule.remaining <= 0 || (rule.operation !== "*" && rule.operation !== operation)) continue;
      latencyMs = Math.max(latencyMs, rule.latencyMs);
      if (rule.status === null || (rule.status >= 200 && rule.status < 300)) {
        // A latency-only rule: it fires on every matching call, so its count is spent here too.
        rule.remaining--;
        continue;
      }
      if (this.#random() >= rule.probability) continue;
      rule.remaining--;
      const body: ErrorBody = {
        category: rule.category,
        code: rule.code,
        detail: "Injected by the emulator's faults.",
      };
      return { latencyMs, error: new ServiceError(rule.status, [body]) };
    }
    return latencyMs > 0 ? { latencyMs } : undefined;
  }
}
