// Writing CSV files, one way for every export of the app and of the commands' `--out`: where a
// typed path points (the data folder's `exports/` by default), never over an existing file
// unless asked (every file checked before any is written), and failures in words.
import { mkdir, stat, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { errorCode, fileErrorWords } from "../domain/file-errors.js";
import type { WriteResult } from "./errors.js";

/** One file of an export: where it goes, its text, and what it holds in words (`12 shifts`). */
export interface CsvFile {
  path: string;
  text: string;
  what: string;
}

/** The file operations an export needs; tests may pass their own. */
export interface FileWriter {
  /** Writes a file; without `overwrite` an existing file is left alone and it rejects with EEXIST. */
  write(path: string, text: string, options: { overwrite: boolean }): Promise<void>;
  exists(path: string): Promise<boolean>;
  /** Makes a folder and the folders above it. */
  makeFolder(path: string): Promise<void>;
}

/** The machine's files. */
export const nodeFiles: FileWriter = {
  write: (path, text, { overwrite }) => writeFile(path, text, { encoding: "utf8", flag: overwrite ? "w" : "wx" }),
  exists: (path) =>
    stat(path).then(
      () => true,
      () => false,
    ),
  makeFolder: async (path) => {
    await mkdir(path, { recursive: true });
  },
};

/** The folder exports go to unless told otherwise: `exports/` in the app's data folder. */
export function exportsFolder(dataDir: string): string {
  return join(dataDir, "exports");
}

/**
 * Where a typed path points: empty is the default name in the exports folder; a bare file name
 * goes into the exports folder too; `~` is the home folder; a relative path with a folder in it
 * is taken from the current folder, as a shell would.
 */
export function resolveExportPath(
  typed: string,
  where: { dataDir: string; defaultName: string; home?: string; cwd?: string },
): string {
  const t = typed.trim();
  const home = where.home ?? homedir();
  if (t === "") return join(exportsFolder(where.dataDir), where.defaultName);
  if (t === "~") return join(home, where.defaultName);
  const expanded = t.startsWith("~/") ? join(home, t.slice(2)) : t;
  if (isAbsolute(expanded)) return expanded;
  if (basename(expanded) === expanded) return join(exportsFolder(where.dataDir), expanded);
  return resolve(where.cwd ?? process.cwd(), expanded);
}

/** A failed file operation in the manager's words; the code and path go to the details. */
function fileProblem(err: unknown, path: string): { headline: string; details: string } {
  const code = errorCode(err);
  const why = fileErrorWords(code, "write") ?? (err instanceof Error ? err.message : String(err));
  return { headline: `The file was not written: ${why}.`, details: [code, path].filter(Boolean).join(" · ") };
}

/**
 * Writes the files of one export. Without `overwrite`, when any of them exists nothing is written
 * and the answer names them (`exists`): the app asks "Replace it?", a command says `--force`.
 * Each file is written whole or not at all as far as the file system allows; the exports folder
 * is made when it is where the files go.
 */
export async function writeCsvFiles(
  files: readonly CsvFile[],
  options: { overwrite: boolean; files?: FileWriter; dataDir?: string },
): Promise<WriteResult<string[]>> {
  const fs = options.files ?? nodeFiles;
  if (!options.overwrite) {
    const there: string[] = [];
    for (const f of files) if (await fs.exists(f.path)) there.push(f.path);
    if (there.length > 0) return { ok: false, error: { kind: "exists", paths: there } };
  }
  const folder = options.dataDir ? exportsFolder(options.dataDir) : undefined;
  for (const f of files) {
    try {
      if (folder && dirname(f.path) === folder) await fs.makeFolder(folder);
      await fs.write(f.path, f.text, { overwrite: options.overwrite });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST") {
        // It appeared between the look and the write: still not replaced unasked.
        return { ok: false, error: { kind: "exists", paths: [f.path] } };
      }
      const problem = fileProblem(err, f.path);
      return { ok: false, error: { kind: "failed", cause: err, problem } };
    }
  }
  return { ok: true, value: files.map((f) => f.path) };
}

/** "Wrote 12 shifts to /home/ann/x.csv and the weekly summary to /home/ann/x-summary.csv." */
export function wroteMessage(files: readonly CsvFile[]): string {
  return `Wrote ${files.map((f) => `${f.what} to ${f.path}`).join(" and ")}.`;
}

/** The answer of an export with nothing to write yet (nothing loaded, nothing open). */
export function nothingToExport(headline = "Nothing to export yet."): WriteResult<never> {
  return { ok: false, error: { kind: "failed", cause: undefined, problem: { headline } } };
}
