import { EventEmitter } from "node:events";
import type { Timers } from "../state/index.js";
import { noPaste, type PasteState, pastedLine, splitPastes } from "./bracketed-paste.js";
import {
  expireScan,
  feedScan,
  initialScan,
  isScanShape,
  SCAN_GAP_MS,
  type ScanOutput,
  type ScanState,
} from "./scan-detector.js";
import { isKnownKey, nextKey, splitKeys } from "./terminal-keys.js";

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

/**
 * How a burst — printable keys and Enter faster than a person types — is taken where the keys are
 * now (the rule is in src/ui/focus.ts): `scan`, watched for (printable keys wait up to the scan gap
 * to see whether Enter follows), or `text`, typed keys handed over at once.
 */
export type BurstRoute = "scan" | "text";

/** How the stream hands keys over; tests and the app pass the defaults. */
export interface KeyStreamOptions {
  /** Whether a text field has the keyboard now: then a run of printable text goes as one input. */
  textMode?: () => boolean;
  /** Where a burst goes now; `scan` when not given (with `onScan`). */
  bursts?: () => BurstRoute;
  /** More than this many characters waiting while no text field is open are dropped, with a call. */
  maxBacklog?: number;
  /** A read longer than this with no text field open is a paste, and is dropped (default 16). */
  maxCommandChunk?: number;
  /** Told how many characters were dropped (a paste with nowhere to go). */
  onDropped?: (count: number) => void;
  /** Offered each key first while in text mode; a key it takes does not go to Ink. */
  intercept?: (key: string) => boolean;
  /**
   * Takes a scan (a barcode and Enter at a scanner's pace); without it, a scan is keys like any.
   * It returns false when, by the time the scan is handed over, the keys are where bursts are
   * typed text: the code is then handed over as keys, and Enter.
   */
  onScan?: (code: string) => boolean;
  /** The clock the scan gap is measured on and the timer that waits it out; tests pass a virtual one. */
  timers?: Timers;
  /** The longest gap between two characters of a scan (ms); {@link SCAN_GAP_MS} by default. */
  scanGapMs?: number;
  /**
   * Whether keys wait now (the screen they were typed for is still loading): they stay in order,
   * read and told apart (scans, pastes) as ever, until `release`.
   */
  held?: () => boolean;
}

/** Real time: a waiting scan timer does not keep a finished app alive. */
const realTimers: Timers = {
  after: (ms, run) => {
    setTimeout(run, ms).unref?.();
  },
  elapsed: () => performance.now(),
};

const CTRL_C = "\u0003";

/**
 * A paste whose end has not arrived this long after its last piece is taken as ended: its end was
 * lost (a broken terminal, a file with a paste's start in it shown with `cat`), and every key after
 * it would otherwise be held as pasted text. A long paste arrives in pieces far closer together.
 */
export const PASTE_END_WAIT_MS = 500;

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

