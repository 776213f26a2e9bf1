import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// `backroom serve` as its user runs it: the CLI bundled from source, in its own process.
const dir = mkdtempSync(join(tmpdir(), "backroom-serve-"));
// Inside the project, so the bundle's bare imports (better-sqlite3) resolve from node_modules.
const bundleDir = join(process.cwd(), "node_modules", ".cache", `backroom-serve-${process.pid}`);
const bundle = join(bundleDir, "backroom.mjs");
const running: ChildProcess[] = [];

beforeAll(() => {
  // The same bundle `npm run build` makes, written beside the project's node_modules.
  execFileSync(process.execPath, ["scripts/build.mjs", "--outdir", bundleDir], { stdio: "inherit" });
}, 60_000);

afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
  rmSync(bundleDir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts `backroom serve` and waits for its `listening on` line. */
function serve(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, [bundle, "serve", ...args], {
    cwd: process.cwd(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.push(child);
  let out = "";
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1] && /application secret: \S+/.test(out)) resolve({ child, url: m[1], output: () => out, exited });
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}

async function createCustomer(url: string, token: string, name: string): Promise<number> {
  const res = await fetch(`${url}/v2/customers`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ given_name: name, reference_id: "durability" }),
  });
  await res.text();
  return res.status;
}

describe("backroom serve", () => {
  it("prints its address, token and application, and exits 0 on SIGTERM", async () => {
    const s = await serve([
      "--port",
      "0",
      "--access-token",
      "cli-token",
      "--client-id",
      "app-1",
      "--client-secret",
      "shh",
    ]);
    expect(s.output()).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/m);
    expect(s.output()).toContain("cli-token");
    expect(s.output()).toContain("application id: app-1");
    const health = await fetch(`${s.url}/_emulator/health`);
    expect(health.status).toBe(200);
    s.child.kill("SIGTERM");
    expect(await s.exited).toBe(0);
  });

  it("refuses a bad flag with a message naming it and exit code 2", async () => {
    const child = spawn(process.execPath, [bundle, "serve", "--seed", "lots"]);
    let err = "";
    child.stderr.on("data", (d: Buffer) => {
      err += d.toString();
    });
    const code = await new Promise((r) => child.on("exit", r));
    expect(code).toBe(2);
    expect(err).toContain(`--seed must be one of demo, empty, sandbox, not "lots"`);
  });

  it("answers a request without Square-Version in its --api-version, and refuses one it does not know", async () => {
    const s = await serve(["--port", "0", "--access-token", "v-token", "--api-version", "2020-12-16"]);
    try {
      const res = await fetch(`${s.url}/v2/cash-drawers/shifts?location_id=LMAIN0000000001`, {
        headers: { authorization: "Bearer v-token" },
      });
      expect(res.headers.get("square-version")).toBe("2020-12-16");
      const body = (await res.json()) as Record<string, unknown>;
      expect(Object.keys(body)).toContain("items");
    } finally {
      s.child.kill("SIGTERM");
      await s.exited;
    }
    const child = spawn(process.execPath, [bundle, "serve", "--api-version", "2021-03-18"]);
    let err = "";
    child.stderr.on("data", (d: Buffer) => {
      err += d.toString();
    });
    expect(await new Promise((r) => child.on("exit", r))).toBe(2);
    expect(err).toContain("--api-version");
  });

  it("keeps every acknowledged write through a kill -9", async () => {
    const db = join(dir, "durable.db");
    const first = await serve(["--port", "0", "--db", db, "--access-token", "t1", "--seed", "empty"]);
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push(await createCustomer(first.url, "t1", `Durable ${i}`));
    expect(statuses.every((s) => s === 200)).toBe(true);
    first.child.kill("SIGKILL");
    await first.exited;

    const second = await serve(["--port", "0", "--db", db, "--access-token", "t2", "--seed", "empty"]);
    const res = await fetch(`${second.url}/v2/customers/search`, {
      method: "POST",
      headers: { authorization: "Bearer t2", "content-type": "application/json" },
      body: JSON.stringify({ limit: 100, query: { filter: { reference_id: { exact: "durability" } } } }),
    });
    const body = (await res.json()) as { customers?: { given_name: string }[] };
    expect(body.customers?.map((c) => c.given_name).sort()).toEqual(
      Array.from({ length: 25 }, (_, i) => `Durable ${i}`).sort(),
    );
    // The first run's token is still known after the restart.
    expect(await createCustomer(second.url, "t1", "After restart")).toBe(200);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  });

  it("delivers a signed test event to a receiver on this machine (undici loaded on first use, in the bundle)", async () => {
    const bodies: string[] = [];
    const receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (d: Buffer) => {
        body += d.toString();
      });
      req.on("end", () => {
        bodies.push(body);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    const port = (receiver.address() as AddressInfo).port;
    const s = await serve(["--port", "0", "--access-token", "wh-token", "--seed", "empty"]);
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${s.url}${path}`, {
        method: "POST",
        headers: { authorization: "Bearer wh-token", "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    try {
      const made = await post("/v2/webhooks/subscriptions", {
        idempotency_key: "wh-1",
        subscription: {
          name: "here",
          event_types: ["labor.shift.created"],
          notification_url: `http://127.0.0.1:${port}/hook`,
        },
      });
      expect(made.status).toBe(200);
      const id = (made.body.subscription as { id: string }).id;
      const tested = await post(`/v2/webhooks/subscriptions/${id}/test`, { event_type: "labor.shift.created" });
      expect(tested.status).toBe(200);
      expect(tested.body.subscription_test_result).toMatchObject({ status_code: 204 });
      expect(bodies).toHaveLength(1);
      expect(JSON.parse(bodies[0] ?? "{}")).toMatchObject({ type: "labor.shift.created" });
    } finally {
      s.child.kill("SIGTERM");
      await s.exited;
      receiver.close();
    }
  });
});

