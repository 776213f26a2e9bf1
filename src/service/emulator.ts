import type { ServiceClock } from "./clock.js";
import type { ExtraRoute } from "./context.js";
import { invalid } from "./errors.js";
import type { Faults } from "./faults.js";
import { parseTime } from "./params.js";

const MAX_ADVANCE_SECONDS = 100 * 366 * 86_400;

/** What the admin API can act on. */
export interface EmulatorControls {
  clock: ServiceClock;
  faults: Faults;
  reset(): void;
}

function jsonObject(body: string): Record<string, unknown> {
  if (body.trim() === "") return {};
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    throw invalid("INVALID_VALUE", "The request body is not valid JSON.");
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw invalid("EXPECTED_OBJECT", "Send a JSON object.");
  return v as Record<string, unknown>;
}

/**
 * The emulator's admin endpoints under `/_emulator/` (outside the contract): health, reset to
 * the seed, the clock every time rule reads, and injected faults (LocalStack's chaos API shape).
 */
export function emulatorRoutes(c: EmulatorControls): Record<string, ExtraRoute> {
  return {
    "GET /_emulator/health": () => ({ body: { status: "ok", now: c.clock.now().toISOString() } }),
    "POST /_emulator/reset": () => {
      c.reset();
      c.faults.clear();
      return { body: { status: "reset", now: c.clock.now().toISOString() } };
    },
    "POST /_emulator/clock": (_req, _url, raw) => {
      const o = jsonObject(raw);
      if (typeof o.now === "string") {
        c.clock.set(parseTime(o.now, "now"));
      } else if (typeof o.advance_seconds === "number" && Number.isFinite(o.advance_seconds)) {
        // A century either way is more than any test needs, and keeps the clock a real date.
        if (Math.abs(o.advance_seconds) > MAX_ADVANCE_SECONDS) {
          throw invalid("VALUE_TOO_HIGH", `advance_seconds must be within ±${MAX_ADVANCE_SECONDS}.`, "advance_seconds");
        }
        c.clock.advance(o.advance_seconds);
      } else {
        throw invalid("MISSING_REQUIRED_PARAMETER", 'Send {"now": RFC 3339} or {"advance_seconds": N}.');
      }
      return { body: { now: c.clock.now().toISOString() } };
    },
    "GET /_emulator/clock": () => ({ body: { now: c.clock.now().toISOString() } }),
    "GET /_emulator/faults": () => ({ body: { faults: c.faults.list().map(describe) } }),
    "POST /_emulator/faults": (_req, _url, raw) => {
      const rule = c.faults.add(jsonObject(raw));
      return { body: { fault: describe(rule) } };
    },
    "DELETE /_emulator/faults": () => {
      c.faults.clear();
      return { body: { faults: [] } };
    },
  };
}

function describe(r: ReturnType<Faults["list"]>[number]) {
  return {
    operation: r.operation,
    status: r.status,
    code: r.code,
    category: r.category,
    probability: r.probability,
    remaining: Number.isFinite(r.remaining) ? r.remaining : null,
    latency_ms: r.latencyMs,
  };
}
