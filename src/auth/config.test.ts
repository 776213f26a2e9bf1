import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, configPath, loadConfig, parseConfig, saveConfig } from "./config.js";

describe("configPath", () => {
  it("uses XDG_CONFIG_HOME, else ~/.config", () => {
    expect(configPath({ XDG_CONFIG_HOME: "/x/conf", HOME: "/home/a" })).toBe("/x/conf/backroom/config.json");
    expect(configPath({ HOME: "/home/a" })).toBe("/home/a/.config/backroom/config.json");
  });
});

describe("parseConfig", () => {
  const file = "/etc/cfg.json";
  const errorOf = (text: string) => {
    try {
      parseConfig(text, file);
    } catch (err) {
      return err as ConfigError;
    }
    throw new Error("expected a ConfigError");
  };

  it("reads every known field", () => {
    const { config, warnings } = parseConfig(
      JSON.stringify({
        environment: "sandbox",
        baseUrl: "http://127.0.0.1:4010",
        applicationId: "sq0idp-x",
        defaultLocationId: "L1",
        squareVersion: "2024-01-18",
      }),
      file,
    );
    expect(config).toEqual({
      environment: "sandbox",
      baseUrl: "http://127.0.0.1:4010",
      applicationId: "sq0idp-x",
      defaultLocationId: "L1",
      squareVersion: "2024-01-18",
    });
    expect(warnings).toEqual([]);
  });

  it("names the file and the place of a JSON syntax error, without quoting the file", () => {
    const err = errorOf('{\n  "environment": "sandbox",\n  "applicationId": sq0idp-private\n}');
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.file).toBe(file);
    expect(err.message).toMatch(/^\/etc\/cfg\.json: is not valid JSON \(line 3, column 20\)$/);
    expect(err.message).not.toContain("sq0idp-private");
  });

  it("names the file and the field of a wrong value", () => {
    expect(errorOf('{"environment": "staging"}').message).toBe(
      '/etc/cfg.json: field "environment" must be one of local, sandbox, production',
    );
    expect(errorOf('{"baseUrl": "ftp://x"}').field).toBe("baseUrl");
    expect(errorOf('{"squareVersion": "2024/01/18"}').message).toContain('field "squareVersion" must be a date');
    expect(errorOf('{"applicationId": 42}').message).toContain('field "applicationId" must be a non-empty string');
    expect(errorOf("[1]").message).toContain("must hold one JSON object");
  });

  it("reads the overtime rules, and names the setting at fault", () => {
    expect(parseConfig('{"overtime": {"dailyHours": 8}}', file).config.overtime).toEqual({
      weeklyHours: 40,
      dailyHours: 8,
      multiplier: 1.5,
    });
    expect(parseConfig("{}", file).config.overtime).toBeUndefined();
    const err = errorOf('{"overtime": {"weeklyHours": "forty"}}');
    expect(err.field).toBe("overtime.weeklyHours");
    expect(err.message).toBe('/etc/cfg.json: field "overtime.weeklyHours" must be a number of hours, not "forty"');
    expect(errorOf('{"overtime": {"multiplier": 0}}').message).toContain(
      'field "overtime.multiplier" must be from 1 to 10',
    );
    expect(errorOf('{"overtime": 40}').message).toContain('field "overtime" must be an object');
    // Daily double time (California's 12 h): read, and checked against the daily limit.
    expect(
      parseConfig('{"overtime": {"dailyHours": 8, "doubleTimeDailyHours": 12}}', file).config.overtime,
    ).toMatchObject({ dailyHours: 8, doubleTimeDailyHours: 12 });
    const double = errorOf('{"overtime": {"dailyHours": 8, "doubleTimeDailyHours": 6}}');
    expect(double.field).toBe("overtime.doubleTimeDailyHours");
    expect(double.message).toBe(
      '/etc/cfg.json: field "overtime.doubleTimeDailyHours" must be more than dailyHours (8): double time starts after overtime, not 6',
    );
  });

  it("reads the pay period, and names the setting at fault", () => {
    expect(parseConfig('{"payPeriod": {"every": "half-month"}}', file).config.payPeriod).toEqual({
      every: "half-month",
    });
    expect(errorOf('{"payPeriod": {"every": "two-weeks"}}').message).toMatch(
      /^\/etc\/cfg\.json: field "payPeriod.startingOn" must be the first day of one pay period/,
    );
  });

  it("refuses a secret in the file, naming the field but not the value", () => {
    for (const field of ["accessToken", "access_token", "clientSecret", "application_secret", "password"]) {
      const err = errorOf(JSON.stringify({ [field]: "EAAAl-very-secret-9999" }));
      expect(err.field).toBe(field);
      expect(err.message).toContain("secrets do not belong in the config file");
      expect(err.message).not.toContain("very-secret");
    }
  });

  it("warns about unknown fields instead of failing", () => {
    const { config, warnings } = parseConfig('{"theme": "dark", "environment": "local"}', file);
    expect(config).toEqual({ environment: "local" });
    expect(warnings).toEqual([expect.stringContaining('unknown field "theme" ignored')]);
  });
});

describe("loadConfig and saveConfig", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "backroom-config-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("treats a missing file as an empty config", async () => {
    expect(await loadConfig({ XDG_CONFIG_HOME: dir })).toEqual({
      path: join(dir, "backroom", "config.json"),
      exists: false,
      config: {},
      warnings: [],
    });
  });

  it("says in words why the file cannot be read", async () => {
    const path = join(dir, "backroom", "config.json");
    await mkdir(path, { recursive: true });
    await expect(loadConfig({ XDG_CONFIG_HOME: dir })).rejects.toThrow(
      new ConfigError(path, undefined, "cannot be read: it is a folder, not a file (EISDIR)"),
    );
  });

  it("writes only the known fields and reads them back", async () => {
    const env = { XDG_CONFIG_HOME: dir };
    const path = await saveConfig(env, { environment: "sandbox", applicationId: "sq0idp-x" });
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ environment: "sandbox", applicationId: "sq0idp-x" });
    expect((await loadConfig(env)).config).toEqual({ environment: "sandbox", applicationId: "sq0idp-x" });
  });

  it("keeps the overtime rules and pay period when the file is written again (by login)", async () => {
    const env = { XDG_CONFIG_HOME: dir };
    const overtime = { weeklyHours: 38, dailyHours: undefined, multiplier: 2, doubleTimeDailyHours: undefined };
    const payPeriod = { every: "two-weeks", startingOn: "2026-01-05" } as const;
    const path = await saveConfig(env, { environment: "sandbox", overtime, payPeriod });
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({
      environment: "sandbox",
      overtime: { weeklyHours: 38, multiplier: 2 },
      payPeriod,
    });
    expect((await loadConfig(env)).config.payPeriod).toEqual(payPeriod);
    expect((await loadConfig(env)).config.overtime).toEqual(overtime);
  });

  it("reports a malformed file as a ConfigError naming it", async () => {
    await mkdir(join(dir, "backroom"), { recursive: true });
    await writeFile(join(dir, "backroom", "config.json"), '{"environment": 3}');
    await expect(loadConfig({ XDG_CONFIG_HOME: dir })).rejects.toThrow(
      `${join(dir, "backroom", "config.json")}: field "environment" must be one of`,
    );
  });
});
