// A file or folder the machine refuses, in words: shared by every command and the CLI's last resort.

/** What the system's error codes mean for a manager, for the file errors a command can meet. */
const FILE_REASONS: Readonly<Record<string, string>> = {
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "the disk is read-only",
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
  ENOENT: "no such file or folder",
  ENOTDIR: "part of the path is a file, not a folder",
  EISDIR: "it is a folder, not a file",
};

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
  const reason = typeof e?.code === "string" ? FILE_REASONS[e.code] : undefined;
  if (!reason || typeof e?.path !== "string") return undefined;
  const tried = TRIED[e.syscall ?? ""] ?? "use";
  return `cannot ${tried} ${e.path}: ${reason} (${e.code}${e.syscall ? `, ${e.syscall}` : ""})`;
}

/** Why a file named on the command line (a count, a box of cards) cannot be read, in words. */
export function unreadableFile(path: string, err: unknown): string {
  const code = (err as Partial<NodeJS.ErrnoException> | undefined)?.code;
  if (code === "ENOENT") return `cannot read ${path}: there is no such file`;
  if (code === "EISDIR") return `cannot read ${path}: it is a folder, not a file`;
  const reason = code ? FILE_REASONS[code] : undefined;
  return reason ? `cannot read ${path}: ${reason} (${code})` : `cannot read ${path} (${code ?? String(err)})`;
}
