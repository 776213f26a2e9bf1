import { Agent, type IncomingHttpHeaders, request } from "node:http";

/** An answer read off the wire, whatever it is. */
export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/** One request exactly as written: the path is sent as-is (no `..` resolution, no re-encoding). */
export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs?: number;
}

/** Raised when no answer came within the timeout: a hang. */
export class NoAnswer extends Error {}

const keepAlive = new Agent({ keepAlive: true, maxSockets: 16 });

/**
 * Sends one HTTP/1.1 request with node:http, which (unlike fetch) does not normalise the path.
 * Resolves with whatever the server answered; rejects with {@link NoAnswer} after `timeoutMs`, or
 * with the socket's error when the connection failed.
 */
export function send(base: string, r: RawRequest, agent: Agent | false = keepAlive): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: r.method,
        path: r.path,
        headers: {
          ...(r.body === undefined ? {} : { "content-length": String(Buffer.byteLength(r.body)) }),
          ...r.headers,
        },
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString("utf8");
          let json: unknown;
          try {
            json = text === "" ? undefined : JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new NoAnswer(`no answer to ${r.method} ${r.path.slice(0, 120)} within ${r.timeoutMs ?? 10_000} ms`));
    }, r.timeoutMs ?? 10_000);
    req.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    if (r.body !== undefined) req.write(r.body);
    req.end();
  });
}

/** Whether a body is the service's error envelope: `{errors: [{category, code, ...}]}`, non-empty. */
export function isEnvelope(
  json: unknown,
): json is { errors: { category: string; code: string; detail?: string; field?: string }[] } {
  if (typeof json !== "object" || json === null) return false;
  const errors = (json as { errors?: unknown }).errors;
  return (
    Array.isArray(errors) &&
    errors.length > 0 &&
    errors.every(
      (e) =>
        typeof e === "object" &&
        e !== null &&
        typeof (e as { category?: unknown }).category === "string" &&
        typeof (e as { code?: unknown }).code === "string",
    )
  );
}
