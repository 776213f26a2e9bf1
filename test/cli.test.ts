// The command line as its user runs it: the bundled CLI in its own process. Help for every
// command, usage errors with exit 2, the app refusing a stdin that is not a terminal, and one
// resolution of where to work shared by the app, `shifts export` and `status`.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type TestService } from "./helpers/service.js";

const dir = mkdtempSync(join(tmpdir(), "backroom-cli-"));
// Inside the project, so the bundle's bare imports (better-sqlite3) resolve from node_modules.
const bundleDir = join(process.cwd(), "node_modules", ".cache", `backroom-cli-${process.pid}`);
const bundle = join(bundleDir, "backroom.mjs");
const env = {
  PATH: process.env.PATH ?? "",
  HOME: dir,
  XDG_CONFIG_HOME: join(dir, "config"),
  XDG_DATA_HOME: join(dir, "data"),
};

beforeAll(() => {
  execFileSync(process.execPath, ["scripts/build.mjs", "--outdir", bundleDir], { stdio: "inherit" });
}, 60_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(bundleDir, { recursive: true, force: true });
});

/** Runs the CLI to the end with stdin from /dev/null; its exit code, output and how long it took. */
function cli(args: string[], extra: Record<string, string> = {}) {
  const started = Date.now();
  const r = spawnSync(process.execPath, [bundle, ...args], {
    env: { ...env, ...extra },
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    timeout: 15_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - started };
}

/** {@link cli} without blocking this process: for commands that call a service running in it. */
function cliAsync(args: string[], extra: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [bundle, ...args], {
      env: { ...env, ...extra },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("help", () => {
  it("answers --help for every command and subcommand, on stdout, exit 0", () => {
    for (const args of [
      ["--help"],
      ["-h"],
      ["help"],
      ["serve", "--help"],
      ["login", "--help"],
      ["logout", "-h"],
      ["status", "--help"],
      ["shifts", "--help"],
      ["shifts", "export", "--help"],
      ["demo", "--help"],
      ["demo", "reset", "--help"],
      ["help", "shifts", "export"],
    ]) {
      const r = cli(args);
      expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 0, stderr: "" });
      expect(r.stdout).toMatch(/^(usage: backroom|backroom \d)/);
    }
    expect(cli(["shifts", "export", "--help"]).stdout).toMatch(/^usage: backroom shifts export \[options\]\n/);
    expect(cli(["help"]).stdout).toMatch(/^ {2}demo +the demo store/m);
  });
});

describe("usage errors", () => {
  it("exit 2 and name what was typed", () => {
    const cases: [string[], string][] = [
      [["bogus"], 'backroom: unknown command "bogus"'],
      [["shifts"], "backroom shifts: which one?"],
      [["shifts", "import"], 'backroom shifts: unknown command "import"'],
      [["status", "extra"], 'backroom status: unexpected argument "extra"'],
      [["status", "--base-url", "notaurl"], "backroom status: --base-url must be an http(s) address"],
      [["--base-url", "notaurl"], "backroom: --base-url must be an http(s) address"],
      [
        ["shifts", "export", "--from", "2026-05-01", "--from", "2026-05-02"],
        "backroom shifts export: --from is given more than once",
      ],
      [["shifts", "export", "--out"], "backroom shifts export: --out needs a value"],
      [
        ["--env", "sandbox", "shifts", "list", "--json"],
        "backroom: the command goes first: backroom shifts list --env sandbox --json",
      ],
      [["--offline", "status"], "backroom: the command goes first: backroom status --offline"],
    ];
    for (const [args, message] of cases) {
      const r = cli(args);
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 2, stdout: "" });
      expect(r.stderr.startsWith(message)).toBe(true);
    }
  });
});

