import { EventEmitter } from "node:events";

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
  /** Told how many characters were dropped (a huge paste with nowhere to go). */
  onDropped?: (count: number) => void;
  /** Offered each key first while in text mode; a key it takes does not go to Ink. */
  intercept?: (key: string) => boolean;
}

const ESC = "\u001b";
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

/**
 * The next key of `text`: an escape sequence, Enter (`\r\n` is one), a control character, and
 * otherwise one character — or, when `run` is set, the whole run of printable text (a paste).
 */
export function nextKey(text: string, run: boolean): string {
  const first = text[0];
  if (first === undefined) return "";
  if (first === ESC) return escapeSequence(text);
  if (first === "\r") return text[1] === "\n" ? "\r\n" : "\r";
  if (isControl(first)) return first;
  if (!run) return String.fromCodePoint(text.codePointAt(0) ?? 0);
  let end = 0;
  while (end < text.length && !isControl(text[end] ?? "") && text[end] !== ESC) end++;
  return text.slice(0, end);
}

// Escape sequences that name a key Ink knows: arrows, Home/End, F1–F4 and shift+Tab (CSI or SS3,
// with modifiers), the `~` keys (Insert, Delete, Page Up/Down, F5–F12), kitty's `u` keys, and
// meta+character. Anything else — a pasted colour code, a clear-screen — names no key, and Ink 6
// crashes on some of them (a CSI with a modifier and an unknown final byte leaves the key nameless).
// The pattern reads what follows the escape (or two, for meta).
const KNOWN_KEY_TAIL =
  /^(?:\[(?:\d+(?:;\d+)?)?[A-DFHPQRSZ]|O[A-DFHPQRS]|\[(?:[1-9]|1[0-9]|2[0-9]|3[0-4])(?:;\d+)?~|\[\d+(?:;\d+(?::\d+)?)?(?:;[\d:]+)?u|[^[O]?)$/u;

/** Whether Ink can take this key: any key but an escape sequence that names no key. */
export function isKnownKey(key: string): boolean {
  if (!key.startsWith(ESC)) return true;
  const tail = key.startsWith(ESC + ESC) ? key.slice(2) : key.slice(1);
  return !tail.startsWith(ESC) && KNOWN_KEY_TAIL.test(tail);
}

/** Splits a chunk into the keys it holds, one character per key outside escape sequences. */
export function splitKeys(text: string): string[] {
  const keys: string[] = [];
  let rest = text;
  while (rest.length > 0) {
    const key = nextKey(rest, false);
    keys.push(key);
    rest = rest.slice(key.length);
  }
  return keys;
}

function isControl(c: string): boolean {
  const code = c.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
}

/** `ESC [ … final`, `ESC O x`, `ESC ESC …` (meta), `ESC x` (meta), or a lone ESC. */
function escapeSequence(text: string): string {
  const second = text[1];
  if (second === undefined) return ESC;
  if (second === "[") {
    let i = 2;
    // Legacy function keys: ESC [ [ A.
    if (text[i] === "[") i++;
    while (i < text.length) {
      const code = text.charCodeAt(i);
      if (code >= 0x40 && code <= 0x7e) return text.slice(0, i + 1);
      if (code < 0x20 || code > 0x3f) break;
      i++;
    }
    return text.slice(0, Math.min(i, text.length));
  }
  if (second === "O") return text.slice(0, 3);
  if (second === ESC) return ESC + escapeSequence(text.slice(1));
  return text.slice(0, 1 + String.fromCodePoint(text.codePointAt(1) ?? 0).length);
}

/**
 * Stands between the terminal and Ink, and hands keys over one at a time, each after the
 * previous one's render has settled. Ink 6 passes whatever one read returns as one input: `jjj`
 * typed over a slow link, three Backspaces, or a scanner's `0123456789012\r` would each arrive as
 * one key that no handler recognises. Here they become three `j`, three Backspaces, and the code
 * then Enter. While a text field has the keyboard, a run of printable text stays whole, so a
 * paste lands in the field at once instead of one render per character.
 */
export class KeyStream extends EventEmitter {
  readonly isTTY: boolean;
  private pending = "";
  private current: string | null = null;
  private scheduled = false;
  private listening = false;
  private readonly source: KeySource;
  private readonly textMode: () => boolean;
  private readonly maxBacklog: number;
  private readonly onDropped: (count: number) => void;
  private readonly intercept: (key: string) => boolean;
  private readonly onSourceReadable = () => {
    for (;;) {
      const chunk = this.source.read();
      if (chunk === null || chunk === undefined) break;
      const text = typeof chunk === "string" ? chunk : chunk.toString("utf8");
      // ctrl+c pressed is a read of its own; one inside a longer read is part of a paste, not a
      // request to quit, and goes.
      this.pending += text.length > 1 ? text.replaceAll(CTRL_C, "") : text;
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
    this.onDropped = options.onDropped ?? (() => {});
    this.intercept = options.intercept ?? (() => false);
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
    return this.pending.length;
  }

  /** Whether every key read has been handed over and its render has had its turn. */
  idle(): boolean {
    return this.pending.length === 0 && !this.scheduled;
  }

  // A paste of 100 KB with no text field open would be 100,000 commands; keep a screenful.
  private trimBacklog(): void {
    if (this.pending.length <= this.maxBacklog || this.textMode()) return;
    const dropped = this.pending.length - this.maxBacklog;
    this.pending = this.pending.slice(0, this.maxBacklog);
    this.onDropped(dropped);
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
    let key = nextKey(this.pending, this.textMode());
    this.pending = this.pending.slice(key.length);
    if (key === "\r\n") key = "\r";
    if (isKnownKey(key) && !(this.textMode() && this.intercept(key))) {
      this.current = key;
      this.emit("readable");
      this.current = null;
    }
  }
}
