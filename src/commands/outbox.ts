// `backroom outbox list|send`: the writes kept on this machine while the service did not answer
// (the app's outbox), for a script or a terminal without the app — listed, or sent now, in the
// order made with their own keys, exactly as the app sends them when the service answers again.
import { existsSync } from "node:fs";
import type { KeptEntry } from "../domain/kept-writes.js";
import { localDate, localTime, machineTimeZone } from "../domain/time.js";
import { type Outbox, openOutbox, outboxPath } from "../local/outbox.js";
import { flushOutbox } from "../state/outbox-flush.js";
import { type CommandSpec, readArgs } from "./args.js";
import { type CommandIo, say } from "./io.js";
import { runCommand } from "./run.js";
import {
  checkTargetFlags,
  dataDir,
  describeTarget,
  loadTarget,
  type OpenedClient,
  outboxServiceOf,
  TARGET_OPTIONS,
  type Target,
  withTargetClient,
} from "./target.js";

/** Some kept writes were refused: they wait in To resolve (the app's `!`). */
export const EXIT_REFUSED = 3;
/** The service did not answer: the writes are still kept. */
export const EXIT_NOT_SENT = 4;

/** `backroom outbox list`'s command line. */
export const OUTBOX_LIST_SPEC = {
  name: "backroom outbox list",
  summary:
    "Lists the changes kept on this machine for where backroom works (made while the service did not answer), in the order they are sent, with those the service refused.",
  options: { ...TARGET_OPTIONS, json: { type: "boolean", help: "print the writes as JSON records, and nothing else" } },
} as const satisfies CommandSpec;

/** `backroom outbox send`'s command line. */
export const OUTBOX_SEND_SPEC = {
  name: "backroom outbox send",
  summary:
    "Sends the changes kept on this machine now, in the order made, each with its own key (never twice, even if a backroom is sending them at the same time).",
  options: TARGET_OPTIONS,
  details: `Exits 0 when every kept change was sent, ${EXIT_REFUSED} when the service refused some (they wait in the app's To resolve, \`!\`), ${EXIT_NOT_SENT} when the service did not answer (they stay kept).`,
} as const satisfies CommandSpec;

/** The outbox file of the data folder, when there is one (none: nothing was ever kept). */
async function openExisting(io: CommandIo): Promise<Outbox | undefined> {
  const path = outboxPath(dataDir(io.env));
  return existsSync(path) ? openOutbox(path) : undefined;
}

/** The writes kept for a target, in the order they go (none without an outbox file). */
export async function keptFor(io: CommandIo, target: Target): Promise<KeptEntry[]> {
  const box = await openExisting(io);
  try {
    return box?.open(outboxServiceOf(target)) ?? [];
  } finally {
    box?.close();
  }
}

/** One kept write as a line: `#3  kept        2026-11-20 09:00  Clock in Ana Lopez at 09:00`. */
export function keptLine(e: KeptEntry): string {
  const tz = machineTimeZone();
  const state = e.state === "refused" ? "to resolve" : e.state === "sent" ? "sent, no answer" : "kept";
  const line = `#${e.seq}  ${state.padEnd(15)} ${localDate(e.actedAt, tz)} ${localTime(e.actedAt, tz)}  ${e.label}`;
  return e.state === "refused" && e.problem ? `${line}\n      ${e.problem}` : line;
}

/** As JSON for scripts: the write's data and where it stands. */
function keptRecord(e: KeptEntry) {
  return {
    seq: e.seq,
    state: e.state,
    label: e.label,
    actedAt: e.actedAt,
    actor: e.actor,
    idempotencyKey: e.idempotencyKey,
    ...(e.dependsOn === undefined ? {} : { dependsOn: e.dependsOn }),
    ...(e.problem ? { problem: e.problem, details: e.details } : {}),
    write: e.write,
  };
}

/** `backroom outbox list`. */
export async function runOutboxList(argv: string[], io: CommandIo): Promise<number> {
  const read = readArgs(io, OUTBOX_LIST_SPEC, argv, (a) => {
    checkTargetFlags(a.values);
    return a.values;
  });
  if ("exit" in read) return read.exit;
  return runCommand(io, OUTBOX_LIST_SPEC.name, async () => {
    const { target } = await loadTarget(read.value, io.env);
    const kept = await keptFor(io, target);
    if (read.value.json) {
      say(io.stdout, JSON.stringify(kept.map(keptRecord), null, 2));
      return 0;
    }
    if (kept.length === 0) say(io.stdout, `Nothing is kept on this machine for ${describeTarget(target)}.`);
    else {
      say(io.stdout, `${kept.length} kept on this machine for ${describeTarget(target)}, sent in this order:`);
      for (const e of kept) say(io.stdout, `  ${keptLine(e)}`);
    }
    return 0;
  });
}

/** `backroom outbox send`. */
export async function runOutboxSend(argv: string[], io: CommandIo): Promise<number> {
  const read = readArgs(io, OUTBOX_SEND_SPEC, argv, (a) => {
    checkTargetFlags(a.values);
    return a.values;
  });
  if ("exit" in read) return read.exit;
  return runCommand(io, OUTBOX_SEND_SPEC.name, async () => {
    const box = await openExisting(io);
    if (!box) {
      say(io.stdout, "Nothing is kept on this machine.");
      return 0;
    }
    try {
      return await withTargetClient<OpenedClient, number>(io, read.value, undefined, async (opened) => {
        const service = outboxServiceOf(opened.target);
        const result = await flushOutbox({
          outbox: box,
          service,
          client: opened.client,
          now: () => new Date(),
          onEvent: (e) => {
            if (e.kind === "accepted") say(io.stdout, `sent     ${e.entry.label}`);
            if (e.kind === "refused") say(io.stdout, `refused  ${e.refusal.problem}`);
          },
        });
        const open = box.open(service);
        const refused = open.filter((e) => e.state === "refused").length;
        const left = open.length - refused;
        say(io.stdout, `${result.sent} sent, ${result.refused} refused, ${left} still kept.`);
        const stop = result.stop;
        if (stop && stop.kind !== "aborted") {
          const why = "problem" in stop ? stop.problem : "The service did not answer.";
          say(io.stderr, `backroom outbox send: ${why} (${stop.details})`);
          return EXIT_NOT_SENT;
        }
        if (refused > 0) return EXIT_REFUSED;
        // Not stopped, nothing refused: what is left is being sent by another backroom of this machine.
        if (left > 0) say(io.stdout, `${left} being sent by another backroom on this machine.`);
        return 0;
      });
    } finally {
      box.close();
    }
  });
}
