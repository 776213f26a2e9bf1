import { rmSync } from "node:fs";
import type { Server } from "node:http";
import { DEFAULT_SQUARE_VERSION } from "../spec/version.js";
import { createClock, type ServiceClock } from "./clock.js";
import { type Db, openDb } from "./db.js";
import { emulatorRoutes } from "./emulator.js";
import type { EventSink } from "./events.js";
import { Faults } from "./faults.js";
import { serveFromPrivateStore } from "./private-store.js";
import { allRoutes, extraRoutes } from "./routes.js";
import { DEMO } from "./seed/demo-ids.js";
import { installCredentials, isSeeded, type SeedKind, seedStore } from "./seed/index.js";
import { existingImage, MIN_IMAGE_SCALE, saveSeedImage, seedImagePath } from "./seed-image.js";
import { createHttpServer, listen } from "./server.js";
import { newSecret } from "./tokens.js";
import { createWebhookSink, type WebhookSinkOptions } from "./webhooks/sink.js";

/** How to build the local service; every field has a default. */
export interface ServiceOptions {
  /** A SQLite file, or `:memory:` (the default). An existing file keeps its store. */
  dbPath?: string;
  seed?: SeedKind;
  /** Multiplies demo volumes, for benchmarks. */
  scale?: number;
  /** The seller's personal access token; random unless given. */
  accessToken?: string;
  clientId?: string;
  /** The OAuth application's secret; random unless given. */
  clientSecret?: string;
  clock?: ServiceClock;
  /** Where committed events go; by default, real webhook delivery. */
  events?: EventSink;
  /** The Square-Version of a request that sends none (the application's pinned one); default 2024-01-18. */
  apiVersion?: string;
  /**
   * A folder for prepared demo stores: a `:memory:` demo store of scale 2 or more starts as a
   * copy of the day's image when there is one, and leaves one when there is not (seed-image.ts).
   */
  seedImageDir?: string;
  /** Tuning of the real webhook delivery (retry delays, attempts, timeout). */
  webhooks?: Omit<WebhookSinkOptions, "db" | "clock">;
}

/** A running (or ready to run) local service. */
export interface LocalService {
  readonly db: Db;
  readonly clock: ServiceClock;
  readonly accessToken: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly merchantId: string;
  /** The base URL once listening. */
  readonly url: string | undefined;
  /** Starts listening; port 0 picks a free port. Resolves with the base URL. */
  listen(port?: number, host?: string): Promise<string>;
  /** Finishes in-flight requests, stops delivery, closes the database. */
  close(): Promise<void>;
  /** Empties the store and lays the seed out again. */
  reset(): void;
}

/** Opens the store: from the day's seed image when there is one that opens, else as given. */
function openStore(dbPath: string, image: string | undefined): Db {
  const from = image === undefined ? undefined : existingImage(image);
  if (from === undefined) return openDb(dbPath);
  try {
    return openDb(dbPath, from);
  } catch {
    // An image that no longer opens (damaged, or of a schema this build cannot migrate): seed afresh.
    rmSync(from, { force: true });
    return openDb(dbPath);
  }
}

/**
 * Builds the local service over SQLite: the same interface as the real one, with its rules.
 * `createService({})` gives an in-memory demo store.
 */
export function createService(opts: ServiceOptions = {}): LocalService {
  const dbPath = opts.dbPath ?? ":memory:";
  const clock = opts.clock ?? createClock();
  const seed = opts.seed ?? "demo";
  const scale = opts.scale ?? 1;
  const image =
    opts.seedImageDir !== undefined && dbPath === ":memory:" && seed === "demo" && scale >= MIN_IMAGE_SCALE
      ? seedImagePath(opts.seedImageDir, scale, clock.now())
      : undefined;
  const db = openStore(dbPath, image);
  const creds = {
    accessToken: opts.accessToken ?? newSecret("EAAAl"),
    clientId: opts.clientId ?? DEMO.clientId,
    clientSecret: opts.clientSecret ?? newSecret("sq0csp-"),
  };
  // A store kept as an image is laid out whole; any other leaves what can wait to its first use.
  const seedOpts = { defer: image === undefined };
  if (!isSeeded(db)) {
    seedStore(db, seed, scale, clock.now(), seedOpts);
    // Before any credentials: an image holds the demo store and no one's tokens.
    if (image !== undefined) saveSeedImage(db, image, scale);
  }
  installCredentials(db, creds, clock.now());
  // A private store commits in batches once it is laid out; a file commits every request.
  const batches = dbPath === ":memory:" ? serveFromPrivateStore(db) : undefined;
  const outsideTransaction = <T>(f: () => T): T => (batches ? batches.outside(f) : f());

  const faults = new Faults();
  const events = opts.events ?? createWebhookSink({ db, clock, ...opts.webhooks });
  const reset = () =>
    outsideTransaction(() => {
      db.pragma("foreign_keys = OFF");
      try {
        const tables = db
          .prepare(
            // Ordinary tables only: a search index (virtual table, its shadow tables) is emptied by
            // the triggers of the table it indexes.
            "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'schema_migrations'",
          )
          .all() as { name: string }[];
        db.transaction(() => {
          for (const t of tables) db.exec(`DELETE FROM "${t.name}"`);
        })();
      } finally {
        db.pragma("foreign_keys = ON");
      }
      seedStore(db, seed, scale, clock.now(), seedOpts);
      installCredentials(db, creds, clock.now());
    });

  const server: Server = createHttpServer({
    db,
    clock,
    routes: allRoutes,
    extra: { ...emulatorRoutes({ clock, faults, reset }), ...extraRoutes({ db, clock, events }) },
    events,
    faults,
    defaultSquareVersion: opts.apiVersion ?? DEFAULT_SQUARE_VERSION,
  });
  let url: string | undefined;

  return {
    db,
    clock,
    ...creds,
    merchantId: DEMO.merchantId,
    get url() {
      return url;
    },
    async listen(port = 0, host = "127.0.0.1") {
      url = await listen(server, port, host);
      return url;
    },
    async close() {
      await new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await events.close?.();
      batches?.stop();
      db.close();
    },
    reset,
  };
}
