import type { IncomingMessage, Server } from "node:http";
import type { Socket } from "node:net";
import { ServiceError } from "./errors.js";

/** The largest request body accepted; the interface's biggest batch is far below it. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** The client went away before its request was read: nobody is left to answer, nothing went wrong here. */
export class ClientGone extends Error {
  constructor() {
    super("the client closed the connection before its request was read");
  }
}

const refuse = (status: number, code: string, detail: string) =>
  new ServiceError(status, [{ category: "INVALID_REQUEST_ERROR", code, detail }]);

/** Whether a raw path segment is `.` or `..`, spelled plainly or percent-encoded (`%2E`, `.%2e`). */
const isDotSegment = (segment: string): boolean => /^(?:\.|%2e){1,2}$/i.test(segment);

/**
 * The path and query of a request exactly as sent. The path is not normalised: `.` and `..`
 * segments (plain or `%2E`) and empty segments (`//`) are refused with 404, so that no spelling of
 * a path can be resolved into another operation's path. An absolute-form target
 * (`http://host/path`) is read for its path.
 */
export function requestTarget(rawUrl: string): { path: string; search: URLSearchParams } {
  const q = rawUrl.indexOf("?");
  let path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const query = q < 0 ? "" : rawUrl.slice(q + 1);
  if (!path.startsWith("/")) {
    const absolute = /^https?:\/\/[^/]*/i.exec(path);
    if (absolute) path = path.slice(absolute[0].length) || "/";
    if (!path.startsWith("/")) throw refuse(404, "NOT_FOUND", "The request path must start with /.");
  }
  // Only a path with a `.`, a `%2…`, a `//` or a trailing `/` can hold such a segment.
  if (path !== "/" && (path.endsWith("/") || path.includes("//") || path.includes(".") || path.includes("%2"))) {
    const segments = path.slice(1).split("/");
    if (segments.some((s) => s === "" || isDotSegment(s))) {
      throw refuse(404, "NOT_FOUND", "No such path: empty, '.' and '..' segments are not resolved here.");
    }
  }
  // A fragment is not sent by HTTP clients; one that arrives belongs to no query parameter.
  const hash = query.indexOf("#");
  return { path, search: new URLSearchParams(hash < 0 ? query : query.slice(0, hash)) };
}

/**
 * The request body's bytes, up to {@link MAX_BODY_BYTES} (413 beyond). A client that aborts
 * mid-body rejects with {@link ClientGone}.
 */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      f();
    };
    req.on("data", (c: Buffer) => {
      if (settled) return;
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        settle(() =>
          reject(refuse(413, "REQUEST_ENTITY_TOO_LARGE", `The request body is larger than ${MAX_BODY_BYTES} bytes.`)),
        );
        // Drain the rest so the refusal can still be written on this connection.
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => settle(() => resolve(Buffer.concat(chunks))));
    req.on("error", () => settle(() => reject(new ClientGone())));
    req.on("close", () => settle(() => reject(new ClientGone())));
  });
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * The text of a JSON body: bytes that are not UTF-8 are refused rather than read with
 * replacement characters. With `requireJson` (the contract's operations), a body sent as
 * anything but JSON is 415; an absent Content-Type is read as JSON.
 */
export function bodyText(bytes: Buffer, contentType: string | undefined, requireJson = true): string {
  if (bytes.length === 0) return "";
  if (requireJson && contentType !== undefined && contentType.trim() !== "" && !JSON_TYPE.test(contentType.trim())) {
    throw refuse(
      415,
      "UNSUPPORTED_MEDIA_TYPE",
      `Send the body as application/json, not ${JSON.stringify(contentType)}.`,
    );
  }
  try {
    return UTF8.decode(bytes);
  } catch {
    throw refuse(400, "INVALID_VALUE", "The request body is not valid UTF-8.");
  }
}

/** What Node's HTTP parser refused, as the service's envelope. */
function parserRefusal(code: string | undefined): { status: number; reason: string; body: ServiceError } {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return {
        status: 431,
        reason: "Request Header Fields Too Large",
        body: refuse(431, "BAD_REQUEST", "The request line and headers are larger than 16 KB (a URL that long?)."),
      };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return {
        status: 408,
        reason: "Request Timeout",
        body: refuse(408, "REQUEST_TIMEOUT", "The request was not received in time."),
      };
    default:
      return {
        status: 400,
        reason: "Bad Request",
        body: refuse(400, "BAD_REQUEST", "The request is not valid HTTP/1.1."),
      };
  }
}

/**
 * Requests that Node refuses before the service sees them (a URL over 16 KB, a malformed request
 * line, a request that takes too long) get the service's error envelope instead of a bare status.
 */
export function answerClientErrors(server: Server): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, reason, body } = parserRefusal(err.code);
    const text = JSON.stringify({ errors: body.errors });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
    );
  });
}