// An application written against the official SDK of 2020-12-16 (`square` 8.0.1, which sends
// Square-Version 2020-12-16 on every call), installed from the npm registry into a folder of its
// own for this run: it reads the cash drawer shifts, their events and who opened them in the field
// names of its version (items, events, opening_employee_id, employee_ids, employee_id). That SDK
// knows only the real service's two hosts; it reaches `serve` through its HTTP client's proxy
// setting, and the service reads the absolute-form request target for its path.
describe("the official SDK of 2020-12-16 against backroom serve", () => {
  const sdkDir = mkdtempSync(join(tmpdir(), "backroom-square-2020-"));
  afterAll(() => rmSync(sdkDir, { recursive: true, force: true }));

  it("reads cash drawer shifts, their events and who opened them", async () => {
    writeFileSync(join(sdkDir, "package.json"), '{"private": true}');
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "square@8.0.1"], {
      cwd: sdkDir,
      stdio: "ignore",
      timeout: 180_000,
    });
    const square = createRequire(join(sdkDir, "package.json"))("square");
    const s = await serve(["--port", "0", "--access-token", "sdk-2020"]);
    try {
      const port = Number(new URL(s.url).port);
      const client = new square.Client({
        accessToken: "sdk-2020",
        environment: square.Environment.Production,
        unstable_httpClientOptions: { proxy: { host: "127.0.0.1", port, protocol: "http:" } },
      });
      const location = "LMAIN0000000001";
      const list = await client.cashDrawersApi.listCashDrawerShifts(location);
      expect(list.result.items.length).toBeGreaterThan(0);
      const closed = list.result.items.find((x: { state: string }) => x.state === "CLOSED");
      const shift = (await client.cashDrawersApi.retrieveCashDrawerShift(location, closed.id)).result.cashDrawerShift;
      expect(shift.openingEmployeeId).toMatch(/^TM/);
      expect(shift.closingEmployeeId).toMatch(/^TM/);
      expect(shift.employeeIds).toContain(shift.openingEmployeeId);
      const events = (await client.cashDrawersApi.listCashDrawerShiftEvents(location, closed.id)).result.events;
      expect(events.length).toBeGreaterThan(0);
      expect(events.every((e: { employeeId?: string }) => typeof e.employeeId === "string")).toBe(true);
    } finally {
      s.child.kill("SIGTERM");
      await s.exited;
    }
  }, 240_000);
});
