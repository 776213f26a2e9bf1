// The system's error codes for files, in a manager's words: one table for every reader and writer
// of files (commands, the app's exports, statements), so a code reads the same wherever it occurs.

/** The words for one code: in general, and where reading or writing a file the manager named says it better. */
interface FileErrorWords {
  /** What the code means, said of any file or folder. */
  reason: string;
  /** Said of a file the manager asked backroom to read. */
  read?: string;
  /** Said of a file the manager asked backroom to write (an export). */
  write?: string;
  /**
   * The path the manager named is why: another path would do (no such folder, a folder where a
   * file was meant, a place that may not be written to). A full disk or an unknown code is not.
   */
  path?: true;
}

const WORDS: Readonly<Record<string, FileErrorWords>> = {
  EACCES: { reason: "permission denied", write: "that folder may not be written to", path: true },
  EPERM: { reason: "permission denied", write: "that folder may not be written to", path: true },
  EROFS: { reason: "the disk is read-only", path: true },
  ENOSPC: { reason: "the disk is full" },
  EDQUOT: { reason: "the disk quota is used up" },
  ENOENT: {
    reason: "no such file or folder",
    read: "there is no such file",
    write: "its folder does not exist",
    path: true,
  },
  ENOTDIR: { reason: "part of the path is a file, not a folder", path: true },
  EISDIR: { reason: "it is a folder, not a file", write: "it is a folder", path: true },
};

/**
 * What a file error's code means in words — said of any file (`use`), of a file being read, or of
 * one being written — or undefined for a code that is not about files (a refused connection).
 */
export function fileErrorWords(code: string | undefined, doing: "use" | "read" | "write" = "use"): string | undefined {
  const w = code !== undefined && Object.hasOwn(WORDS, code) ? WORDS[code] : undefined;
  if (!w) return undefined;
  return (doing === "use" ? undefined : w[doing]) ?? w.reason;
}

/**
 * Whether a file error's code is about the path the manager typed — another path would do — so a
 * form takes the manager back to it; a full disk or a code not about files is not.
 */
export function isPathProblem(code: string | undefined): boolean {
  return code !== undefined && Object.hasOwn(WORDS, code) && WORDS[code]?.path === true;
}

/** The code of a file error (`EACCES`), or undefined when the error carries none. */
export const errorCode = (err: unknown): string | undefined => {
  const code = (err as Partial<NodeJS.ErrnoException> | undefined)?.code;
  return typeof code === "string" ? code : undefined;
};

const MB = 1024 * 1024;

/** A number as a file manager shows one: a decimal under 10 ("2.3"), whole above ("45"). */
const figure = (n: number) => (n < 10 ? String(Math.round(n * 10) / 10) : Math.round(n).toLocaleString("en-US"));

/** A size in words, as a file manager shows it: "840 KB", "2.3 MB", "45 MB", "2 GB". */
export function sizeInWords(bytes: number): string {
  if (bytes < MB) return `${Math.max(1, Math.round(bytes / 1024)).toLocaleString("en-US")} KB`;
  return bytes < 1024 * MB ? `${figure(bytes / MB)} MB` : `${figure(bytes / (1024 * MB))} GB`;
}

/**
 * A file's size beside the limit it is over, in words: "45 MB", or "over 30 MB" where its size
 * would read as the limit itself (30.02 MB) or is not known (`exact` false: reading stopped there).
 */
export function sizeOverWords(bytes: number, limit: number, exact = true): string {
  const words = sizeInWords(bytes);
  return exact && words !== sizeInWords(limit) ? words : `over ${sizeInWords(limit)}`;
}
