import { createService } from "../../src/service/index.js";
import { rng } from "../../src/service/seed/random.js";
import { createClient } from "../../src/square/client.js";
import { createStore } from "../../src/state/index.js";
import { renderApp } from "../../src/ui/run-app.js";
import { FakeStdin, FakeStdout } from "../helpers/terminal.js";
import { atLeast, check, exactly, type Figure, type Section } from "./section.js";

const SIZES: readonly [number, number][] = [
  [20, 5],
  [40, 10],
  [60, 16],
  [80, 24],
  [100, 30],
  [61, 17],
];

const KEYS = [":", "/", "2", "1", "3", "4", "6", "d", "e", "j", "k", "G", "g", "?", "\u001b", "\r", "\t", "\u007f"];
const SEQUENCES = [
  "\u001b[A",
  "\u001b[B",
  "\u001b[C",
  "\u001b[D",
  "\u001b[31m",
  "\u001b[2J",
  "\u001b[?25l",
  "\u001b[200~",
  "\u001b]0;x\u0007",
  "\u001b[1;5C",
  "\u001bOP",
];

async function until(test: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
  return true;
}

/**
 * Hostile terminal input against the real app (in-process, on the local service): pasted control
 * and escape sequences, bytes that are not UTF-8, pastes up to 100 KB, keys that open forms, and
 * resizes down to 20×5 between them. The app must stay up, keep drawing within the terminal's
 * width, answer keys afterwards, and keep a half-typed form across a resize.
 */
export const terminalSection: Section = {
  name: "terminal",
  title: "Hostile terminal input to the app",
  async run(ctx) {
    const cases = ctx.mode === "full" ? 1500 : 60;
    const maxPaste = ctx.mode === "full" ? 100_000 : 5000;
    const random = rng(ctx.seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
    const service = createService({});
    const url = await service.listen(0, "127.0.0.1");
    const client = createClient({ baseUrl: url, accessToken: service.accessToken, maxRetries: 0 });
    const store = createStore({ client, dataDir: `${ctx.tmp}/terminal-data` });
    const stdout = new FakeStdout(100, 30);
    const stdin = new FakeStdin();
    let crashes = 0;
    const onCrash = (err: unknown) => {
      crashes += 1;
      ctx.log(`terminal: uncaught ${err instanceof Error ? err.stack : String(err)}`);
    };
    process.on("uncaughtException", onCrash);
    const { instance, keys } = renderApp({
      store,
      stdin,
      stdout: stdout as unknown as NodeJS.WriteStream,
      color: false,
      debug: true,
    });
    let overflow = 0;
    const watchWidth = () => {
      if (stdout.columns < 60) return;
      for (const line of stdout.last.split("\n")) {
        if ([...line].length <= stdout.columns) continue;
        overflow += 1;
        if (overflow <= 3) ctx.log(`terminal: a line wider than ${stdout.columns} columns: ${JSON.stringify(line)}`);
      }
    };
    const send = async (chunk: string) => {
      stdin.write(chunk);
      await until(() => keys.idle(), 30_000);
      // The frame drawn for the current size (a resize is drawn once the keys have settled).
      await new Promise((r) => setTimeout(r, 5));
      watchWidth();
    };
    try {
      await until(() => stdout.last.includes("Who is here"), 30_000);
      let sent = 0;
      for (let i = 0; i < cases; i++) {
        const kind = random();
        let chunk: string;
        if (kind < 0.3) chunk = Array.from({ length: 1 + Math.floor(random() * 6) }, () => pick(KEYS)).join("");
        else if (kind < 0.5)
          chunk = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(SEQUENCES)).join("x");
        else if (kind < 0.7)
          chunk = Buffer.from(
            Array.from({ length: 1 + Math.floor(random() * 40) }, () => Math.floor(random() * 256)),
          ).toString("latin1");
        else if (kind < 0.78) chunk = "p".repeat(1 + Math.floor(random() * maxPaste));
        // Any control key but ctrl+c on its own, which quits, as it should.
        else if (kind < 0.9) chunk = String.fromCharCode(pick([...Array(32).keys()].filter((c) => c !== 3)));
        else {
          const [c, r] = pick(SIZES);
          stdout.resize(c, r);
          chunk = pick(KEYS);
        }
        sent += chunk.length;
        await send(chunk);
      }
      // Afterwards: a normal terminal, out of any form, and the review answers its key.
      stdout.resize(100, 30);
      for (let i = 0; i < 3; i++) await send("\u001b");
      await send("1");
      await send("2");
      const responds = await until(() => stdout.last.includes("Workday"), 10_000);
      if (!responds) ctx.log(`terminal: after the storm the app shows:\n${stdout.last}`);
      // A half-typed form survives the terminal shrinking to 20×5 and growing back.
      await send("d");
      await until(() => stdout.last.includes("Workdays to review"), 5000);
      await send("\u0015");
      await send("2026-01-0");
      stdout.resize(20, 5);
      await until(() => stdout.last.includes("Too small"), 5000);
      stdout.resize(100, 30);
      const kept = await until(() => stdout.last.includes("From: 2026-01-0"), 5000);
      if (!kept) ctx.log(`terminal: after the resize the app shows:\n${stdout.last}`);
      const figures: Figure[] = [
        atLeast("hostile chunks sent", cases, cases),
        { label: "characters sent", value: sent.toLocaleString("en-US"), ok: true },
        exactly("uncaught errors (crashes)", crashes),
        exactly("frames wider than the terminal (60 columns and up)", overflow),
        check("answers keys afterwards", responds),
        check("a half-typed form survives a resize to 20×5", kept),
      ];
      return figures;
    } finally {
      process.off("uncaughtException", onCrash);
      instance.unmount();
      await client.close();
      await service.close();
    }
  },
};
