// `backroom stocktake import FILE --location L`: a count file from a script or an offline scanner
// read into a new open count, on the same journal and commit as the app's Stocktake screen.
import { basename } from "node:path";
import { MAX_COUNT_FILE_BYTES, MAX_COUNT_FILE_LINES } from "../domain/limits.js";
import { memberName } from "../domain/shifts.js";
import type { CountLine, StockItem } from "../domain/stocktake.js";
import { type CountFileProblem, type CountFileRow, parseCountFile } from "../domain/stocktake-csv.js";
import { tallyRows } from "../domain/stocktake-import.js";
import type { StocktakeJournal } from "../local/stocktake-journal.js";
import type { Location, TeamMember } from "../spec/generated/types.js";
import type { SquareClient } from "../square/index.js";
import { findCodes, readExpected } from "../state/stocktake-source.js";
import { type CommandSpec, readArgs, UsageError } from "./args.js";
import { readNamedFile } from "./file-problem.js";
import { CommandError, type CommandIo, say } from "./io.js";
import { runCommand } from "./run.js";
import {
  EXIT_CODES,
  EXIT_REFUSED,
  finish,
  JSON_OPTION,
  LOCATION,
  locationOf,
  merchantOf,
  type StocktakeDeps,
  withStore,
} from "./stocktake.js";
import { stamp } from "./stocktake-output.js";
import { checkTargetFlags, expandPath, TARGET_OPTIONS, targetFlags } from "./target.js";

/** `backroom stocktake import`'s command line. */
export const IMPORT_SPEC = {
  name: "backroom stocktake import",
  summary:
    "Reads a count file into a new open count at the location and prints its review: totals, and the largest differences from the books. The file is CSV with a header naming the columns sku (or upc) and quantity; other columns are ignored. Commas, semicolons or tabs may separate the columns (with semicolons or tabs, 1,5 is 1.5). Rows of the same item always add up (one row per shelf, or per scan), as +N does on the app's counting line; -N takes back; =N (replace) is refused in a file. Lines are counted at the file's last modification. Rows that cannot be used (unknown code, bad quantity) are listed with their line numbers and do not stop the rest; unknown codes are kept with the count, to be resolved in the app.",
  positionals: [{ name: "FILE", help: "the count file (CSV)" }],
  options: {
    location: LOCATION,
    commit: { type: "boolean", help: "commit the count once read (physical counts, in requests of 100)" },
    "counted-by": { type: "string", value: "ID|NAME", help: "the team member who counted (default: none named)" },
    json: JSON_OPTION,
    ...TARGET_OPTIONS,
  },
  details: EXIT_CODES,
} as const satisfies CommandSpec;

/** The count file: its rows, the rows it could not read, and when it was last changed. */
async function readCountFile(
  path: string,
): Promise<{ rows: CountFileRow[]; problems: CountFileProblem[]; modified: Date }> {
  const rows = MAX_COUNT_FILE_LINES.toLocaleString("en-US");
  const read = await readNamedFile(
    path,
    MAX_COUNT_FILE_BYTES,
    (size, most) =>
      `${path} is ${size}; a count file may be up to ${most} (${rows} rows). Check that this is the count file; nothing was imported.`,
  );
  const parsed = parseCountFile(read.text);
  if (!parsed.ok) throw new CommandError(`${path}: ${parsed.problem}`, 2);
  return { rows: parsed.rows, problems: [...parsed.problems], modified: read.modified };
}

async function findMember(client: SquareClient, locationId: string, wanted: string): Promise<TeamMember> {
  const members = await client.team
    .searchTeamMembers({ query: { filter: { location_ids: [locationId], status: "ACTIVE" } }, limit: 200 })
    .all();
  const folded = wanted.trim().toLocaleLowerCase();
  const found =
    members.find((m) => m.id === wanted) ?? members.find((m) => memberName(m).toLocaleLowerCase() === folded);
  if (!found) {
    throw new CommandError(
      `no team member ${JSON.stringify(wanted)} at this location; there are: ${members.map(memberName).join(", ") || "none"}`,
      2,
    );
  }
  return found;
}

