import { createClock, type ServiceClock } from "../../src/service/clock.js";
import { createService, type LocalService, type ServiceOptions } from "../../src/service/index.js";
import { storeToken } from "../../src/service/tokens.js";
import { createClient, type SquareClient } from "../../src/square/client.js";
import { SquareApiError } from "../../src/square/errors.js";

/** A clock stopped at `at` (epoch ms): it moves only when a test sets or advances it. */
export const pinnedClock = (at: number): ServiceClock => createClock(() => at);

/** A local service on an ephemeral loopback port, with the project's client pointed at it. */
export interface TestService {
  service: LocalService;
  url: string;
  client: SquareClient;
  /** Raw HTTP against the service, for what the client would not send (bad bodies, headers). */
  raw(
    method: string,
    path: string,
    init?: { body?: string | object; headers?: Record<string, string> },
  ): Promise<{ status: number; headers: Headers; json: any }>;
  /** Moves the service clock. */
  advance(seconds: number): void;
  close(): Promise<void>;
}

/** Starts a service for one test file; close it in afterAll. */
export async function startService(opts: ServiceOptions = {}): Promise<TestService> {
  const service = createService({ accessToken: "test-access-token", clientSecret: "test-client-secret", ...opts });
  const url = await service.listen(0, "127.0.0.1");
  const client = createClient({
    baseUrl: url,
    accessToken: service.accessToken,
    clientSecret: service.clientSecret,
    maxRetries: 0,
  });
  return {
    service,
    url,
    client,
    async raw(method, path, init = {}) {
      const body =
        init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body);
      const res = await fetch(`${url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${service.accessToken}`,
          "content-type": "application/json",
          ...init.headers,
        },
        ...(body === undefined ? {} : { body }),
      });
      const text = await res.text();
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = text;
      }
      return { status: res.status, headers: res.headers, json };
    },
    advance(seconds) {
      service.clock.advance(seconds);
    },
    async close() {
      await client.close();
      await service.close();
    },
  };
}

/** The service's refusal of a call, as the client raised it; throws if the call succeeds or fails otherwise. */
export async function failure(p: PromiseLike<unknown>): Promise<SquareApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof SquareApiError) return err;
    throw err;
  }
  throw new Error("expected the call to fail");
}

/**
 * A client of the same service signed in with a personal token that holds only `scopes`, for
 * what a sign-in without a permission sees. Close it after use.
 */
export function clientWithScopes(t: TestService, token: string, scopes: readonly string[]): SquareClient {
  storeToken(t.service.db, {
    token,
    kind: "personal",
    merchantId: t.service.merchantId,
    clientId: null,
    scopes: [...scopes],
    now: t.service.clock.now(),
    expiresAt: null,
  });
  return createClient({ baseUrl: t.url, accessToken: token, maxRetries: 0 });
}
