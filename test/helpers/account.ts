// Sign-ins against the local service for the account tests: a session over a keychain in memory
// on the service's clock, the browser played by following the authorize page's redirect, and the
// account screen's context around them.
import { request } from "undici";
import { connect } from "../../src/auth/connect.js";
import { signInWithBrowser } from "../../src/auth/sign-in.js";
import { createTokenStore } from "../../src/auth/token-store.js";
import type { ScopeNeed } from "../../src/domain/account.js";
import type { AccountContext } from "../../src/state/index.js";
import { memoryKeytar } from "../auth-helpers.js";
import type { TestService } from "./service.js";

/** Plays the browser: the authorize page, then its redirect to the loopback listener. */
export async function browse(url: string): Promise<boolean> {
  const consent = await request(url);
  await consent.body.dump();
  await (await request(String(consent.headers.location))).body.dump();
  return true;
}

/** A session (and the client whose calls carry it) over a keychain in memory, on the service's clock. */
export function localConnection(svc: TestService) {
  return connect({
    baseUrl: svc.url,
    store: createTokenStore({ keytar: memoryKeytar() }),
    environment: "local",
    clientId: svc.service.clientId,
    clock: { now: () => svc.service.clock.now().getTime() },
    maxRetries: 0,
  });
}

/** Signs the connection's session in through the real authorize page with these scopes. */
export function signInThroughBrowser(
  svc: TestService,
  conn: ReturnType<typeof localConnection>,
  scopes: readonly string[],
) {
  return signInWithBrowser({
    client: conn.client,
    session: conn.session,
    environment: "local",
    baseUrl: svc.url,
    applicationId: svc.service.clientId,
    scopes,
    timeoutMs: 10_000,
    onAddress: browse,
  });
}

/** The account screen's context for a connection to a local service (`backroom --env local --base-url`). */
export function localAccount(
  svc: TestService,
  conn: ReturnType<typeof localConnection>,
  opts: { secret?: boolean; scopeNeeds: readonly ScopeNeed[] },
): AccountContext {
  return {
    where: {
      label: "LOCAL",
      environment: "local",
      baseUrl: svc.url,
      from: "--env",
      configPath: undefined,
      dbPath: undefined,
    },
    applicationId: svc.service.clientId,
    keychain: { kind: "keychain", describe: 'OS keychain (service "backroom")' },
    scopeNeeds: opts.scopeNeeds,
    session: conn.session,
    oauth: conn.client.oauth,
    clientSecret: opts.secret === false ? undefined : svc.service.clientSecret,
    openUrl: browse,
    signInTimeoutMs: 10_000,
  };
}
