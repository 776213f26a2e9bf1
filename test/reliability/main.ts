import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Figure, Mode } from "./section.js";
import { SECTIONS } from "./sections.js";
import { buildCli, projectRoot } from "./serve-process.js";

/**
 * `npm run reliability`: runs every section (or `--only a,b`) in full (or `--fast`), prints each
 * figure beside its target, and exits 1 when a target is missed.
 */
async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      fast: { type: "boolean", default: false },
      only: { type: "string" },
      seed: { type: "string", default: "20260116" },
      cli: { type: "string" },
    },
  });
  const mode: Mode = values.fast ? "fast" : "full";
  const seed = Number(values.seed);
  if (!Number.isSafeInteger(seed)) throw new Error(`--seed must be a whole number, not ${values.seed}`);
  const only = values.only?.split(",").map((s) => s.trim()) ?? [];
  const unknown = only.filter((n) => !SECTIONS.some((s) => s.name === n));
  if (unknown.length > 0)
    throw new Error(`no section ${unknown.join(", ")}; there are ${SECTIONS.map((s) => s.name).join(", ")}`);
  const chosen = only.length > 0 ? SECTIONS.filter((s) => only.includes(s.name)) : SECTIONS;

  const cli = values.cli ?? buildCli(join(projectRoot, ".bench", "reliability", "cli"));
  const tmp = mkdtempSync(join(tmpdir(), "backroom-reliability-"));
  const log = (line: string) => process.stderr.write(`  · ${line}\n`);
  let missed = 0;
  try {
    console.log(`backroom reliability (${mode}, seed ${seed}) — Node ${process.versions.node}, ${process.platform}`);
    for (const section of chosen) {
      console.log(`\n${section.title} [${section.name}]`);
      const started = performance.now();
      let figures: Figure[];
      try {
        figures = await section.run({ mode, seed, cli, tmp, log });
      } catch (err) {
        figures = [
          {
            label: "the section ran to its end",
            value: err instanceof Error ? (err.stack ?? err.message) : String(err),
            target: "yes",
            ok: false,
          },
        ];
      }
      for (const f of figures) {
        if (!f.ok) missed++;
        const target = f.target ? `  (target ${f.target})` : "";
        console.log(`  ${f.ok ? "ok    " : "MISSED"} ${f.label}: ${f.value}${target}`);
      }
      console.log(`  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(missed === 0 ? "\nevery target met" : `\n${missed} target(s) missed`);
  return missed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`reliability: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  },
);
