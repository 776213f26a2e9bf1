import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

// `npm run reliability` bundles its runner into one file, where every module that waits at start-up
// (Ink's) is started by a promise. An import cycle through such a module (the shell and the
// screens' stand-ins once imported each other) left that bundle waiting on itself: it exited 13
// before printing a line, while the fast run in test/reliability.test.ts, not bundled, passed.
describe("npm run reliability", () => {
  it("starts: its bundle loads, reads its options and names its sections", () => {
    const run = spawnSync(process.execPath, ["scripts/reliability.mjs", "--only", "no-such-section"], {
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(run.stderr).toContain("reliability: no section no-such-section; there are fuzz, auth");
    expect(run.status).toBe(2);
  }, 130_000);
});
