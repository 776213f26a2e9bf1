import { EventEmitter } from "node:events";
import {
  expireScan,
  feedScan,
  initialScan,
  isScanShape,
  SCAN_GAP_MS,
  type ScanOutput,
  type ScanState,
} from "./scan-detector.js";
import { isKnownKey, nextKey } from "./terminal-keys.js";

export { isKnownKey, nextKey, splitKeys } from "./terminal-keys.js";

/** What the key stream reads from: a TTY's stdin, or a test's fake stdin. */
export interface KeySource extends NodeJS.EventEmitter {
  isTTY?: boolean;
  read(): string | Buffer | null;
  setRawMode?(raw: boolean): unknown;
  setEncoding?(encoding: BufferEncoding): unknown;
  ref?(): unknown;
  unref?(): unknown;
}

/** How the stream hands keys over; tests and the app pass the defaults. */
export interface KeyStreamOptions {
  /** Whether a text field has the keyboard now: then a run of printable text goes as one paste. */
  textMode?: () => boolean;
  /** More than this many characters waiting while no text field is open are dropped, with a call. */
  maxBacklog?: number;
  /** A read longer than this with no text field open is a paste, and is dropped (default 16). */
  maxCommandChunk?: number;
  /** Told how many characters were dropped (a paste with nowhere to go). */
  onDropped?: (count: number) => void;
  /** Offered each key first while in text mode; a key it takes does not go to Ink. */
  intercept?: (key: string) => boolean;
  /** Takes a scan (a barcode and Enter at a scanner's pace); without it, a scan is keys like any. */
  onScan?: (code: string) => void;
  /** The clock the scan gap is measured on (ms); tests pass their own. */
  now?: () => number;
  /** The longest gap between two characters of a scan (ms); {@link SCAN_GAP_MS} by default. */
  scanGapMs?: number;
}

const CTRL_C = "\u0003";

/**
 * Turns of the event loop between two keys. React commits a key's render at once, but its passive
 * effects run on a later turn, may set state again (ink-text-input moves its cursor in an effect,
 * a focus change does too), and only the effects of that render re-subscribe every input handler
 * with fresh state. Measured here: with two turns, a key typed right after ctrl+u in a field that
 * had just taken focus reached a handler that still held the old cursor ("2026" became "0262");
 * with three, the first field was right and the second wrong. Each turn costs microseconds, so a
 * 14-key scanner burst still lands well within a frame.
 */
const SETTLE_TURNS = 6;

/** What waits to be handed over: keys as read, or a whole scan. */
type Pending = { kind: "keys"; text: string } | { kind: "scan"; code: string };

/**
 * Stands between the terminal and Ink, and hands keys over one at a time, each after the
 * previous one's render has settled. Ink 6 passes whatever one read returns as one input: `jjj`
 * typed over a slow link, three Backspaces, or a scanner's `0123456789012\r` would each arrive as
 * one key that no handler recognises. Here they become three `j` and three Backspaces. While a
 * text field has the keyboard, a run of printable text stays whole, so a paste lands in the field
 * at once instead of one render per character.
 *
 * A scan — printable characters then Enter, faster than a person types (scan-detector.ts) — is
 * not handed to Ink as keys at all: it goes to `onScan` whole, in its place among the keys, so a
 * code full of digits and letters never runs as number keys and commands.
 */
export class KeyStream extends EventEmitter {
  readonly isTTY: boolean;
  private pending: Pending[] = [];
  private current: string | null = null;
  private scheduled = false;
  private listening = false;
  private scan: ScanState = initialScan;
  private scanTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly source: KeySource;
  private readonly textMode: () => boolean;
  private readonly maxBacklog: number;
  private readonly maxCommandChunk: number;
  private readonly onDropped: (count: number) => void;
  private readonly intercept: (key: string) => boolean;
  private readonly onScan: ((code: string) => void) | undefined;
  private readonly now: () => number;
  private readonly scanGap: number;
  private readonly onSourceReadable = () => {
    for (;;) {
      const chunk = this.source.read();
      if (chunk === null || chunk === undefined) break;
      const text = typeof chunk === "string" ? chunk : chunk.toString("utf8");
      // A paste with no text field open is not a series of commands: pasted text holding a `q`
      // would quit, an `x` would ask to delete. Nobody types this many keys in one read. A scan
      // read whole (a code and Enter) is no paste: it goes to the screen's onScan.
      const scanShaped = this.onScan !== undefined && isScanShape(text);
      if (text.length > this.maxCommandChunk && !this.textMode() && !scanShaped) {
        this.onDropped(text.length);
        continue;
      }
      // ctrl+c pressed is a read of its own; one inside a longer read is part of a paste, not a
      // request to quit, and goes. So is tab: pasted into a field it is a space, not "next screen".
      const pasted = text.length > 1 ? text.replaceAll(CTRL_C, "") : text;
      this.take(text.length > 1 && this.textMode() ? pasted.replaceAll("\t", " ") : pasted);
    }
    this.trimBacklog();
    this.schedule();
  };

