import { Readable } from "node:stream";
import type { KeytarLike } from "../src/auth/token-store.js";

/** A keychain in a Map that behaves as keytar does when the keyring is unlocked. */
export function memoryKeytar(): KeytarLike & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  const key = (service: string, account: string) => `${service}\u0000${account}`;
  return {
    entries,
    getPassword: async (service, account) => entries.get(key(service, account)) ?? null,
    setPassword: async (service, account, password) => {
      entries.set(key(service, account), password);
    },
    deletePassword: async (service, account) => entries.delete(key(service, account)),
  };
}

/** A keyring that is locked: writes seem to succeed, reads answer null (what Secret Service does). */
export function lockedKeytar(): KeytarLike {
  return {
    getPassword: async () => null,
    setPassword: async () => {},
    deletePassword: async () => false,
  };
}

/** No Secret Service on the bus: every call fails, as keytar does without D-Bus. */
export function unreachableKeytar(): KeytarLike {
  const fail = async (): Promise<never> => {
    throw new Error("Cannot autolaunch D-Bus without X11 $DISPLAY");
  };
  return { getPassword: fail, setPassword: fail, deletePassword: fail };
}

/** A clock the test moves by hand. */
export function manualClock(start = Date.parse("2024-03-01T12:00:00Z")) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

/** Collects what a command writes, for assertions and for the no-token scan. */
export function captureIo(env: Record<string, string | undefined>, stdinText?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]) =>
    ({
      write(chunk: string | Uint8Array) {
        into.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString());
        return true;
      },
    }) as unknown as NodeJS.WritableStream;
  const stdin = Readable.from(stdinText === undefined ? [] : [stdinText]) as unknown as NodeJS.ReadableStream;
  return {
    io: { stdout: sink(out), stderr: sink(err), stdin, env },
    stdout: () => out.join(""),
    stderr: () => err.join(""),
    all: () => out.join("") + err.join(""),
  };
}

/** One day in milliseconds. */
export const DAY_MS = 86_400_000;