describe("a reader that stops early", () => {
  it("ends quietly when the pipe closes (`| head`), without a stack trace", async () => {
    const child = spawn(
      process.execPath,
      [bundle, "payouts", "list", "--location", "all", "--from", "2026-01-01", "--json", "--db", ":memory:"],
      { env, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    // Like `head -c`: read the first chunk of a long output, then close the pipe.
    child.stdout.once("data", () => child.stdout.destroy());
    const code = await new Promise<number | null>((done) => child.on("close", (c) => done(c)));
    expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(code).toBe(0);
  }, 30_000);
});

describe("the app without a terminal", () => {
  it("exits at once, non-zero, pointing to the commands for scripts", () => {
    const r = cli([]);
    expect(r.code).toBe(1);
    expect(r.ms).toBeLessThan(5000);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("the app needs a terminal to read keys from, and standard input is not one");
    expect(r.stderr).toContain("`backroom shifts export`");
    // Nothing was drawn and no store was made.
    expect(r.stderr).not.toContain("\u001b[");
    expect(existsSync(join(dir, "data"))).toBe(false);
  });
});

describe("one resolution of where to work, for the app, shifts export and status", () => {
  let svc: TestService;
  let second: { id: string; name: string };
  const configDir = join(dir, "resolution", "config");
  const dataDir = join(dir, "resolution", "data");
  const run = (args: string[]) =>
    cliAsync(args, {
      XDG_CONFIG_HOME: configDir,
      XDG_DATA_HOME: dataDir,
      BACKROOM_ACCESS_TOKEN: svc.service.accessToken,
    });
  /** Arms a fault that fires once on the operation; the service counts it down when it is called. */
  const arm = async (operation: string) => {
    await svc.raw("DELETE", "/_emulator/faults");
    await svc.raw("POST", "/_emulator/faults", {
      body: { operation, status: 503, code: "SERVICE_UNAVAILABLE", count: 1 },
    });
  };
  const fired = async () => (await svc.raw("GET", "/_emulator/faults")).json.faults[0]?.remaining === 0;

  beforeAll(async () => {
    svc = await startService();
    const locations = (await svc.client.locations.listLocations()).locations ?? [];
    const loc = locations[1];
    second = { id: loc?.id ?? "", name: loc?.name ?? "" };
    expect(second.id).not.toBe("");
    // The same config file for all three: a local service elsewhere, and a default location.
    mkdirSync(join(configDir, "backroom"), { recursive: true });
    writeFileSync(
      join(configDir, "backroom", "config.json"),
      JSON.stringify({ environment: "local", baseUrl: svc.url, defaultLocationId: second.id }),
    );
  });
  afterAll(async () => {
    await svc.close();
  });

  it("status works against the config's service", async () => {
    await arm("ListLocations");
    const r = await run(["status"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^Environment: +local \\(${svc.url}\\)$`, "m"));
    expect(r.stdout).toMatch(/^Chosen by: +the config file/m);
    expect(r.stdout).toMatch(/^Service: +checked with the service$/m);
    expect(await fired()).toBe(true);
  });

  it("shifts export reads the config's service, at the config's default location", async () => {
    await arm("ListLocations");
    const out = join(dir, "resolution", "week.csv");
    const r = await run(["shifts", "export", "--from", "2026-04-01", "--out", out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`shifts of ${second.name}, 2026-04-01, to ${out}`);
    expect(readFileSync(out, "utf8")).toMatch(/^location,member,job title,start date/);
    expect(await fired()).toBe(true);
  });

  it("the app opens on the config's service", async () => {
    await arm("ListLocations");
    const socket = `backroom-cli-${process.pid}`;
    const tmux = (...a: string[]) => execFileSync("tmux", ["-L", socket, ...a], { encoding: "utf8" });
    const command = [
      "env -u CI",
      `XDG_CONFIG_HOME=${configDir}`,
      `XDG_DATA_HOME=${dataDir}`,
      `BACKROOM_ACCESS_TOKEN=${svc.service.accessToken}`,
      `${process.execPath} ${bundle}`,
    ].join(" ");
    try {
      tmux("new-session", "-d", "-s", "app", "-x", "100", "-y", "30", command);
      const deadline = Date.now() + 20_000;
      while (!(await fired()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await fired()).toBe(true);
      tmux("send-keys", "-t", "app", "q");
      const gone = Date.now() + 10_000;
      while (spawnSync("tmux", ["-L", socket, "has-session", "-t", "app"]).status === 0 && Date.now() < gone) {
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      spawnSync("tmux", ["-L", socket, "kill-server"]);
    }
    // It did not fall back to the demo store (the stocktake journal may be there: it is kept per machine).
    expect(existsSync(join(dataDir, "backroom", "demo.db"))).toBe(false);
  }, 40_000);

  it("a malformed config is the same error for all three", async () => {
    const file = join(configDir, "backroom", "config.json");
    const good = readFileSync(file, "utf8");
    writeFileSync(file, '{"environment": "prod"}');
    try {
      const message = `backroom: ${file}: field "environment" must be one of local, sandbox, production\n`;
      for (const args of [["status"], ["shifts", "export"]]) {
        const r = await run(args);
        expect({ args, code: r.code, stderr: r.stderr, stdout: r.stdout }).toEqual({
          args,
          code: 1,
          stderr: message,
          stdout: "",
        });
      }
      // The app reports it before drawing anything (checked here with a terminal, in tmux).
      const socket = `backroom-cli-bad-${process.pid}`;
      const log = join(dir, "resolution", "app.err");
      const command = `env -u CI XDG_CONFIG_HOME=${configDir} XDG_DATA_HOME=${dataDir} ${process.execPath} ${bundle} 2>${log}; echo "exit $?" >>${log}`;
      try {
        execFileSync("tmux", ["-L", socket, "new-session", "-d", "-s", "app", "-x", "100", "-y", "30", command]);
        const deadline = Date.now() + 15_000;
        let text = "";
        while (Date.now() < deadline) {
          text = spawnSync("cat", [log], { encoding: "utf8" }).stdout ?? "";
          if (text.includes("exit ")) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(text).toBe(`${message}exit 1\n`);
      } finally {
        spawnSync("tmux", ["-L", socket, "kill-server"]);
      }
    } finally {
      writeFileSync(file, good);
    }
  }, 30_000);

  it("defaultLocationId that names no location is reported by status and export", async () => {
    const file = join(configDir, "backroom", "config.json");
    const good = readFileSync(file, "utf8");
    writeFileSync(file, JSON.stringify({ environment: "local", baseUrl: svc.url, defaultLocationId: "L-GONE" }));
    try {
      const status = await run(["status"]);
      expect(status.code).toBe(1);
      expect(status.stdout).toMatch(
        /^Location: +the default location in the config is none of this store's \(it has: /m,
      );
      expect(status.stdout).toMatch(/^Details: +defaultLocationId "L-GONE"$/m);
      const exported = await run(["shifts", "export"]);
      expect(exported.code).toBe(1);
      expect(exported.stderr).toContain('the config file\'s defaultLocationId "L-GONE" names no location here');
    } finally {
      writeFileSync(file, good);
    }
  });
});

describe("status when the service cannot be reached", () => {
  it("says so and exits non-zero", () => {
    // A port nothing listens on: bind one, note it, close it.
    const port = Number(
      execFileSync(
        process.execPath,
        [
          "-e",
          "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
        ],
        { encoding: "utf8" },
      ).trim(),
    );
    const url = `http://127.0.0.1:${port}`;
    const r = cli(["status", "--env", "local", "--base-url", url], { BACKROOM_ACCESS_TOKEN: "EAAAl-some-token" });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`^Service: +could not be reached at ${url}`, "m"));
    expect(r.stderr).toContain(`backroom status: the service could not be reached at ${url}`);
  });
});

describe("two backrooms on one demo store file", () => {
  it("both write at the same time, and each sees the other's work", async () => {
    const file = join(dir, "shared", "demo.db");
    expect(cli(["demo", "reset", "--db", file]).code).toBe(0);
    // Each backroom runs its own service in its own process over the file; `serve` is that service.
    const start = (token: string) =>
      new Promise<{ url: string; stop: () => Promise<void> }>((resolve, reject) => {
        const child = spawn(process.execPath, [bundle, "serve", "--db", file, "--access-token", token], {
          env,
          stdio: ["ignore", "pipe", "pipe"],
        });
        let out = "";
        const onData = (d: Buffer) => {
          out += d;
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m?.[1]) {
            resolve({
              url: m[1],
              stop: () =>
                new Promise((done) => {
                  child.on("exit", () => done());
                  child.kill("SIGTERM");
                }),
            });
          }
        };
        child.stdout.on("data", onData);
        child.stderr.on("data", onData);
        child.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
      });
    const a = await start("EAAAl-first-backroom");
    const b = await start("EAAAl-second-backroom");
    try {
      const write = async (url: string, token: string, name: string) => {
        const res = await fetch(`${url}/v2/customers`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          // An idempotency key, as the client sends with every write: the service reads it back first.
          body: JSON.stringify({ idempotency_key: `key-${name}`, given_name: name, reference_id: "two-backrooms" }),
        });
        await res.text();
        return res.status;
      };
      const writer = async (url: string, token: string, who: string) => {
        const statuses: number[] = [];
        for (let i = 0; i < 60; i++) statuses.push(await write(url, token, `${who}-${i}`));
        return statuses;
      };
      const statuses = (
        await Promise.all([
          writer(a.url, "EAAAl-first-backroom", "a1"),
          writer(a.url, "EAAAl-first-backroom", "a2"),
          writer(b.url, "EAAAl-second-backroom", "b1"),
          writer(b.url, "EAAAl-second-backroom", "b2"),
        ])
      ).flat();
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      const count = async (url: string, token: string) => {
        const res = await fetch(`${url}/v2/customers/search`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ query: { filter: { reference_id: { exact: "two-backrooms" } } }, count: true }),
        });
        return ((await res.json()) as { count?: number }).count;
      };
      expect(await count(a.url, "EAAAl-first-backroom")).toBe(240);
      expect(await count(b.url, "EAAAl-second-backroom")).toBe(240);
    } finally {
      await a.stop();
      await b.stop();
    }
  }, 60_000);
});
