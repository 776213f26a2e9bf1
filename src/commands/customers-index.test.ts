import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readyIndex } from "./customers-index.js";

describe("the customer index of the commands", () => {
  it("says in words why this machine cannot keep it, then asks the service", async () => {
    const dir = mkdtempSync(join(tmpdir(), "backroom-customers-index-"));
    writeFileSync(join(dir, "file"), "");
    const path = join(dir, "file", "backroom", "customers.db");
    const stderr = new PassThrough();
    let said = "";
    stderr.on("data", (c: Buffer) => {
      said += c.toString();
    });
    const never = () => {
      throw new Error("no call is made without an index");
    };
    const client = { customers: { listCustomers: never, searchCustomers: never } } as unknown as Parameters<
      typeof readyIndex
    >[0];
    expect(await readyIndex(client, path, [], stderr)).toBeUndefined();
    expect(said).toBe(
      `backroom: the customer index cannot be kept at ${path}: cannot make the folder ${join(dir, "file", "backroom")}: part of the path is a file, not a folder (ENOTDIR, mkdir); asking the service\n`,
    );
  });
});
