import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { networkInterfaces } from "node:os";
import { ALL_SCOPES } from "../../src/service/tokens.js";
import { type OperationSpec, operations } from "../../src/spec/generated/operations.js";
import { isEnvelope, send } from "./http.js";
import { check, exactly, type Figure, info, type Section } from "./section.js";
import { startServe } from "./serve-process.js";

/** Grants `scopes` to the local OAuth application and returns the access token it obtains. */
export async function mintToken(
  url: string,
  clientId: string,
  secret: string,
  scopes: readonly string[],
): Promise<string> {
  const q = new URLSearchParams({
    client_id: clientId,
    scope: scopes.join(" "),
    redirect_uri: "http://127.0.0.1:9/callback",
    state: "s",
  });
  const r = await send(url, { method: "GET", path: `/oauth2/authorize?${q}` });
  const code = new URL(String(r.headers.location)).searchParams.get("code");
  if (!code) throw new Error(`authorize gave no code: ${r.status} ${r.text}`);
  const t = await send(url, {
    method: "POST",
    path: "/oauth2/token",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_id: clientId, client_secret: secret, grant_type: "authorization_code", code }),
  });
  const token = (t.json as { access_token?: string } | undefined)?.access_token;
  if (!token) throw new Error(`obtainToken gave no token: ${t.status} ${t.text}`);
  return token;
}

/** Whether something accepts a TCP connection at host:port. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host, port, timeout: 2000 });
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("timeout", () => {
      s.destroy();
      resolve(false);
    });
    s.once("error", () => resolve(false));
  });
}

/** A request for the operation with made-up ids: refused before any rule runs, so ids do not matter. */
function requestFor(op: OperationSpec, authorization: string | undefined) {
  const path = op.path.replace(/\{(\w+)\}/g, "X1");
  const query = Object.entries(op.query)
    .filter(([, s]) => s.required)
    .map(([name]) => `${name}=X1`)
    .join("&");
  return {
    method: op.method,
    path: query ? `${path}?${query}` : path,
    headers: {
      ...(authorization ? { authorization } : {}),
      ...(op.body ? { "content-type": "application/json" } : {}),
    },
    ...(op.body ? { body: "{}" } : {}),
  };
}

/**
 * Authentication on all 83 routes: without a token (or the application's secret, for the token
 * operations that take it) every route is refused; a token lacking a scope the route needs is
 * refused with INSUFFICIENT_SCOPES; and `backroom serve` listens on loopback unless told otherwise.
 */
export const authSection: Section = {
  name: "auth",
  title: "Authentication and scopes on every route; loopback by default",
  async run(ctx) {
    const secret = `sq0csp-auth${randomBytes(12).toString("hex")}`;
    const serve = await startServe(ctx.cli, ["--port", "0", "--client-secret", secret, "--seed", "empty"]);
    try {
      const clientId = "sq0idp-backroom-local";
      const ops = Object.values(operations) as OperationSpec[];
      const failures: string[] = [];

      // No credentials at all.
      let guarded = 0;
      let refusedBare = 0;
      for (const op of ops) {
        if (op.auth === "none") continue; // ObtainToken authenticates with the secret in its body
        guarded++;
        const r = await send(serve.url, requestFor(op, undefined));
        const code = isEnvelope(r.json) ? r.json.errors[0]?.code : undefined;
        if (r.status === 401 && code === "UNAUTHORIZED") refusedBare++;
        else failures.push(`${op.name} without credentials: ${r.status} ${r.text.slice(0, 120)}`);
      }
      // ObtainToken's own credential: a wrong client_secret is refused too.
      const wrongSecret = await send(serve.url, {
        method: "POST",
        path: "/oauth2/token",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          client_id: clientId,
          client_secret: "wrong-secret",
          grant_type: "authorization_code",
          code: "x",
        }),
      });
      const obtainRefused = wrongSecret.status === 401;
      if (!obtainRefused) failures.push(`ObtainToken with a wrong secret: ${wrongSecret.status}`);

      // A token with every scope but the ones the route needs.
      const scoped = ops.filter((op) => op.auth === "bearer" && op.scopes.length > 0);
      const tokens = new Map<string, string>();
      let refusedScope = 0;
      for (const op of scoped) {
        const without = ALL_SCOPES.filter((s) => !op.scopes.includes(s));
        const key = without.join(" ");
        let token = tokens.get(key);
        if (!token) {
          token = await mintToken(serve.url, clientId, secret, without);
          tokens.set(key, token);
        }
        const r = await send(serve.url, requestFor(op, `Bearer ${token}`));
        const code = isEnvelope(r.json) ? r.json.errors[0]?.code : undefined;
        if (r.status === 403 && code === "INSUFFICIENT_SCOPES") refusedScope++;
        else
          failures.push(`${op.name} with a token lacking ${op.scopes.join(", ")}: ${r.status} ${r.text.slice(0, 120)}`);
      }
      for (const f of failures.slice(0, 20)) ctx.log(`auth: ${f}`);

      // Loopback by default: the address printed, and no answer on the machine's other addresses.
      const port = Number(new URL(serve.url).port);
      const host = new URL(serve.url).hostname;
      const outside = Object.values(networkInterfaces())
        .flat()
        .filter((a) => a && !a.internal && a.family === "IPv4")
        .map((a) => a?.address as string);
      const reachable: string[] = [];
      for (const address of outside) if (await accepts(address, port)) reachable.push(address);

      const bearerOnly = ops.filter((op) => op.auth === "bearer").length;
      const figures: Figure[] = [
        exactly(`routes refusing a request without credentials (of ${guarded})`, refusedBare, guarded),
        check("ObtainToken refuses a wrong client_secret", obtainRefused),
        exactly(`routes refusing a token without their scope (of ${scoped.length})`, refusedScope, scoped.length),
        info(
          "routes checked",
          `${ops.length}: ${bearerOnly} bearer (${scoped.length} with scopes), ${ops.length - bearerOnly} token operations`,
        ),
        check("serve listens on loopback by default", host === "127.0.0.1", host),
        exactly(`other addresses of this machine that answer (of ${outside.length})`, reachable.length),
      ];
      return figures;
    } finally {
      await serve.kill("SIGTERM");
    }
  },
};
