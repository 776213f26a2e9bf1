import { describe, expect, it, vi } from "vitest";
import { FakeStdin, FakeStdout } from "../../test/helpers/app.js";
import { askSecret, PromptCancelled } from "./secret-prompt.js";

describe("the secret prompt", () => {
  it("masks what is typed, edits in the middle, and gives the text on Enter", async () => {
    const stdin = new FakeStdin();
    const stdout = new FakeStdout(80, 10);
    const answer = askSecret("Token: ", { stdin, stdout: stdout as unknown as NodeJS.WriteStream }, { debug: true });
    await vi.waitFor(() => expect(stdout.written).toContain("Token:"));
    stdin.write("EAAAsecret");
    await vi.waitFor(() => expect(stdout.written).toContain("••••••••••"));
    expect(stdout.written).not.toContain("secret");
    const before = stdout.written.length;
    // ← and X read at once: the key stream hands X over after ←'s render, whatever the timing.
    stdin.write("\u001b[D");
    stdin.write("X");
    await vi.waitFor(() => expect(stdout.written.slice(before)).toContain("•••••••••••"));
    stdin.write("\r");
    await expect(answer).resolves.toBe("EAAAsecreXt");
  });

  it("is cancelled by esc", async () => {
    const stdin = new FakeStdin();
    const stdout = new FakeStdout(80, 10);
    const answer = askSecret("Token: ", { stdin, stdout: stdout as unknown as NodeJS.WriteStream }, { debug: true });
    await vi.waitFor(() => expect(stdout.written).toContain("Token:"));
    stdin.write("\u001b");
    await expect(answer).rejects.toBeInstanceOf(PromptCancelled);
  });
});
