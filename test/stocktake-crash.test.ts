import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { journalPath, openJournal, type StocktakeJournal } from "../src/local/stocktake-journal.js";
import { DEMO } from "../src/service/seed/demo-ids.js";
import { createClient, type SquareClient } from "../src/square/client.js";
import { cliEnv } from "./helpers/cli-process.js";
import { inStockAt, physicalCountsOf } from "./stocktake-helpers.js";

// The crash the journal is for: `backroom stocktake import --commit` killed with SIGKILL in the
// middle of its commit, then `backroom stocktake resume --commit`. Both are the real CLI, bundled
// from source, each in its own process, against `backroom serve` on a file.
const dir = mkdtempSync(join(tmpdir(), "backroom-stocktake-crash-"));
const bundleDir = join(process.cwd(), "node_modules", ".cache", `backroom-stocktake-${process.pid}`);
const bundle = join(bundleDir, "backroom.mjs");
const TOKEN = "stocktake-crash-token";
const LINES = 2000;
const running: ChildProcess[] = [];
let url = "";
let client: SquareClient;

const env = cliEnv(dir, TOKEN);

/** Resolves when `check` returns a value, polling every 20 ms; fails after `ms`. */
async function until<T>(what: string, check: () => T | undefined, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function run(args: string[]): {
  child: ChildProcess;
  exit: Promise<{ code: number | null; signal: string | null }>;
  output: () => string;
} {
  const child = spawn(process.execPath, [bundle, ...args], {
    cwd: process.cwd(),
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.push(child);
  let out = "";
  child.stdout?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  const exit = new Promise<{ code: number | null; signal: string | null }>((r) =>
    child.on("exit", (code, signal) => r({ code, signal })),
  );
  return { child, exit, output: () => out };
}

beforeAll(async () => {
  execFileSync(process.execPath, ["scripts/build.mjs", "--outdir", bundleDir], { stdio: "inherit" });
  const serve = run(["serve", "--db", join(dir, "store.db"), "--scale", "6", "--access-token", TOKEN]);
  url = await until("backroom serve to listen", () => /listening on (http:\/\/\S+)/.exec(serve.output())?.[1], 60_000);
  client = createClient({ baseUrl: url, accessToken: TOKEN, maxRetries: 0 });
}, 120_000);

afterAll(async () => {
  await client?.close();
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
  rmSync(bundleDir, { recursive: true, force: true });
});

describe("a stocktake commit killed halfway", () => {
  it("is finished by `stocktake resume --commit`: exact counts, one physical count per line", async () => {
    // 2,000 variations of Main Street, each with a count that differs from the books.
    const variations = (
      await client.catalog.searchCatalogObjects({ object_types: ["ITEM_VARIATION"], limit: 1000 }).all()
    ).slice(0, LINES);
    expect(variations).toHaveLength(LINES);
    const counted = new Map<string, string>();
    const rows = variations.map((v, i) => {
      const quantity = String(1000 + i);
      counted.set(v.id, quantity);
      return `${v.item_variation_data?.sku},${quantity}`;
    });
    const file = join(dir, "count.csv");
    writeFileSync(file, `sku,quantity\n${rows.join("\n")}\n`);

    // Each write takes a while at the service, so the commit is still running when it is killed.
    const fault = await fetch(`${url}/_emulator/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ operation: "BatchChangeInventory", status: 200, latency_ms: 250 }),
    });
    expect(fault.status).toBe(200);

    const importing = run(["stocktake", "import", file, "--location", "Main Street", "--commit", "--base-url", url]);
    const path = journalPath(join(dir, "data", "backroom"));
    await until("the journal file", () => (existsSync(path) ? true : undefined));
    let journal: StocktakeJournal = await openJournal(path);
    // Killed as soon as the journal shows the service accepted a request, and not all of them.
    const countId = await until("a request accepted", () => {
      const [count] = journal.list(1);
      if (count?.status === "committed" || importing.child.exitCode !== null || importing.child.signalCode !== null) {
        throw new Error(`the import finished before it could be killed; it said:\n${importing.output()}`);
      }
      if (count?.status !== "committing") return undefined;
      return journal.requests.list(count.id).some((b) => b.state === "accepted") ? count.id : undefined;
    });
    importing.child.kill("SIGKILL");
    expect((await importing.exit).signal).toBe("SIGKILL");

    const atKill = journal.requests.list(countId);
    expect(atKill).toHaveLength(LINES / 100);
    expect(atKill.filter((b) => b.state === "accepted").length).toBeLessThan(LINES / 100);
    // Requests on their way when it died: the service may have applied them; the journal cannot know.
    expect(atKill.some((b) => b.state === "sent")).toBe(true);
    expect(journal.get(countId)?.status).toBe("committing");
    journal.close();

    await fetch(`${url}/_emulator/faults`, { method: "DELETE" });
    const resuming = run(["stocktake", "resume", "--location", "Main Street", "--commit", "--base-url", url]);
    const done = await resuming.exit;
    expect(done.code, resuming.output()).toBe(0);
    expect(resuming.output()).toContain(`Committed ${LINES.toLocaleString("en-US")} lines of ${countId}`);

    journal = await openJournal(path);
    expect(journal.get(countId)?.status).toBe("committed");
    // Requests accepted before the kill were not sent again.
    const after = journal.requests.list(countId);
    for (const b of atKill.filter((x) => x.state === "accepted")) {
      expect(after.find((x) => x.seq === b.seq)?.attempts).toBe(b.attempts);
    }
    journal.close();

    const stock = await inStockAt(client, DEMO.mainLocationId);
    for (const [id, q] of counted) expect(stock.get(id), id).toBe(q);
    const history = await physicalCountsOf(client, DEMO.mainLocationId, countId);
    expect(history.size).toBe(LINES);
    for (const [id, q] of counted) expect(history.get(id), id).toEqual([q]);
  }, 120_000);
});
