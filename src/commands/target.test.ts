import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../auth/config.js";
import { UsageError } from "./args.js";
import { CommandError } from "./io.js";
import { dataDir, expandPath, findLocation, loadTarget, openTarget, pickLocation, resolveTarget } from "./target.js";

const ENV = { HOME: "/home/ann" };
const LOCAL_URL = "http://127.0.0.1:4010";

describe("dataDir and expandPath", () => {
  it("keeps the demo store under XDG_DATA_HOME, else ~/.local/share", () => {
    expect(dataDir({ XDG_DATA_HOME: "/x/data", HOME: "/home/ann" })).toBe("/x/data/backroom");
    expect(dataDir(ENV)).toBe("/home/ann/.local/share/backroom");
  });

  it("expands ~ and makes relative paths absolute", () => {
    expect(expandPath("~", ENV)).toBe("/home/ann");
    expect(expandPath("~/week.csv", ENV)).toBe("/home/ann/week.csv");
    expect(expandPath("week.csv", ENV, "/srv")).toBe("/srv/week.csv");
    expect(expandPath("/abs/w.csv", ENV, "/srv")).toBe("/abs/w.csv");
    expect(expandPath("~bob/w.csv", ENV, "/srv")).toBe("/srv/~bob/w.csv");
  });
});

describe("resolveTarget: flags, then environment variables, then the config file, then the demo store", () => {
  it("is the demo store in the data folder when nothing says otherwise", () => {
    expect(resolveTarget({}, ENV, {})).toEqual({
      kind: "demo",
      label: "DEMO",
      environment: "local",
      dbPath: "/home/ann/.local/share/backroom/demo.db",
      from: "the default",
      defaultLocationId: undefined,
    });
    expect(resolveTarget({ db: ":memory:" }, ENV, {})).toMatchObject({
      kind: "demo",
      dbPath: ":memory:",
      from: "--db",
    });
    expect(resolveTarget({ db: "~/s.db" }, ENV, {})).toMatchObject({ dbPath: "/home/ann/s.db" });
  });

  it("takes the config file when no flag or variable names a place", () => {
    expect(resolveTarget({}, ENV, { environment: "sandbox", applicationId: "sq0idp-a" })).toEqual({
      kind: "service",
      label: "SANDBOX",
      environment: "sandbox",
      baseUrl: "https://connect.squareupsandbox.com",
      applicationId: "sq0idp-a",
      squareVersion: undefined,
      from: "the config file",
      defaultLocationId: undefined,
    });
    expect(resolveTarget({}, ENV, { environment: "local", baseUrl: LOCAL_URL })).toMatchObject({
      kind: "service",
      label: "LOCAL",
      baseUrl: LOCAL_URL,
    });
    // `local` without an address is the demo store.
    expect(resolveTarget({}, ENV, { environment: "local" })).toMatchObject({ kind: "demo", from: "the config file" });
  });

  it("lets environment variables win over the config file, and flags over both", () => {
    const config = { environment: "sandbox" as const };
    const vars = { ...ENV, BACKROOM_ENV: "production" };
    expect(resolveTarget({}, vars, config)).toMatchObject({ environment: "production", from: "BACKROOM_ENV" });
    expect(resolveTarget({ env: "demo" }, vars, config)).toMatchObject({ kind: "demo", from: "--env" });
    expect(resolveTarget({ db: ":memory:" }, vars, config)).toMatchObject({ kind: "demo", from: "--db" });
    expect(resolveTarget({}, { ...ENV, BACKROOM_BASE_URL: LOCAL_URL }, {})).toMatchObject({
      kind: "service",
      environment: "local",
      baseUrl: LOCAL_URL,
      from: "BACKROOM_BASE_URL",
    });
  });

  it("never sends another environment's calls to the address a lower layer names", () => {
    const config = { environment: "local" as const, baseUrl: LOCAL_URL };
    expect(resolveTarget({}, ENV, config)).toMatchObject({ baseUrl: LOCAL_URL });
    expect(resolveTarget({ env: "sandbox" }, ENV, config)).toMatchObject({
      baseUrl: "https://connect.squareupsandbox.com",
    });
    expect(resolveTarget({ env: "local" }, ENV, config)).toMatchObject({ kind: "service", baseUrl: LOCAL_URL });
    expect(resolveTarget({ env: "demo" }, ENV, config)).toMatchObject({ kind: "demo" });
    expect(resolveTarget({ "base-url": "http://127.0.0.1:9" }, ENV, config)).toMatchObject({
      environment: "local",
      baseUrl: "http://127.0.0.1:9",
    });
  });

  it("refuses bad words, bad addresses and contradictions as usage errors", () => {
    const usage = (f: Parameters<typeof resolveTarget>[0], vars: Record<string, string> = ENV) => {
      try {
        resolveTarget(f, vars, {});
      } catch (err) {
        expect(err).toBeInstanceOf(UsageError);
        return (err as Error).message;
      }
      throw new Error("accepted");
    };
    expect(usage({ "base-url": "notaurl" })).toBe(
      '--base-url must be an http(s) address such as http://127.0.0.1:8080, not "notaurl"',
    );
    expect(usage({ env: "staging" })).toBe('--env must be one of demo, local, sandbox, production, not "staging"');
    expect(usage({}, { ...ENV, BACKROOM_ENV: "prod" })).toBe(
      'BACKROOM_ENV must be one of demo, local, sandbox, production, not "prod"',
    );
    expect(usage({}, { ...ENV, BACKROOM_BASE_URL: "ftp://x" })).toContain(
      "BACKROOM_BASE_URL must be an http(s) address",
    );
    expect(usage({ env: "demo", "base-url": LOCAL_URL })).toContain("--env demo is the demo store in this process");
    expect(usage({ env: "sandbox", db: "x.db" })).toBe(
      "--db is the demo store's file; it does not go with --env sandbox",
    );
    expect(usage({ "base-url": LOCAL_URL }, { ...ENV, BACKROOM_ENV: "demo" })).toBe(
      `BACKROOM_ENV=demo names the demo store in this process, but --base-url names a service at ${LOCAL_URL}; give one`,
    );
  });
});