/** What follows the escape of a movement key: an arrow, Home/End or a page key, with any modifier. */
const MOVEMENT_TAIL = /^(?:\[(?:1;\d+)?[A-DHF]|O[A-DHF]|\[[145678](?:;\d+)?~)$/u;

/**
 * Whether a read is nothing but movement keys (arrows, page keys, Home/End): a held ↓ whose repeats
 * piled up while a frame was drawn. Pasted text is never only these, and they change nothing.
 */
function onlyMovementKeys(text: string): boolean {
  return splitKeys(text).every((k) => k.startsWith("\u001b") && MOVEMENT_TAIL.test(k.slice(1)));
}

/** What waits to be handed over: keys as read, a whole scan, or a whole paste. */
type Pending = { kind: "keys"; text: string } | { kind: "scan"; code: string } | { kind: "paste"; text: string };

const size = (p: Pending): number => (p.kind === "scan" ? p.code.length + 1 : p.text.length);

/**
 * Stands between the terminal and Ink, and hands keys over one at a time, each after the
 * previous one's render has settled. Ink 6 passes whatever one read returns as one input: `jjj`
 * typed over a slow link, three Backspaces, or a scanner's `0123456789012\r` would each arrive as
 * one key that no handler recognises. Here they become three `j` and three Backspaces. While a
 * text field has the keyboard, a run of printable text stays whole, so typing lands in the field
 * at once instead of one render per character.
 *
 * A scan — printable characters then Enter, faster than a person types (scan-detector.ts) — is
 * not handed to Ink as keys at all: it goes to `onScan` whole, in its place among the keys, so a
 * code full of digits and letters never runs as number keys and commands. Where the keys are now
 * decides whether bursts are watched for at all (`bursts`): where they can only be typed text,
 * nothing waits. A bracketed paste (bracketed-paste.ts) goes whole into the text field that has
 * the keys, or is dropped, with a call, when none has.
 */
export class KeyStream extends EventEmitter {
  readonly isTTY: boolean;
  private pending: Pending[] = [];
  private current: string | null = null;
  private scheduled = false;
  private listening = false;
  private scan: ScanState = initialScan;
  private paste: PasteState = noPaste;
  /** Counts the scan timers set: only the latest one's turn still counts. */
  private timerTurn = 0;
  /** The same for the timer that ends a paste whose end was lost. */
  private pasteTurn = 0;
  private closed = false;
  private readonly source: KeySource;
  private readonly textMode: () => boolean;
  private readonly bursts: () => BurstRoute;
  private readonly maxBacklog: number;
  private readonly maxCommandChunk: number;
  private readonly onDropped: (count: number) => void;
  private readonly intercept: (key: string) => boolean;
  private readonly onScan: ((code: string) => boolean) | undefined;
  private readonly timers: Timers;
  private readonly scanGap: number;
  private readonly held: () => boolean;
  private readonly onSourceReadable = () => {
    for (;;) {
      const chunk = this.source.read();
      if (chunk === null || chunk === undefined) break;
      const split = splitPastes(this.paste, typeof chunk === "string" ? chunk : chunk.toString("utf8"));
      this.paste = split.state;
      for (const part of split.parts) {
        if (part.kind === "paste") this.takePaste(part.text);
        else this.takeRead(part.text);
      }
    }
    this.armPasteTimer();
    this.trimBacklog();
    this.schedule();
  };

  constructor(source: KeySource, options: KeyStreamOptions = {}) {
    super();
    this.source = source;
    this.isTTY = source.isTTY === true;
    this.textMode = options.textMode ?? (() => false);
    this.bursts = options.bursts ?? (() => "scan");
    this.maxBacklog = options.maxBacklog ?? 512;
    this.maxCommandChunk = options.maxCommandChunk ?? 16;
    this.onDropped = options.onDropped ?? (() => {});
    this.intercept = options.intercept ?? (() => false);
    this.onScan = options.onScan;
    this.timers = options.timers ?? realTimers;
    this.scanGap = options.scanGapMs ?? SCAN_GAP_MS;
    this.held = options.held ?? (() => false);
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
    return this.pending.reduce((n, p) => n + size(p), 0);
  }

  /** Whether every key read has been handed over and its render has had its turn. */
  idle(): boolean {
    return this.pending.length === 0 && !this.scheduled && this.scan.held === "" && !this.paste.open;
  }

  /** Hands over the keys that waited while `held` said so. */
  release(): void {
    this.schedule();
  }

  /** Stops waiting for the rest of a possible scan (the stream is being let go). */
  close(): void {
    this.closed = true;
    this.timerTurn += 1;
    this.pasteTurn += 1;
  }

  // Typed keys (anything outside a bracketed paste).
  private takeRead(text: string): void {
    // A paste with no text field open is not a series of commands: pasted text holding a `q`
    // would quit, an `x` would ask to delete. Nobody types this many keys in one read. A scan
    // read whole (a code and Enter) is no paste: it goes to the screen's onScan.
    const scanShaped = this.onScan !== undefined && isScanShape(text);
    if (text.length > this.maxCommandChunk && !this.textMode() && !scanShaped && !onlyMovementKeys(text)) {
      this.onDropped(text.length);
      return;
    }
    // ctrl+c pressed is a read of its own; one inside a longer read (a terminal that does not
    // bracket its pastes) is part of a paste, not a request to quit, and goes. A tab is a tab.
    this.take(text.length > 1 ? text.replaceAll(CTRL_C, "") : text);
  }

  // Without a scan handler, or where bursts can only be typed text, keys go at once; otherwise
  // printable runs wait to see whether an Enter follows at a scanner's pace.
  private take(text: string): void {
    if (!this.onScan || this.bursts() === "text") {
      this.letHeldGo();
      this.queue([{ kind: "keys", text }]);
      return;
    }
    const fed = feedScan(this.scan, text, this.timers.elapsed(), this.scanGap);
    this.scan = fed.state;
    this.queue(fed.out);
    this.armScanTimer();
  }

  // A paste goes after the keys before it, whole; whether a field takes it is seen when its turn comes.
  private takePaste(text: string): void {
    this.letHeldGo();
    this.pending.push({ kind: "paste", text: pastedLine(text) });
  }

  /** Keys held for a possible scan go now, as keys (what follows cannot make them a scan). */
  private letHeldGo(): void {
    if (this.scan.held === "") return;
    this.queue([{ kind: "keys", text: this.scan.held }]);
    this.scan = initialScan;
    this.timerTurn += 1;
  }

  /** While a paste is open, waits for its next piece; none by {@link PASTE_END_WAIT_MS} ends it. */
  private armPasteTimer(): void {
    const turn = ++this.pasteTurn;
    if (!this.paste.open || this.closed) return;
    this.timers.after(PASTE_END_WAIT_MS, () => {
      if (turn !== this.pasteTurn || !this.paste.open) return;
      const text = this.paste.text;
      this.paste = noPaste;
      this.takePaste(text);
      this.trimBacklog();
      this.schedule();
    });
  }

  private armScanTimer(): void {
    const turn = ++this.timerTurn;
    if (this.scan.held === "" || this.closed) return;
    this.timers.after(this.scanGap + 1, () => {
      if (turn !== this.timerTurn) return;
      const expired = expireScan(this.scan, this.timers.elapsed(), this.scanGap);
      this.scan = expired.state;
      this.queue(expired.out);
      this.armScanTimer();
      this.trimBacklog();
      this.schedule();
    });
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
      // A scan or a paste is kept whole (a paste is dropped at its turn if no field takes it).
      kept.push(p.kind === "keys" ? { kind: "keys", text: p.text.slice(0, room) } : p);
      room -= size(p);
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
    // Held keys stay pending, with nothing scheduled, until `release`.
    if (this.pending.length === 0 || this.held()) return;
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
      // Where bursts are typed text by now (the keys before it opened a form), it is typed.
      if (!this.onScan?.(first.code)) this.pending.unshift({ kind: "keys", text: `${first.code}\r` });
      return;
    }
    if (first.kind === "paste") {
      this.pending.shift();
      if (!this.textMode()) this.onDropped(first.text.length);
      else if (first.text !== "") this.emitKey(first.text);
      return;
    }
    let key = nextKey(first.text, this.textMode());
    first.text = first.text.slice(key.length);
    if (first.text === "") this.pending.shift();
    if (key === "\r\n") key = "\r";
    if (isKnownKey(key) && !(this.textMode() && this.intercept(key))) this.emitKey(key);
  }

  private emitKey(key: string): void {
    this.current = key;
    this.emit("readable");
    this.current = null;
  }
}
