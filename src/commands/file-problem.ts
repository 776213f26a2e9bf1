// A file or folder the machine refuses, in words: shared by every command and the CLI's last resort.
import { errorCode, fileErrorWords, sizeInWords, sizeOverWords } from "../domain/file-errors.js";
import { readTextFile } from "../state/read-text-file.js";
import { CommandError } from "./io.js";

/** What backroom was doing, by the system call that failed. */
const TRIED: Readonly<Record<string, string>> = {
  mkdir: "make the folder",
  open: "open",
  write: "write",
  rename: "write",
  link: "write",
  copyfile: "write",
  unlink: "remove",
  scandir: "read the folder",
};

/**
 * A file or folder this machine would not let backroom use (a read-only data folder, a full
 * disk) as one line in words — what it tried, on which path, why, and the system's code last — or
 * undefined for anything else. Such a failure is the machine's, not a bug: no stack trace.
 */
export function fileProblem(err: unknown): string | undefined {
  const e = err as Partial<NodeJS.ErrnoException> | undefined;
  const reason = fileErrorWords(errorCode(err));
  if (!reason || typeof e?.path !== "string") return undefined;
  const tried = TRIED[e.syscall ?? ""] ?? "use";
  return `cannot ${tried} ${e.path}: ${reason} (${e.code}${e.syscall ? `, ${e.syscall}` : ""})`;
}

/** Why a file named on the command line (a count, a box of cards) cannot be read, in words. */
export function unreadableFile(path: string, err: unknown): string {
  const code = errorCode(err);
  const reason = fileErrorWords(code, "read");
  if (!reason) return `cannot read ${path} (${code ?? String(err)})`;
  // A missing file or a folder needs no code to be understood.
  return code === "ENOENT" || code === "EISDIR"
    ? `cannot read ${path}: ${reason}`
    : `cannot read ${path}: ${reason} (${code})`;
}

/**
 * The text of a file named on the command line when it is at most `maxBytes`, read no further
 * than that; else a {@link CommandError} (exit 2): why it cannot be read, or what `tooLarge` says
 * of its size and the most, in words ("45 MB", "30 MB").
 */
export async function readNamedFile(
  path: string,
  maxBytes: number,
  tooLarge: (size: string, most: string) => string,
): Promise<{ text: string; modified: Date }> {
  const read = await readTextFile(path, maxBytes).catch((err: unknown) => {
    throw new CommandError(unreadableFile(path, err), 2);
  });
  if (!read.ok)
    throw new CommandError(tooLarge(sizeOverWords(read.bytes, maxBytes, read.exact), sizeInWords(maxBytes)), 2);
  return read;
}
