// Tells a barcode scanner from a person by the shape of what arrives: a scanner in keyboard-wedge
// mode "types" the code and then Enter far faster than anyone can.
//
// The gap. Scanners: Datalogic's keyboard-wedge "intercharacter delay" defaults to 0 ms (settable
// in 10 ms steps), Honeywell's inter-scan-code delay defaults to 800 µs, and a USB keyboard is
// polled every 1–8 ms; so a scan's characters arrive at most ~10 ms apart (over SSH often in one
// read). People: at 60 words a minute the average gap is ~167 ms, and the fastest typists, above
// 120 words a minute (Aalto's typing-test notes, after Dhakal et al., CHI 2018, 168,000 typists),
// average ~100 ms; rollover can make one pair of keys closer than that, but not every key of a
// run. 30 ms sits three times above a scanner with a 10 ms delay and three times below the
// fastest typist's average, and every gap of the run must be under it, so one quick pair of keys
// never makes a scan. Holding a key back 30 ms to see whether more follow is below what a person
// notices (a frame at 60 Hz is 17 ms; ~100 ms reads as instant).
//
// A burst is not always a scanner: a paste from a terminal that does not bracket pastes, `tmux
// send-keys "2026-11-20" Enter`, or a password manager's auto-type arrive at the same pace. So
// the detector runs only where a burst may be a scan; where the keys are decides (the rule is in
// src/ui/focus.ts, `burstRoute` in src/ui/shell.tsx applies it). In a field or form of a screen
// that takes no scans, or a place that says `scans: "text"`, nothing is held: the keys go at once
// and a burst is typed text and Enter. The times come from the key stream's injected timers, so
// tests move a virtual clock instead of sleeping.

import { isControl, nextKey } from "./terminal-keys.js";

/** Longest pause between two characters of a scan, in milliseconds (see above). */
export const SCAN_GAP_MS = 30;
/** Shortest code taken for a scan: EAN-8 and UPC-E are 8; short internal labels can be 4. */
export const MIN_SCAN_LENGTH = 4;
/** Longest: a GS1-128 label carries at most 48 data characters; a longer run is a paste. */
export const MAX_SCAN_LENGTH = 64;

/** What the detector holds back: printable characters that may still become a scan. */
export interface ScanState {
  held: string;
  /** When the last held character arrived (ms). */
  lastAt: number;
}

/** What comes out: keys to hand over as they are, or a whole scan. */
export type ScanOutput = { kind: "keys"; text: string } | { kind: "scan"; code: string };

/** The detector's starting state. */
export const initialScan: ScanState = { held: "", lastAt: 0 };

function printable(c: string): boolean {
  return c !== "" && !isControl(c);
}

/** Whether a single read has the shape of a scan: printable characters, then one Enter. */
export function isScanShape(text: string): boolean {
  const body = text.endsWith("\r\n") ? text.slice(0, -2) : text.endsWith("\r") ? text.slice(0, -1) : undefined;
  if (body === undefined || body.length < MIN_SCAN_LENGTH || body.length > MAX_SCAN_LENGTH) return false;
  for (const c of body) if (!printable(c)) return false;
  return true;
}

function push(out: ScanOutput[], item: ScanOutput): void {
  const last = out[out.length - 1];
  if (item.kind === "keys" && last?.kind === "keys") last.text += item.text;
  else if (item.kind === "scan" || item.text !== "") out.push(item);
}

/**
 * Takes one read of the terminal that arrived at `at` (ms). Printable characters are held while
 * they arrive within `gap` of each other; an Enter right after at least {@link MIN_SCAN_LENGTH}
 * of them makes them a scan, anything else lets them go as keys.
 */
export function feedScan(
  state: ScanState,
  text: string,
  at: number,
  gap = SCAN_GAP_MS,
): { state: ScanState; out: ScanOutput[] } {
  const out: ScanOutput[] = [];
  let held = state.held;
  let lastAt = state.lastAt;
  const flush = () => {
    push(out, { kind: "keys", text: held });
    held = "";
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i] ?? "";
    if (printable(c)) {
      let j = i;
      while (j < text.length && printable(text[j] ?? "")) j++;
      if (held && at - lastAt > gap) flush();
      held += text.slice(i, j);
      lastAt = at;
      if (held.length > MAX_SCAN_LENGTH) flush();
      i = j;
    } else if (c === "\r") {
      const len = text[i + 1] === "\n" ? 2 : 1;
      if (held.length >= MIN_SCAN_LENGTH && at - lastAt <= gap) {
        push(out, { kind: "scan", code: held });
        held = "";
      } else {
        flush();
        push(out, { kind: "keys", text: text.slice(i, i + len) });
      }
      i += len;
    } else {
      flush();
      const key = nextKey(text.slice(i), false);
      push(out, { kind: "keys", text: key });
      i += key.length;
    }
  }
  return { state: { held, lastAt }, out };
}

/** Lets held characters go as keys once `gap` has passed without another (a person typing). */
export function expireScan(state: ScanState, at: number, gap = SCAN_GAP_MS): { state: ScanState; out: ScanOutput[] } {
  if (state.held === "" || at - state.lastAt < gap) return { state, out: [] };
  return { state: initialScan, out: [{ kind: "keys", text: state.held }] };
}

/**
 * A scan's code as the status bar names it: cut with … past 24 characters. Here, beside what a
 * scan is, rather than in the shell, which the screens' modules would otherwise import (an import
 * cycle: a bundle in one file waits on itself at start-up).
 */
export function scannedText(code: string): string {
  return code.length > 24 ? `${code.slice(0, 23)}…` : code;
}