/** Every code of the file looked up at once, by the column it came from (`sku:HT-1`, `upc:0712…`). */
async function lookUpCodes(client: SquareClient, locationId: string, rows: readonly CountFileRow[]) {
  const found = new Map<string, StockItem>();
  for (const kind of ["sku", "upc"] as const) {
    const codes = rows.filter((r) => r.codeKind === kind).map((r) => r.code);
    if (codes.length === 0) continue;
    const res = await findCodes(client, locationId, kind, codes);
    for (const [code, item] of res.found) found.set(`${kind}:${code}`, item);
  }
  return found;
}

/** Journals the new count: its header with the items counted and their books, then its lines and unknown codes. */
async function journalCount(
  client: SquareClient,
  journal: StocktakeJournal,
  at: { location: Location & { id: string }; merchantId: string; now: Date; countedAt: string; file: string },
  counted: { totals: Map<string, string>; unknown: Set<string>; items: StockItem[]; counter: TeamMember | undefined },
) {
  const { location, now, countedAt } = at;
  const countedBy = counted.counter?.id ?? "";
  const { counts } = await readExpected(client, location.id);
  const header = journal.startCount(
    {
      merchantId: at.merchantId,
      locationId: location.id,
      locationName: location.name ?? location.id,
      timeZone: location.timezone ?? "UTC",
      scope: { kind: "file", file: at.file },
      counterId: countedBy,
      counterName: counted.counter ? memberName(counted.counter) : "",
      startedAt: now.toISOString(),
    },
    counted.items,
    new Map([...counts].filter(([id]) => counted.totals.has(id))),
    now,
  );
  const lines: CountLine[] = [...counted.totals].map(([variationId, quantity]) => ({
    variationId,
    quantity,
    countedAt,
    countedBy,
    expected: counts.get(variationId)?.quantity ?? "0",
  }));
  journal.recordLines(header.id, lines);
  for (const code of counted.unknown) journal.recordUnknown(header.id, code, countedAt);
  return header;
}

/** `backroom stocktake import FILE --location L [--commit] [--json]`. */
export async function runStocktakeImport(argv: string[], io: CommandIo, deps: StocktakeDeps = {}): Promise<number> {
  const read = readArgs(io, IMPORT_SPEC, argv, ({ values, positionals }) => {
    checkTargetFlags(values);
    if (!values.location) throw new UsageError("--location is required: a count is of one location");
    return { ...values, location: values.location, file: positionals[0] ?? "" };
  });
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, IMPORT_SPEC.name, async () => {
    const path = expandPath(opts.file, io.env);
    const file = await readCountFile(path);
    const problems = file.problems;
    return withStore(io, targetFlags(opts), deps, async ({ client, journal }) => {
      const now = deps.now?.() ?? new Date();
      const location = await locationOf(client, opts.location);
      const merchantId = location.merchant_id ?? (await merchantOf(client));
      const open = journal.openCountAt(merchantId, location.id);
      if (open) {
        throw new CommandError(
          `a count is already open at ${location.name} (${open.id}, started ${stamp(open.startedAt, open.timeZone)}). Commit or discard it first: \`backroom stocktake resume --location ${JSON.stringify(opts.location)}\`.`,
        );
      }
      const counter = opts["counted-by"] ? await findMember(client, location.id, opts["counted-by"]) : undefined;
      const found = await lookUpCodes(client, location.id, file.rows);
      const { totals, unknown } = tallyRows(file.rows, found, problems);
      problems.sort((a, b) => a.line - b.line);
      for (const p of problems) say(io.stderr, `${basename(path)} line ${p.line}: ${p.problem}`);
      if (totals.size === 0 && unknown.size === 0) {
        throw new CommandError(`${path}: no row could be counted; nothing was imported`, 2);
      }
      const items = [...new Map([...found.values()].map((i) => [i.variationId, i])).values()].filter((i) =>
        totals.has(i.variationId),
      );
      const countedAt = (file.modified.getTime() > now.getTime() ? now : file.modified).toISOString();
      const at = { location, merchantId, now, countedAt, file: basename(path) };
      const header = await journalCount(client, journal, at, { totals, unknown, items, counter });
      const code = await finish(io, journal, client, header, opts, deps);
      return problems.length > 0 && code === 0 ? EXIT_REFUSED : code;
    });
  });
}
