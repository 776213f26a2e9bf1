import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createClock } from "./clock.js";
import { createService, type LocalService } from "./index.js";
import { seedImagePath } from "./seed-image.js";

const NOW = Date.parse("2026-03-10T15:00:00Z");
const dirs: string[] = [];
const services: LocalService[] = [];

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), "backroom-image-test-"));
  dirs.push(dir);
  return dir;
}

function start(dir: string, scale: number, at = NOW, accessToken = "token-a"): LocalService {
  const s = createService({ scale, seedImageDir: dir, clock: createClock(() => at), accessToken });
  services.push(s);
  return s;
}

/** What a store holds, table by table, as sorted rows (credentials aside). */
function contents(db: Database.Database): Record<string, string[]> {
  const tables = db
    .prepare(
      "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN ('schema_migrations', 'tokens', 'oauth_apps')",
    )
    .all() as { name: string }[];
  const out: Record<string, string[]> = {};
  for (const { name } of tables) {
    out[name] = (db.prepare(`SELECT * FROM "${name}"`).all() as unknown[]).map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

async function get(s: LocalService, token: string, path: string): Promise<number> {
  const url = s.url ?? (await s.listen(0));
  const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  return res.status;
}

afterEach(async () => {
  for (const s of services.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("seed images", () => {
  it("keep the first store of the day, without credentials, and start the next one from it", async () => {
    const dir = folder();
    const first = start(dir, 2);
    const image = seedImagePath(dir, 2, new Date(NOW));
    expect(readdirSync(dir)).toEqual([image.slice(dir.length + 1)]);
    expect(statSync(image).mode & 0o777).toBe(0o600);
    const kept = new Database(image, { readonly: true });
    expect(kept.prepare("SELECT count(*) AS n FROM tokens").get()).toEqual({ n: 0 });
    expect(contents(kept)).toEqual(contents(first.db));
    kept.close();

    // Later the same day: the same store, with this start's own token.
    const second = start(dir, 2, NOW + 3 * 3_600_000, "token-b");
    expect(contents(second.db)).toEqual(contents(first.db));
    expect(await get(second, "token-b", "/v2/locations")).toBe(200);
    expect(await get(second, "token-a", "/v2/locations")).toBe(401);
  });

  it("never written at the demo's own scale", () => {
    const dir = folder();
    start(dir, 1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("replace the image of another day, and seed afresh from a damaged one", () => {
    const dir = folder();
    const yesterday = seedImagePath(dir, 2, new Date(NOW - 86_400_000));
    const today = seedImagePath(dir, 2, new Date(NOW));
    writeFileSync(yesterday, "not a database");
    writeFileSync(today, "not a database either");
    const s = start(dir, 2);
    expect(s.db.prepare("SELECT count(*) AS n FROM customers").get()).toEqual({ n: 1000 });
    expect(readdirSync(dir)).toEqual([today.slice(dir.length + 1)]);
    const kept = new Database(today, { readonly: true });
    expect(contents(kept)).toEqual(contents(s.db));
    kept.close();
  });
});