describe("loadTarget", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "backroom-target-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads the config file and reports a malformed one by file and field, whatever the flags say", async () => {
    const env = { HOME: dir, XDG_CONFIG_HOME: join(dir, "c"), XDG_DATA_HOME: join(dir, "d") };
    expect((await loadTarget({}, env)).target).toMatchObject({ kind: "demo", dbPath: join(dir, "d/backroom/demo.db") });
    await mkdir(join(dir, "c", "backroom"), { recursive: true });
    await writeFile(join(dir, "c", "backroom", "config.json"), '{"environment": "sandbox", "defaultLocationId": "L9"}');
    expect((await loadTarget({}, env)).target).toMatchObject({ environment: "sandbox", defaultLocationId: "L9" });
    await writeFile(join(dir, "c", "backroom", "config.json"), '{"environment": "prod"}');
    await expect(loadTarget({ env: "demo" }, env)).rejects.toBeInstanceOf(ConfigError);
    await expect(loadTarget({}, env)).rejects.toThrow('field "environment" must be one of local, sandbox, production');
  });
});

describe("findLocation and pickLocation", () => {
  const locations = [
    { id: "L1", name: "Main Street" },
    { id: "L2", name: "Harbor Kiosk" },
  ];

  it("matches an id, or a name in any case", () => {
    expect(findLocation(locations, "L2")?.name).toBe("Harbor Kiosk");
    expect(findLocation(locations, "main street")?.id).toBe("L1");
    expect(findLocation(locations, " HARBOR KIOSK ")?.id).toBe("L2");
    expect(findLocation(locations, "Nowhere")).toBeUndefined();
  });

  it("takes --location, else the config's default, else the first; reports what matches nothing", () => {
    expect(pickLocation(locations, "harbor kiosk", "L1").id).toBe("L2");
    expect(pickLocation(locations, undefined, "L2").id).toBe("L2");
    expect(pickLocation(locations, undefined, undefined).id).toBe("L1");
    const missing = (() => {
      try {
        pickLocation(locations, "Nowhere", undefined);
      } catch (err) {
        return err as CommandError;
      }
    })();
    expect(missing).toBeInstanceOf(CommandError);
    expect(missing?.exitCode).toBe(2);
    expect(missing?.message).toBe('no location "Nowhere"; there are: Main Street, Harbor Kiosk');
    expect(() => pickLocation(locations, undefined, "L404")).toThrow(
      'the config file\'s defaultLocationId "L404" names no location here; there are: Main Street, Harbor Kiosk',
    );
    expect(() => pickLocation([], undefined, undefined)).toThrow("the merchant has no locations");
  });
});

describe("openTarget without a sign-in", () => {
  const sandbox = resolveTarget({ env: "sandbox" }, ENV, {});

  it("says how to sign in, and always how to give a token instead", async () => {
    const keychain = {
      getPassword: async () => null,
      setPassword: async () => {},
      deletePassword: async () => false,
    };
    // A keychain that keeps what it is given: login can keep a sign-in there.
    const kept = new Map<string, string>();
    const working = {
      getPassword: async (s: string, a: string) => kept.get(`${s}/${a}`) ?? null,
      setPassword: async (s: string, a: string, p: string) => {
        kept.set(`${s}/${a}`, p);
      },
      deletePassword: async (s: string, a: string) => kept.delete(`${s}/${a}`),
    };
    await expect(openTarget(sandbox, ENV, { keytar: working })).rejects.toThrow(
      "not signed in to sandbox. Run `backroom login --env sandbox` first, or set BACKROOM_ACCESS_TOKEN (a personal access token for sandbox).",
    );
    for (const keytar of [null, keychain]) {
      const err = await openTarget(sandbox, ENV, { keytar }).catch((e) => e);
      expect(err).toBeInstanceOf(CommandError);
      expect(err.message).toBe(
        "not signed in to sandbox. There is no working OS keychain here, so `backroom login` cannot keep a sign-in; set BACKROOM_ACCESS_TOKEN (a personal access token for sandbox) instead.",
      );
    }
  });
});
