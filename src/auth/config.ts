import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { errorCode, fileErrorWords } from "../domain/file-errors.js";
import { type OvertimeRules, parseOvertimeRules } from "../domain/overtime.js";
import { type PayPeriodRule, parsePayPeriod } from "../domain/time.js";

/** Where backroom talks to: the real service (production, sandbox) or the local service. */
export type Environment = "production" | "sandbox" | "local";

/** The environments a user may name, in the order help text lists them. */
export const ENVIRONMENT_NAMES: readonly Environment[] = ["local", "sandbox", "production"];

/** The settings of `config.json`. Never a secret: tokens live in the OS keychain. */
export interface BackroomConfig {
  environment?: Environment;
  /** Overrides the environment's base URL (required for `local` outside `npm start`). */
  baseUrl?: string;
  /** The application id (OAuth client id) used to sign in and refresh. */
  applicationId?: string;
  /** The location screens open on. */
  defaultLocationId?: string;
  /** The Square-Version header sent on every call, YYYY-MM-DD. */
  squareVersion?: string;
  /** When hours become overtime: `{ weeklyHours, dailyHours, multiplier, doubleTimeDailyHours }` (defaults 40, none, 1.5, none). */
  overtime?: OvertimeRules;
  /** How often the store pays, for the review's pay-period range (default: the workweek). */
  payPeriod?: PayPeriodRule;
}

/** The environment variables this module reads. */
export type EnvVars = Readonly<Record<string, string | undefined>>;

/** A config file that cannot be used, naming the file and, when known, the field at fault. */
export class ConfigError extends Error {
  override name = "ConfigError";
  readonly file: string;
  readonly field: string | undefined;

  constructor(file: string, field: string | undefined, problem: string) {
    super(field ? `${file}: field "${field}" ${problem}` : `${file}: ${problem}`);
    this.file = file;
    this.field = field;
  }
}

const TEXT_FIELDS = ["environment", "baseUrl", "applicationId", "defaultLocationId", "squareVersion"] as const;
const KNOWN_FIELDS = [...TEXT_FIELDS, "overtime", "payPeriod"] as const;
// Names that say "this is a secret". The file is plain text on disk, so such a field is refused
// outright rather than ignored: ignoring it would leave the secret sitting there.
const SECRET_FIELD = /secret|token|password|credential/i;

/** `$XDG_CONFIG_HOME/backroom/config.json`, or `~/.config/backroom/config.json` without XDG. */
export function configPath(env: EnvVars): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config");
  return join(base, "backroom", "config.json");
}

/** Checks and reads the text of a config file; `file` is only used in messages. */
export function parseConfig(text: string, file: string): { config: BackroomConfig; warnings: string[] } {
  let raw: unknown;
  try {
    raw = text.trim() === "" ? {} : JSON.parse(text);
  } catch (err) {
    // The engine's message quotes a piece of the file; report only the place, since a user may
    // have pasted something private there by mistake.
    const at = errorPosition(text, err instanceof Error ? err.message : "");
    const where = at === undefined ? "" : ` (${lineAndColumn(text, at)})`;
    throw new ConfigError(file, undefined, `is not valid JSON${where}`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ConfigError(file, undefined, 'must hold one JSON object, e.g. {"environment": "sandbox"}');
  }
  const config: BackroomConfig = {};
  const warnings: string[] = [];
  for (const [field, value] of Object.entries(raw)) {
    if (SECRET_FIELD.test(field)) {
      throw new ConfigError(
        file,
        field,
        "looks like a secret, and secrets do not belong in the config file: remove it. backroom keeps tokens in the OS keychain; give the application secret with --client-secret or BACKROOM_CLIENT_SECRET",
      );
    }
    switch (field) {
      case "environment":
        if (typeof value !== "string" || !(ENVIRONMENT_NAMES as readonly string[]).includes(value)) {
          throw new ConfigError(file, field, `must be one of ${ENVIRONMENT_NAMES.join(", ")}`);
        }
        config.environment = value as Environment;
        break;
      case "baseUrl":
        if (typeof value !== "string" || !isHttpUrl(value)) {
          throw new ConfigError(file, field, "must be an http(s) URL such as http://127.0.0.1:4010");
        }
        config.baseUrl = value;
        break;
      case "applicationId":
      case "defaultLocationId":
        if (typeof value !== "string" || value.trim() === "") {
          throw new ConfigError(file, field, "must be a non-empty string");
        }
        config[field] = value.trim();
        break;
      case "squareVersion":
        if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) {
          throw new ConfigError(file, field, "must be a date in the form YYYY-MM-DD, e.g. 2024-01-18");
        }
        config.squareVersion = value;
        break;
      case "overtime": {
        const rules = parseOvertimeRules(value);
        if (!rules.ok) throw new ConfigError(file, rules.field, rules.problem);
        config.overtime = rules.value;
        break;
      }
      case "payPeriod": {
        const period = parsePayPeriod(value);
        if (!period.ok) throw new ConfigError(file, period.field, period.problem);
        config.payPeriod = period.value;
        break;
      }
      default:
        warnings.push(`${file}: unknown field "${field}" ignored (known: ${KNOWN_FIELDS.join(", ")})`);
    }
  }
  return { config, warnings };
}

