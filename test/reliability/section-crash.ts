import { randomBytes } from "node:crypto";
import { join } from "node:path";
import Database from "better-sqlite3";
import { rng } from "../../src/service/seed/random.js";
import { send } from "./http.js";
import { atLeast, exactly, type Figure, info, type Section } from "./section.js";
import { startServe } from "./serve-process.js";

/** A write the service acknowledged, and how to read it back. */
interface Acked {
  kind: "customer" | "shift" | "adjustment";
  id: string;
  path: string;
}

interface CrashRun {
  acked: number;
  missing: Acked[];
  integrity: string;
  foreignKeys: number;
  killedAfterMs: number;
}

/** One writer: a loop of writes of one kind until told to stop; each 200 is an acknowledged write. */
async function writer(
  url: string,
  token: string,
  kind: Acked["kind"],
  n: number,
  ctx: { variation: string; location: string; stop: () => boolean; acked: Acked[] },
): Promise<void> {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  for (let i = 0; !ctx.stop(); i++) {
    let request: { method: string; path: string; body: unknown };
    if (kind === "customer") {
      request = {
        method: "POST",
        path: "/v2/customers",
        body: { given_name: `Crash ${n}-${i}`, reference_id: `crash-${n}-${i}` },
      };
    } else if (kind === "shift") {
      // Closed half-hour shifts an hour apart, years back: never overlapping, always in the past.
      const start = Date.UTC(2015, 0, 1) + (n * 10_000 + i) * 3_600_000;
      request = {
        method: "POST",
        path: "/v2/labor/shifts",
        body: {
          idempotency_key: `crash-shift-${n}-${i}`,
          shift: {
            location_id: ctx.location,
            team_member_id: "TMDEMO0008",
            start_at: new Date(start).toISOString(),
            end_at: new Date(start + 1_800_000).toISOString(),
          },
        },
      };
    } else {
      request = {
        method: "POST",
        path: "/v2/inventory/changes/batch-create",
        body: {
          idempotency_key: `crash-adj-${n}-${i}-${randomBytes(4).toString("hex")}`,
          changes: [
            {
              type: "ADJUSTMENT",
              adjustment: {
                catalog_object_id: ctx.variation,
                location_id: ctx.location,
                from_state: "NONE",
                to_state: "IN_STOCK",
                quantity: "1",
                occurred_at: new Date(Date.now() - 60_000).toISOString(),
              },
            },
          ],
        },
      };
    }
    let r: Awaited<ReturnType<typeof send>>;
    try {
      r = await send(url, {
        method: request.method,
        path: request.path,
        headers,
        body: JSON.stringify(request.body),
        timeoutMs: 5000,
      });
    } catch {
      return; // the service is gone: whatever was in flight was never acknowledged
    }
    if (r.status !== 200) continue;
    const json = r.json as Record<string, any>;
    if (kind === "customer") ctx.acked.push({ kind, id: json.customer.id, path: `/v2/customers/${json.customer.id}` });
    else if (kind === "shift") ctx.acked.push({ kind, id: json.shift.id, path: `/v2/labor/shifts/${json.shift.id}` });
    else {
      const id = json.changes[0].adjustment.id;
      ctx.acked.push({ kind, id, path: `/v2/inventory/adjustments/${id}` });
    }
  }
}

/** Writes from several clients, kills the service with SIGKILL mid-stream, restarts it, and checks. */
async function crashOnce(cli: string, tmp: string, seed: number, run: number): Promise<CrashRun> {
  const r = rng(seed + run);
  const db = join(tmp, `crash-${run}.db`);
  const token = `EAAAcrash${randomBytes(12).toString("hex")}`;
  const args = ["--port", "0", "--db", db, "--access-token", token];
  const first = await startServe(cli, args);
  const headers = { authorization: `Bearer ${token}` };
  const list = await send(first.url, { method: "GET", path: "/v2/catalog/list?types=ITEM_VARIATION", headers });
  const variation = (list.json as { objects: { id: string }[] }).objects[0]?.id ?? "";
  const locations = await send(first.url, { method: "GET", path: "/v2/locations", headers });
  const location = (locations.json as { locations: { id: string }[] }).locations[0]?.id ?? "";

  const acked: Acked[] = [];
  let stopped = false;
  const shared = { variation, location, stop: () => stopped, acked };
  const writers = (["customer", "customer", "shift", "adjustment", "adjustment", "customer"] as const).map((kind, n) =>
    writer(first.url, token, kind, n, shared),
  );
  const killedAfterMs = r.int(400, 1500);
  await new Promise((resolve) => setTimeout(resolve, killedAfterMs));
  await first.kill("SIGKILL");
  stopped = true;
  await Promise.all(writers);

  const second = await startServe(cli, args);
  const missing: Acked[] = [];
  for (const a of acked) {
    const back = await send(second.url, { method: "GET", path: a.path, headers });
    if (back.status !== 200) missing.push(a);
  }
  await second.kill("SIGTERM");
  const check = new Database(db, { readonly: true });
  const integrity = (check.pragma("integrity_check", { simple: true }) as string) ?? "";
  const foreignKeys = (check.pragma("foreign_key_check") as unknown[]).length;
  check.close();
  return { acked: acked.length, missing, integrity, foreignKeys, killedAfterMs };
}

/**
 * Crash safety of the service: a stream of acknowledged writes (customers, shifts, stock
 * adjustments) from six clients, `kill -9` at a random moment, a restart on the same file; every
 * acknowledged write must be there, and SQLite's integrity check must say ok.
 */
export const crashSection: Section = {
  name: "crash",
  title: "kill -9 of the service during acknowledged writes",
  async run(ctx) {
    const runs = ctx.mode === "full" ? 5 : 1;
    const results: CrashRun[] = [];
    for (let i = 0; i < runs; i++) {
      const res = await crashOnce(ctx.cli, ctx.tmp, ctx.seed, i);
      ctx.log(
        `crash run ${i + 1}: killed after ${res.killedAfterMs} ms, ${res.acked} acknowledged, ${res.missing.length} missing, integrity ${res.integrity}`,
      );
      for (const m of res.missing.slice(0, 10)) ctx.log(`  missing ${m.kind} ${m.id}`);
      results.push(res);
    }
    const acked = results.reduce((n, x) => n + x.acked, 0);
    const missing = results.reduce((n, x) => n + x.missing.length, 0);
    const figures: Figure[] = [
      info("runs", String(runs)),
      atLeast("acknowledged writes before the kill", acked, runs * 10),
      exactly("acknowledged writes missing after restart", missing),
      exactly("runs whose integrity_check is not ok", results.filter((x) => x.integrity !== "ok").length),
      exactly(
        "foreign key violations",
        results.reduce((n, x) => n + x.foreignKeys, 0),
      ),
    ];
    return figures;
  },
};
