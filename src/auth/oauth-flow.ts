import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A PKCE verifier and its S256 challenge (RFC 7636). */
export interface PkcePair {
  verifier: string;
  challenge: string;
}

/** Mints a PKCE pair: 32 random bytes as a 43-character base64url verifier, challenge = its SHA-256. */
export function createPkcePair(random: (n: number) => Buffer = randomBytes): PkcePair {
  const verifier = random(32).toString("base64url");
  return { verifier, challenge: pkceChallenge(verifier) };
}

/** The S256 challenge of a verifier: base64url(SHA-256(verifier)). */
export function pkceChallenge(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

/** The address of the authorize page the user opens in a browser. */
export function buildAuthorizeUrl(opts: {
  baseUrl: string;
  clientId: string;
  scopes: readonly string[];
  state: string;
  redirectUri: string;
  codeChallenge: string;
}): string {
  const url = new URL("/oauth2/authorize", opts.baseUrl);
  url.searchParams.set("client_id", opts.clientId);
  url.searchParams.set("scope", opts.scopes.join(" "));
  url.searchParams.set("state", opts.state);
  url.searchParams.set("redirect_uri", opts.redirectUri);
  url.searchParams.set("code_challenge", opts.codeChallenge);
  url.searchParams.set("code_challenge_method", "S256");
  return url.toString();
}

/** Why the browser step of a sign-in failed; the message is safe to show. */
export class AuthorizeError extends Error {
  override name = "AuthorizeError";
  readonly code: "state_mismatch" | "denied" | "timeout" | "cancelled" | "no_code";

  constructor(code: AuthorizeError["code"], message: string) {
    super(message);
    this.code = code;
  }
}

/** A listener waiting for one redirect on `http://127.0.0.1:<port>/callback`. */
export interface LoopbackListener {
  redirectUri: string;
  /** Resolves with the authorization code, once; rejects with an {@link AuthorizeError}. */
  code: Promise<string>;
  close(): Promise<void>;
}

/** The page the browser shows after the redirect. */
const PAGE = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif"><h1>${title}</h1><p>${text}</p></body>`;

/** What one redirect to `/callback` comes to: the page the browser shows, and the code or why not. */
export interface RedirectAnswer {
  status: number;
  title: string;
  text: string;
  outcome: { code: string } | { error: AuthorizeError };
}

/**
 * Reads the redirect's query: it must carry this sign-in's `state`, then either the service's
 * refusal (`error`) or the authorization code.
 */
export function answerRedirect(query: URLSearchParams, state: string): RedirectAnswer {
  const error = query.get("error");
  const code = query.get("code");
  if (query.get("state") !== state) {
    return {
      status: 400,
      title: "Sign-in refused",
      text: "This answer does not belong to the sign-in backroom started. Run backroom login again.",
      outcome: {
        error: new AuthorizeError(
          "state_mismatch",
          "the browser's answer did not carry this sign-in's state; nothing was stored — run backroom login again",
        ),
      },
    };
  }
  if (error) {
    const why = query.get("error_description") ?? error;
    return {
      status: 400,
      title: "Sign-in not completed",
      text: "backroom was not given access. You can close this window.",
      outcome: {
        error: new AuthorizeError(
          "denied",
          `access was not granted (${why.slice(0, 200)}); run backroom login to try again`,
        ),
      },
    };
  }
  if (!code) {
    return {
      status: 400,
      title: "Sign-in not completed",
      text: "The answer carried no authorization code.",
      outcome: {
        error: new AuthorizeError(
          "no_code",
          "the browser's answer carried no authorization code; run backroom login again",
        ),
      },
    };
  }
  return {
    status: 200,
    title: "Signed in",
    text: "backroom is signed in. You can close this window and return to the terminal.",
    outcome: { code },
  };
}

/** The error of a sign-in the browser did not answer in time. */
function timedOut(timeoutMs: number): AuthorizeError {
  const wait = timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`;
  return new AuthorizeError("timeout", `no answer from the browser within ${wait}; run backroom login again`);
}

/**
 * Starts the one-shot listener of the code flow. Only 127.0.0.1 is bound (never all interfaces),
 * the redirect must carry the `state` minted for this sign-in, and the listener closes after the
 * first redirect that reaches `/callback`, whatever it carried.
 */
export async function startLoopbackListener(opts: {
  state: string;
  port?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}): Promise<LoopbackListener> {
  let settle!: { resolve: (code: string) => void; reject: (err: AuthorizeError) => void };
  const code = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Nobody may be awaiting yet when it fails; the caller awaits `code` later.
  code.catch(() => {});
  let done = false;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/callback" || done) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    done = true;
    const answer = answerRedirect(url.searchParams, opts.state);
    res.writeHead(answer.status, { "content-type": "text/html; charset=utf-8", connection: "close" });
    res.end(PAGE(answer.title, answer.text), () => {
      if ("code" in answer.outcome) settle.resolve(answer.outcome.code);
      else settle.reject(answer.outcome.error);
      void stop();
    });
  });

  let timer: NodeJS.Timeout | undefined;
  const onAbort = () => {
    done = true;
    settle.reject(new AuthorizeError("cancelled", "sign-in cancelled"));
    void stop();
  };
  const stop = async () => {
    if (timer) clearTimeout(timer);
    opts.signal?.removeEventListener("abort", onAbort);
    if (!server.listening) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  };

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const timeoutMs = opts.timeoutMs;
  if (timeoutMs !== undefined) {
    timer = setTimeout(() => {
      done = true;
      settle.reject(timedOut(timeoutMs));
      void stop();
    }, timeoutMs);
  }
  if (opts.signal?.aborted) onAbort();
  else opts.signal?.addEventListener("abort", onAbort, { once: true });
  return { redirectUri: `http://127.0.0.1:${port}/callback`, code, close: stop };
}

/** A random `state` value for one sign-in. */
export function newState(random: (n: number) => Buffer = randomBytes): string {
  return random(16).toString("base64url");
}