/** Reads the config file; a missing file is an empty config, a malformed one a {@link ConfigError}. */
export async function loadConfig(
  env: EnvVars,
): Promise<{ path: string; exists: boolean; config: BackroomConfig; warnings: string[] }> {
  const path = configPath(env);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    const code = errorCode(err);
    if (code === "ENOENT") return { path, exists: false, config: {}, warnings: [] };
    const words = fileErrorWords(code, "read");
    throw new ConfigError(path, undefined, `cannot be read${words ? `: ${words}` : ""} (${code ?? "error"})`);
  }
  return { path, exists: true, ...parseConfig(text, path) };
}

/** Writes the config file whole (write to a temporary file, then rename), and returns its path. */
export async function saveConfig(env: EnvVars, config: BackroomConfig): Promise<string> {
  const path = configPath(env);
  const clean: Record<string, unknown> = {};
  for (const field of TEXT_FIELDS) {
    const value = config[field];
    if (value !== undefined) clean[field] = value;
  }
  if (config.overtime) {
    const { weeklyHours, dailyHours, multiplier, doubleTimeDailyHours } = config.overtime;
    clean.overtime = {
      weeklyHours,
      ...(dailyHours === undefined ? {} : { dailyHours }),
      multiplier,
      ...(doubleTimeDailyHours === undefined ? {} : { doubleTimeDailyHours }),
    };
  }
  if (config.payPeriod) clean.payPeriod = config.payPeriod;
  // Re-check what is about to be written, so no caller can put a secret into the file.
  parseConfig(JSON.stringify(clean), path);
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(clean, null, 2)}\n`, { mode: 0o644 });
  await rename(tmp, path);
  return path;
}

/** The base URLs of the named environments of the real service. */
export const ENVIRONMENT_URLS = {
  production: "https://connect.squareup.com",
  sandbox: "https://connect.squareupsandbox.com",
} as const;

/** Whether a text is an http(s) address. */
export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

// V8 says either "at position N" or "Unexpected token 'x', ..."<excerpt>"..." with ten characters
// of context before the token when the excerpt is cut.
function errorPosition(text: string, message: string): number | undefined {
  const at = /position (\d+)/.exec(message);
  if (at?.[1]) return Number(at[1]);
  const m = /^Unexpected token '(.)', (\.\.\.)?"([\s\S]*)"(?:\.\.\.)? is not valid JSON$/.exec(message);
  if (!m?.[1] || m[3] === undefined) return undefined;
  const start = text.indexOf(m[3]);
  if (start < 0) return undefined;
  return start + (m[2] ? 10 : Math.max(0, m[3].indexOf(m[1])));
}

function lineAndColumn(text: string, position: number): string {
  const before = text.slice(0, position).split("\n");
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}
