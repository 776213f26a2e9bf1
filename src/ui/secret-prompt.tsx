import { Box, render, Text, useApp, useInput } from "ink";
import { useState } from "react";
import { TextField } from "./components/TextField.js";
import { type KeySource, KeyStream } from "./key-stream.js";

/** Asked for a secret and given none: the manager pressed esc or ctrl+c. */
export class PromptCancelled extends Error {
  override name = "PromptCancelled";
}

function SecretPrompt({ label, onDone }: { label: string; onDone: (value: string | undefined) => void }) {
  const [value, setValue] = useState("");
  const { exit } = useApp();
  const finish = (v: string | undefined) => {
    onDone(v);
    exit();
  };
  useInput((input, key) => {
    if (key.escape || (key.ctrl && input === "c")) finish(undefined);
  });
  return (
    <Box>
      <Text>{label}</Text>
      <TextField value={value} focus mask="•" maxLength={4096} onChange={setValue} onSubmit={(v) => finish(v.trim())} />
    </Box>
  );
}

/**
 * Asks for a secret on the terminal with an ink-text-input field masked with `•`: the cursor,
 * editing in the middle and paste work, and nothing typed is shown. Rejects with
 * {@link PromptCancelled} on esc or ctrl+c.
 */
export async function askSecret(label: string, io: { stdin: KeySource; stdout: NodeJS.WriteStream }): Promise<string> {
  let answer: string | undefined;
  // Pastes arrive whole (a token is one paste); Enter after it is its own key.
  const keys = new KeyStream(io.stdin, { textMode: () => true });
  const instance = render(<SecretPrompt label={label} onDone={(v) => (answer = v)} />, {
    stdin: keys as unknown as NodeJS.ReadStream,
    stdout: io.stdout,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  await instance.waitUntilExit();
  instance.cleanup();
  if (answer === undefined) throw new PromptCancelled("cancelled");
  return answer;
}
