import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { CommandIo } from "./io.js";
import { runCommand } from "./run.js";

function io(): { io: CommandIo; err: () => string } {
  const stderr = new PassThrough();
  let text = "";
  stderr.on("data", (c: Buffer) => {
    text += c.toString();
  });
  return { io: { stdout: new PassThrough(), stderr, stdin: new PassThrough(), env: {} }, err: () => text };
}

/** A file system error as Node makes one. */
function fsError(code: string, syscall: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: something, ${syscall} '${path}'`), { code, syscall, path, errno: -13 });
}

describe("runCommand", () => {
  it("says a folder it cannot make in words, with the path, exit 1", async () => {
    const t = io();
    const code = await runCommand(t.io, "backroom shifts list", async () => {
      throw fsError("EACCES", "mkdir", "/data/backroom");
    });
    expect(code).toBe(1);
    expect(t.err()).toBe(
      "backroom shifts list: cannot make the folder /data/backroom: permission denied (EACCES, mkdir)\n",
    );
  });

  it("lets anything else go on up", async () => {
    await expect(
      runCommand(io().io, "x", async () => {
        throw new TypeError("a bug");
      }),
    ).rejects.toThrow("a bug");
  });
});
