import { type Environment, openSession, sessionForLocal } from "../auth/index.js";
import { createService } from "../service/index.js";
import type { SquareClient } from "../square/index.js";

/** Where a command works: the local demo store (the default), or a signed-in environment. */
export interface TargetFlags {
  environment?: Environment | undefined;
  baseUrl?: string | undefined;
  /** The local store's SQLite file; in memory when absent. */
  dbPath?: string | undefined;
}

/** A client ready for calls, what it is connected to, and how to let go of it. */
export interface OpenedClient {
  client: SquareClient;
  environment: Environment;
  /** A standing warning for the status bar (no keychain: the sign-in lasts this run only). */
  notice?: string;
  close(): Promise<void>;
}

/** The target is the local demo store, started in this process. */
export const isLocalTarget = (t: TargetFlags): boolean => (t.environment ?? "local") === "local" && !t.baseUrl;

/** A refusal to connect that the user can act on (not signed in). */
export class TargetError extends Error {
  override name = "TargetError";
}

/** Starts the local service in this process and signs in with its demo token. */
export async function startLocal(dbPath = ":memory:"): Promise<OpenedClient> {
  const service = createService({ dbPath });
  try {
    const baseUrl = await service.listen(0, "127.0.0.1");
    const { client } = await sessionForLocal(service, { baseUrl });
    return {
      client,
      environment: "local",
      async close() {
        await client.close();
        await service.close();
      },
    };
  } catch (err) {
    await service.close();
    throw err;
  }
}

/** Opens a client on the target: the local store, or the stored sign-in of an environment. */
export async function openTarget(
  target: TargetFlags,
  env: Readonly<Record<string, string | undefined>>,
): Promise<OpenedClient> {
  if (isLocalTarget(target)) return startLocal(target.dbPath);
  const opened = await openSession(env, { environment: target.environment, baseUrl: target.baseUrl });
  const where = opened.target.environment;
  if (!opened.connection || opened.session.state().status !== "signed-in") {
    await opened.connection?.client.close();
    throw new TargetError(`not signed in to ${where}. Run \`backroom login --env ${where}\` first.`);
  }
  const { client } = opened.connection;
  const notice = opened.store.kind === "memory" ? opened.store.describeStorage() : undefined;
  return { client, environment: where, ...(notice ? { notice } : {}), close: () => client.close() };
}
