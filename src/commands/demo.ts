import { type CommandSpec, intOption, readArgs, UsageError } from "./args.js";
import { indexStoreKey, removeCustomerIndexes } from "./customer-index-file.js";
import { type CommandIo, say } from "./io.js";
import { runCommand } from "./run.js";
import { defaultDemoDb, expandPath } from "./target.js";

/** `backroom demo reset`'s command line. */
export const DEMO_RESET_SPEC = {
  name: "backroom demo reset",
  summary:
    "Starts the demo store over: every clock-in, edit and count made on it is gone, and the demo data is laid out afresh; its customer index on this machine is removed (built again on first use). A backroom still open on the store sees the new one at its next reload.",
  options: {
    db: {
      type: "string",
      value: "FILE",
      help: "the demo store's file (default: demo.db in the data folder, $XDG_DATA_HOME/backroom)",
    },
    scale: {
      type: "string",
      value: "N",
      help: "multiplies the demo volumes, 1 to 1000 (default 1), e.g. for benchmarks",
    },
  },
} as const satisfies CommandSpec;

/** `backroom demo reset`: the demo store, seeded afresh. */
export async function runDemoReset(argv: string[], io: CommandIo): Promise<number> {
  const read = readArgs(io, DEMO_RESET_SPEC, argv, ({ values }) => {
    if (values.db === ":memory:")
      throw new UsageError("--db :memory: is a new store every time; there is nothing to reset");
    if (values.db === "") throw new UsageError("--db needs a file name");
    return { dbPath: values.db, scale: intOption("scale", values.scale, 1, 1000) ?? 1 };
  });
  if ("exit" in read) return read.exit;
  const { scale } = read.value;
  const dbPath = read.value.dbPath === undefined ? defaultDemoDb(io.env) : expandPath(read.value.dbPath, io.env);
  return runCommand(io, DEMO_RESET_SPEC.name, async () => {
    const { resetDemoStore } = await import("./demo-store.js");
    const { existed } = await resetDemoStore(dbPath, { scale });
    // The customer index of the old store lists customers the new one does not have.
    removeCustomerIndexes(io.env, indexStoreKey({ kind: "demo", dbPath }));
    say(
      io.stdout,
      existed
        ? `The demo store at ${dbPath} was started over${scale > 1 ? ` at ${scale}× the demo volumes` : ""}.`
        : `Made a new demo store at ${dbPath}${scale > 1 ? ` at ${scale}× the demo volumes` : ""}.`,
    );
    return 0;
  });
}
