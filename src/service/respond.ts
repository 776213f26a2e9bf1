import type { ServerResponse } from "node:http";
import type { ErrorBody, ServiceError } from "./errors.js";

/** The service's error envelope. */
export const envelope = (errors: ErrorBody[]) => ({ errors });

/** The first value of a request header. */
export const headerValue = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** Answers a refusal with the envelope, its status and its headers. */
export function sendError(res: ServerResponse, err: ServiceError): void {
  send(res, err.status, envelope(err.errors), { ...err.headers });
}

/** Answers a JSON body (`text` when already serialised), or an empty redirect. */
export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  text = JSON.stringify(body ?? {}),
): void {
  if (status >= 300 && status < 400 && body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  sendText(res, status, text, headers);
}

/** Answers JSON already serialised. */
export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string>): void {
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}
