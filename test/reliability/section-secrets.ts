import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { type RawRequest, type RawResponse, send } from "./http.js";
import { atLeast, exactly, type Figure, info, type Section } from "./section.js";
import { startServe } from "./serve-process.js";

/** Every file below a folder. */
function filesIn(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesIn(p) : [p];
  });
}

/** Where each secret shows up in a text, by the name of the place. */
function findSecrets(places: Record<string, Buffer | string>, secrets: Record<string, string>): string[] {
  const hits: string[] = [];
  for (const [place, content] of Object.entries(places)) {
    const bytes = typeof content === "string" ? Buffer.from(content) : content;
    for (const [name, secret] of Object.entries(secrets)) if (bytes.includes(secret)) hits.push(`${name} in ${place}`);
  }
  return hits;
}

/**
 * Secrets of the service: a whole session's real credentials (the personal token, the
 * application secret, an authorization code, OAuth access and refresh tokens, a renewed token)
 * are used, misused and revoked, then the service is killed; no file it wrote, no error it
 * answered, nothing on its error output, no webhook payload holds any of them. (Its stdout
 * banner prints the personal token and secret on purpose, as the sandbox dashboard shows them.)
 */
export const secretsSection: Section = {
  name: "secrets",
  title: "No token in what the service writes or answers",
  async run(ctx) {
    const dir = join(ctx.tmp, "secrets");
    mkdirSync(dir, { recursive: true });
    const personal = `EAAAsecret${randomBytes(24).toString("base64url")}`;
    const clientSecret = `sq0csp-${randomBytes(24).toString("base64url")}`;
    const clientId = "sq0idp-backroom-local";
    const serve = await startServe(ctx.cli, [
      "--port",
      "0",
      "--db",
      join(dir, "store.db"),
      "--access-token",
      personal,
      "--client-secret",
      clientSecret,
    ]);
    const answers: RawResponse[] = [];
    const call = async (r: RawRequest) => {
      const res = await send(serve.url, r);
      answers.push(res);
      return res;
    };
    const jsonPost = (path: string, body: unknown, authorization?: string): RawRequest => ({
      method: "POST",
      path,
      headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
      body: JSON.stringify(body),
    });
    try {
      // A session: authorize, obtain, refresh, renew; then use, misuse and revoke.
      const q = new URLSearchParams({
        client_id: clientId,
        scope: "MERCHANT_PROFILE_READ CUSTOMERS_READ",
        redirect_uri: "http://127.0.0.1:9/cb",
      });
      const auth = await call({ method: "GET", path: `/oauth2/authorize?${q}` });
      const code = new URL(String(auth.headers.location)).searchParams.get("code") ?? "";
      const token = async (body: Record<string, string>) =>
        (await call(jsonPost("/oauth2/token", { client_id: clientId, client_secret: clientSecret, ...body })))
          .json as Record<string, string>;
      const obtained = await token({ grant_type: "authorization_code", code });
      const access = obtained.access_token ?? "";
      const refresh = obtained.refresh_token ?? "";
      const refreshed = await token({ grant_type: "refresh_token", refresh_token: refresh });
      const access2 = refreshed.access_token ?? "";
      const renewed = (
        await call(
          jsonPost(
            `/oauth2/clients/${clientId}/access-token/renew`,
            { access_token: access2 },
            `Client ${clientSecret}`,
          ),
        )
      ).json as Record<string, string>;
      const access3 = renewed.access_token ?? "";
      const secrets: Record<string, string> = {
        "personal token": personal,
        "application secret": clientSecret,
        "authorization code": code,
        "access token": access,
        "refresh token": refresh,
        "refreshed access token": access2,
        "renewed access token": access3,
      };

      for (const token of [personal, access, access3])
        await call({ method: "GET", path: "/v2/locations", headers: { authorization: `Bearer ${token}` } });
      await call(
        jsonPost(
          "/v2/webhooks/subscriptions",
          {
            subscription: {
              name: "leak check",
              event_types: ["oauth.authorization.revoked", "customer.created"],
              notification_url: "http://127.0.0.1:9/hook",
            },
          },
          `Bearer ${personal}`,
        ),
      );
      // Misuse: a revoked token, tokens with a character more, the code again, the secret wrong.
      await call({ method: "GET", path: "/v2/locations", headers: { authorization: `Bearer ${access2}` } });
      await call({ method: "GET", path: "/v2/locations", headers: { authorization: `Bearer ${personal}x` } });
      await call({ method: "GET", path: "/v2/customers", headers: { authorization: `Bearer ${access}` } });
      await call(
        jsonPost("/oauth2/token", {
          client_id: clientId,
          client_secret: clientSecret,
          grant_type: "authorization_code",
          code,
        }),
      );
      await call(
        jsonPost("/oauth2/token", {
          client_id: clientId,
          client_secret: `${clientSecret}x`,
          grant_type: "refresh_token",
          refresh_token: refresh,
        }),
      );
      await call(
        jsonPost(`/oauth2/clients/${clientId}/access-token/renew`, { access_token: access2 }, `Client ${clientSecret}`),
      );
      await call(jsonPost("/v2/customers", { given_name: "x", email_address: "not an email" }, `Bearer ${personal}`));
      await call(jsonPost("/oauth2/revoke", { client_id: clientId, access_token: access3 }, `Client ${clientSecret}`));
      const deliveries = await call({ method: "GET", path: "/_emulator/webhook-deliveries" });

      await serve.kill("SIGKILL");
      const places: Record<string, Buffer | string> = {
        "the service's error output": serve.stderr(),
        "the service's output after its banner": serve
          .stdout()
          .split("\n")
          .filter((l) => !/^(access token \(demo seller|application secret:)/.test(l))
          .join("\n"),
        "webhook deliveries": deliveries.text,
      };
      for (const [i, a] of answers.entries()) if (a.status >= 400) places[`error answer ${i} (${a.status})`] = a.text;
      let bytes = 0;
      const files = filesIn(dir);
      for (const f of files) {
        const content = readFileSync(f);
        bytes += content.length;
        places[f] = content;
      }
      // The store keeps secrets only as SHA-256 hashes: seeing those is as it should be.
      const hashesStored = Object.values(secrets).filter((s) =>
        files.some((f) => readFileSync(f).includes(createHash("sha256").update(s).digest("hex"))),
      ).length;
      const hits = findSecrets(places, secrets);
      for (const h of hits) ctx.log(`secrets: found ${h}`);
      const errorAnswers = answers.filter((a) => a.status >= 400).length;
      const figures: Figure[] = [
        atLeast("secrets of the session tracked", Object.values(secrets).filter((s) => s !== "").length, 7),
        info(
          "places scanned",
          `${files.length} files (${(bytes / 1024).toFixed(0)} KB), ${errorAnswers} error answers, error output, output, webhook payloads`,
        ),
        info("secrets stored as hashes", String(hashesStored)),
        exactly("secrets found in plain text", hits.length),
      ];
      return figures;
    } finally {
      await serve.kill("SIGKILL");
    }
  },
};
