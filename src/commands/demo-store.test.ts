import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDemoService } from "./demo-store.js";
import { CommandError } from "./io.js";

describe("the demo store's file", () => {
  it("says in words why its folder cannot be made, as the app and every command show it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "backroom-demo-store-"));
    writeFileSync(join(dir, "not-a-folder"), "");
    const dbPath = join(dir, "not-a-folder", "backroom", "demo.db");
    const opened = openDemoService(dbPath);
    await expect(opened).rejects.toBeInstanceOf(CommandError);
    await expect(opened).rejects.toThrow(
      `the demo store cannot be made at ${dbPath}: cannot open ${dbPath}.token: part of the path is a file, not a folder (ENOTDIR, open)`,
    );
  });
});