  constructor(source: KeySource, options: KeyStreamOptions = {}) {
    super();
    this.source = source;
    this.isTTY = source.isTTY === true;
    this.textMode = options.textMode ?? (() => false);
    this.maxBacklog = options.maxBacklog ?? 512;
    this.maxCommandChunk = options.maxCommandChunk ?? 16;
    this.onDropped = options.onDropped ?? (() => {});
    this.intercept = options.intercept ?? (() => false);
    this.onScan = options.onScan;
    this.now = options.now ?? (() => performance.now());
    this.scanGap = options.scanGapMs ?? SCAN_GAP_MS;
    this.on("newListener", (event) => {
      if (event === "readable" && !this.listening) {
        this.listening = true;
        this.source.on("readable", this.onSourceReadable);
      }
    });
    this.on("removeListener", (event) => {
      if (event === "readable" && this.listenerCount("readable") === 0 && this.listening) {
        this.listening = false;
        this.source.removeListener("readable", this.onSourceReadable);
      }
    });
  }

  /** Ink reads one key per `readable`. */
  read(): string | null {
    const key = this.current;
    this.current = null;
    return key;
  }

  setRawMode(raw: boolean): this {
    this.source.setRawMode?.(raw);
    return this;
  }

  setEncoding(encoding: BufferEncoding): this {
    this.source.setEncoding?.(encoding);
    return this;
  }

  ref(): this {
    this.source.ref?.();
    return this;
  }

  unref(): this {
    this.source.unref?.();
    return this;
  }

  /** Keys read from the terminal and not yet handed over. */
  backlog(): number {
    return this.pending.reduce((n, p) => n + (p.kind === "keys" ? p.text.length : p.code.length + 1), 0);
  }

  /** Whether every key read has been handed over and its render has had its turn. */
  idle(): boolean {
    return this.pending.length === 0 && !this.scheduled && this.scan.held === "";
  }

  /** Stops waiting for the rest of a possible scan (the stream is being let go). */
  close(): void {
    if (this.scanTimer) clearTimeout(this.scanTimer);
    this.scanTimer = undefined;
  }

  // Without a scan handler every read is keys; with one, printable runs wait to see whether an
  // Enter follows at a scanner's pace.
  private take(text: string): void {
    if (!this.onScan) {
      this.queue([{ kind: "keys", text }]);
      return;
    }
    const fed = feedScan(this.scan, text, this.now(), this.scanGap);
    this.scan = fed.state;
    this.queue(fed.out);
    this.armScanTimer();
  }

  private armScanTimer(): void {
    if (this.scanTimer) clearTimeout(this.scanTimer);
    this.scanTimer = undefined;
    if (this.scan.held === "") return;
    this.scanTimer = setTimeout(() => {
      this.scanTimer = undefined;
      const expired = expireScan(this.scan, this.now(), this.scanGap);
      this.scan = expired.state;
      this.queue(expired.out);
      this.armScanTimer();
      this.trimBacklog();
      this.schedule();
    }, this.scanGap + 1);
    // Stdin keeps a live app running; a timer left over must not keep a finished one alive.
    this.scanTimer.unref?.();
  }

  private queue(items: readonly ScanOutput[]): void {
    for (const item of items) {
      const last = this.pending[this.pending.length - 1];
      if (item.kind === "keys" && last?.kind === "keys") last.text += item.text;
      else this.pending.push(item.kind === "keys" ? { kind: "keys", text: item.text } : item);
    }
  }

  // A paste of 100 KB with no text field open would be 100,000 commands; keep a screenful.
  private trimBacklog(): void {
    const total = this.backlog();
    if (total <= this.maxBacklog || this.textMode()) return;
    let room = this.maxBacklog;
    const kept: Pending[] = [];
    for (const p of this.pending) {
      if (room <= 0) break;
      if (p.kind === "scan") {
        kept.push(p);
        room -= p.code.length + 1;
      } else {
        kept.push({ kind: "keys", text: p.text.slice(0, room) });
        room -= p.text.length;
      }
    }
    this.pending = kept;
    this.onDropped(total - this.backlog());
  }

  private schedule(): void {
    if (this.scheduled || this.pending.length === 0) return;
    this.scheduled = true;
    let turns = SETTLE_TURNS;
    const turn = () => {
      turns -= 1;
      if (turns > 0) {
        setImmediate(turn);
        return;
      }
      this.scheduled = false;
      this.deliver();
    };
    setImmediate(turn);
  }

  private deliver(): void {
    if (this.pending.length === 0) return;
    try {
      this.handOver();
    } finally {
      // A handler that throws must not stop the keys after it.
      this.schedule();
    }
  }

  private handOver(): void {
    const first = this.pending[0];
    if (!first) return;
    if (first.kind === "scan") {
      this.pending.shift();
      this.onScan?.(first.code);
      return;
    }
    let key = nextKey(first.text, this.textMode());
    first.text = first.text.slice(key.length);
    if (first.text === "") this.pending.shift();
    if (key === "\r\n") key = "\r";
    if (isKnownKey(key) && !(this.textMode() && this.intercept(key))) {
      this.current = key;
      this.emit("readable");
      this.current = null;
    }
  }
}
