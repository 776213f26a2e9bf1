import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { journalPath, openJournal } from "../../src/local/stocktake-journal.js";
import { DEMO } from "../../src/service/seed/demo-ids.js";
import { createClient } from "../../src/square/client.js";
import { inStockAt, physicalCountsOf } from "../stocktake-helpers.js";
import { atLeast, exactly, type Figure, info, type Section } from "./section.js";
import { startServe } from "./serve-process.js";

async function until<T>(what: string, check: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** How long the service holds each inventory request while the commit is to be killed. */
const LATENCY_MS = 400;

/**
 * The app's crash: `backroom stocktake import --commit` (the real CLI) killed with SIGKILL in the
 * middle of its commit, then `stocktake resume --commit`. Every count at the service must equal
 * the counted quantity, with exactly one physical count per line for the count's reference id.
 *
 * The commit is made long enough to be caught in its middle whatever the machine: more requests
 * than the commit sends at once (4), each held `LATENCY_MS` by the service, so after the first is
 * accepted at least two more rounds are still to go. A commit that finishes (or an import that
 * exits) before it is killed fails the section at once, with what the import said.
 */
export const stocktakeCrashSection: Section = {
  name: "stocktake",
  title: "kill -9 of a stocktake commit, then resume",
  async run(ctx) {
    const lines = ctx.mode === "full" ? 2000 : 1000;
    const dir = join(ctx.tmp, "stocktake-crash");
    mkdirSync(dir, { recursive: true });
    const token = "reliability-stocktake-token";
    const serve = await startServe(ctx.cli, [
      "--port",
      "0",
      "--db",
      join(dir, "store.db"),
      "--scale",
      "6",
      "--access-token",
      token,
    ]);
    const client = createClient({ baseUrl: serve.url, accessToken: token, maxRetries: 0 });
    const env = {
      ...process.env,
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, "config"),
      XDG_DATA_HOME: join(dir, "data"),
      BACKROOM_ACCESS_TOKEN: token,
      NO_COLOR: "1",
    };
    const cli = (args: string[]) => {
      const child: ChildProcess = spawn(process.execPath, [ctx.cli, ...args], {
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
      child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
      const exit = new Promise<{ code: number | null; signal: string | null }>((r) =>
        child.on("exit", (code, signal) => r({ code, signal })),
      );
      return { child, exit, output: () => out };
    };
    try {
      const variations = (
        await client.catalog.searchCatalogObjects({ object_types: ["ITEM_VARIATION"], limit: 1000 }).all()
      ).slice(0, lines);
      const counted = new Map<string, string>();
      const rows = variations.map((v, i) => {
        const quantity = String(500 + ((i * 7 + ctx.seed) % 900));
        counted.set(v.id, quantity);
        return `${v.item_variation_data?.sku},${quantity}`;
      });
      const file = join(dir, "count.csv");
      writeFileSync(file, `sku,quantity\n${rows.join("\n")}\n`);
      // Slow writes, so the commit is still running when it is killed.
      await fetch(`${serve.url}/_emulator/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ operation: "BatchChangeInventory", status: 200, latency_ms: LATENCY_MS }),
      });
      const importing = cli([
        "stocktake",
        "import",
        file,
        "--location",
        "Main Street",
        "--commit",
        "--base-url",
        serve.url,
      ]);
      const path = journalPath(join(dir, "data", "backroom"));
      await until("the journal", () => (existsSync(path) ? true : undefined));
      let journal = await openJournal(path);
      const countId = await until("a request accepted", () => {
        const [count] = journal.list(1);
        if (count?.status === "committed" || importing.child.exitCode !== null || importing.child.signalCode !== null) {
          throw new Error(`the import finished before it could be killed; it said:\n${importing.output()}`);
        }
        if (count?.status !== "committing") return undefined;
        return journal.requests.list(count.id).some((b) => b.state === "accepted") ? count.id : undefined;
      });
      importing.child.kill("SIGKILL");
      await importing.exit;
      const atKill = journal.requests.list(countId);
      const acceptedAtKill = atKill.filter((b) => b.state === "accepted").length;
      const unsettledAtKill = atKill.filter((b) => b.state === "planned" || b.state === "sent").length;
      journal.close();
      await fetch(`${serve.url}/_emulator/faults`, { method: "DELETE" });
      const resuming = cli(["stocktake", "resume", "--location", "Main Street", "--commit", "--base-url", serve.url]);
      const done = await resuming.exit;
      if (done.code !== 0) ctx.log(`stocktake resume said:\n${resuming.output()}`);
      journal = await openJournal(path);
      const status = journal.get(countId)?.status;
      const resent = atKill
        .filter((b) => b.state === "accepted")
        .filter((b) => journal.requests.list(countId).find((x) => x.seq === b.seq)?.attempts !== b.attempts).length;
      journal.close();
      const stock = await inStockAt(client, DEMO.mainLocationId);
      const wrong = [...counted].filter(([id, q]) => stock.get(id) !== q).length;
      const history = await physicalCountsOf(client, DEMO.mainLocationId, countId);
      const notOnce = [...counted].filter(([id, q]) => JSON.stringify(history.get(id)) !== JSON.stringify([q])).length;
      const figures: Figure[] = [
        info("lines counted, batches accepted when killed", `${lines}, ${acceptedAtKill} of ${atKill.length}`),
        atLeast("requests not yet accepted when killed", unsettledAtKill, 1),
        exactly("resume exit code", done.code ?? -1, 0),
        exactly("count not committed after resume", status === "committed" ? 0 : 1),
        exactly("counts at the service not equal to the counted quantity", wrong),
        exactly("lines without exactly one physical count", notOnce),
        exactly("accepted requests sent again on resume", resent),
      ];
      return figures;
    } finally {
      await client.close();
      await serve.kill("SIGKILL");
    }
  },
};
