import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECTIONS } from "./reliability/sections.js";
import { buildCli } from "./reliability/serve-process.js";

// The fast run of `npm run reliability`: every section at its small size (a few hundred fuzz
// cases, one crash run, one fault run, a short load), each figure held to its target.
let cli: string;
let tmp: string;
const bundleDir = join(process.cwd(), ".bench", `reliability-test-${process.pid}`);

beforeAll(() => {
  cli = buildCli(bundleDir);
  tmp = mkdtempSync(join(tmpdir(), "backroom-reliability-"));
}, 60_000);

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
  rmSync(bundleDir, { recursive: true, force: true });
});

describe("reliability (fast)", () => {
  for (const section of SECTIONS) {
    it(`${section.name}: every figure meets its target`, async () => {
      const log: string[] = [];
      const figures = await section.run({ mode: "fast", seed: 20260116, cli, tmp, log: (l) => log.push(l) });
      const missed = figures.filter((f) => !f.ok).map((f) => `${f.label}: ${f.value} (target ${f.target})`);
      expect(missed, log.join("\n")).toEqual([]);
      expect(figures.length).toBeGreaterThan(0);
    }, 60_000);
  }
});
