// A file from outside (a count file, a box of gift cards, a bank statement) read as text, but only
// when it is no larger than its limit: a file far larger than any store sends is refused by its
// size, before it is read whole.
import { open } from "node:fs/promises";

/** A file's text and when it was last changed, or its size when it is over the limit (left unread). */
export type TextFileRead =
  | { ok: true; text: string; modified: Date }
  | {
      ok: false;
      /** The file's size; for what has no size (a pipe, a device), the bytes read before stopping. */
      bytes: number;
      /** Whether `bytes` is the whole size, not only where reading stopped. */
      exact: boolean;
    };

/** How much is read at a time from what has no size known in advance. */
const CHUNK = 64 * 1024;

/**
 * Reads the file at `path` as UTF-8 text when it has at most `maxBytes` bytes. A regular file's
 * size is asked first, so one over the limit is not read at all; what has no size (a pipe, a
 * device, a file still being written) is read only up to one byte past the limit. Errors of the
 * file system (no such file, a folder, no permission) are thrown as Node gives them.
 */
export async function readTextFile(path: string, maxBytes: number): Promise<TextFileRead> {
  const handle = await open(path, "r");
  try {
    const info = await handle.stat();
    if (info.isFile() && info.size > maxBytes) return { ok: false, bytes: info.size, exact: true };
    // One buffer of the size asked, grown only if the file grew since: no copy of each chunk.
    let buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, info.isFile() ? info.size + 1 : CHUNK));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) return { ok: false, bytes: length, exact: false };
        const grown = Buffer.allocUnsafe(Math.min(maxBytes + 1, buffer.length * 2));
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes) return { ok: false, bytes: length, exact: false };
    return { ok: true, text: buffer.toString("utf8", 0, length), modified: info.mtime };
  } finally {
    await handle.close();
  }
}
