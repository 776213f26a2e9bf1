import { ServiceError } from "./errors.js";

/** The error code a rule refuses with, or undefined when it does not refuse (for rule tests). */
export function refusalCode(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    if (e instanceof ServiceError) return e.errors[0]?.code;
    throw e;
  }
  return undefined;
}
