import { EventEmitter } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { VirtualTimers } from "../../test/helpers/virtual-timers.js";
import { type BurstRoute, isKnownKey, KeyStream, nextKey, PASTE_END_WAIT_MS, splitKeys } from "./key-stream.js";
import { SCAN_GAP_MS } from "./scan-detector.js";

class Source extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write(d: string) {
    this.data = d;
    this.emit("readable");
  }
  read() {
    const d = this.data;
    this.data = null;
    return d;
  }
}

/** Collects what Ink would read from the stream, one `readable` at a time. */
function reader(stream: KeyStream): string[] {
  const got: string[] = [];
  stream.on("readable", () => {
    for (let k = stream.read(); k !== null; k = stream.read()) got.push(k);
  });
  return got;
}

describe("splitting a chunk of keys", () => {
  it("gives one key per character, escape sequences whole, CRLF as one Enter", () => {
    expect(splitKeys("jjj")).toEqual(["j", "j", "j"]);
    expect(splitKeys("\u007f\u007f\u007f")).toEqual(["\u007f", "\u007f", "\u007f"]);
    expect(splitKeys("0123\r")).toEqual(["0", "1", "2", "3", "\r"]);
    expect(splitKeys("\u001b[A\u001b[B\u001b[5~x")).toEqual(["\u001b[A", "\u001b[B", "\u001b[5~", "x"]);
    expect(splitKeys("\u001bOPé\u001b")).toEqual(["\u001bOP", "é", "\u001b"]);
    expect(splitKeys("a\r\nb")).toEqual(["a", "\r\n", "b"]);
    expect(splitKeys("😀x")).toEqual(["😀", "x"]);
  });

  it("keeps a run of printable text whole in text mode, up to a control key", () => {
    expect(nextKey("0123456789012\rnext", true)).toBe("0123456789012");
    expect(nextKey("\rnext", true)).toBe("\r");
  });
});

describe("which escape sequences are keys", () => {
  it("keeps the keys Ink knows and drops sequences that name none", () => {
    for (const k of [
      "\u001b",
      "\u001b[A",
      "\u001b[1;5C",
      "\u001bOP",
      "\u001b[3~",
      "\u001b[6~",
      "\u001b[Z",
      "\u001bx",
      "\u001b[97;5u",
    ])
      expect(isKnownKey(k), JSON.stringify(k)).toBe(true);
    for (const k of ["\u001b[31m", "\u001b[2J", "\u001b[?25l", "\u001b[200~", "\u001b[201~", "\u001b]0;title"])
      expect(isKnownKey(k), JSON.stringify(k)).toBe(false);
    expect(isKnownKey("a")).toBe(true);
  });
});

describe("the key stream", () => {
  it("hands a scanner's burst over as the code's keys, then Enter, one read each", async () => {
    const source = new Source();
    const stream = new KeyStream(source);
    const got = reader(stream);
    source.write("0123456789012\r");
    await vi.waitFor(() => expect(stream.idle()).toBe(true));
    expect(got).toEqual([..."0123456789012", "\r"]);
  });

  it("passes a paste whole while a text field has the keyboard", async () => {
    const source = new Source();
    let text = true;
    const stream = new KeyStream(source, { textMode: () => text });
    const got = reader(stream);
    source.write("0123456789012\r");
    await vi.waitFor(() => expect(stream.idle()).toBe(true));
    expect(got).toEqual(["0123456789012", "\r"]);
    text = false;
    source.write("jj");
    await vi.waitFor(() => expect(stream.idle()).toBe(true));
    expect(got.slice(2)).toEqual(["j", "j"]);
  });

  it("gives the focused field its control keys, and drops a huge paste with nowhere to go", async () => {
    const source = new Source();
    const taken: string[] = [];
    const dropped: number[] = [];
    let text = true;
    const stream = new KeyStream(source, {
      textMode: () => text,
      intercept: (k) => {
        if (k !== "\u0015") return false;
        taken.push(k);
        return true;
      },
      maxBacklog: 100,
      maxCommandChunk: 1000,
      onDropped: (n) => dropped.push(n),
    });
    const got = reader(stream);
    source.write("ab\u0015c");
    await vi.waitFor(() => expect(stream.idle()).toBe(true));
    expect(got).toEqual(["ab", "c"]);
    expect(taken).toEqual(["\u0015"]);
    text = false;
    source.write("x".repeat(100_000));
    expect(dropped).toEqual([100_000]);
    for (let i = 0; i < 3; i++) source.write("x".repeat(50));
    expect(dropped).toEqual([100_000, 50]);
    await vi.waitFor(() => expect(stream.idle()).toBe(true), { timeout: 5000 });
    expect(got.length).toBe(2 + 100);
  });

  it("takes a short read outside a text field as keys, and a longer one as a paste it drops", async () => {
    const source = new Source();
    const dropped: number[] = [];
    const stream = new KeyStream(source, { onDropped: (n) => dropped.push(n) });
    const got = reader(stream);
    source.write("jjj");
    source.write("a pasted line with a q in it");
    await vi.waitFor(() => expect(stream.idle()).toBe(true));
    expect(got).toEqual(["j", "j", "j"]);
    expect(dropped).toEqual([28]);
  });

  it("takes a held arrow key's repeats arriving in one read as keys, not as a paste", async () => {
    // A busy frame lets a held ↓ pile up in the terminal: 20 repeats (60 characters) in one read.
    const source = new Source();
    const dropped: number[] = [];
    const stream = new KeyStream(source, { onDropped: (n) => dropped.push(n) });
    const got = reader(stream);
    source.write("\u001b[B".repeat(20));
    source.write(`${"\u001b[A".repeat(3)}\u001b[6~\u001b[1;2B`);
    await vi.waitFor(() => expect(stream.idle()).toBe(true));
    expect(got).toEqual([
      ...Array.from({ length: 20 }, () => "\u001b[B"),
      ...Array.from({ length: 3 }, () => "\u001b[A"),
      "\u001b[6~",
      "\u001b[1;2B",
    ]);
    expect(dropped).toEqual([]);
    // Seventeen keys with text among them are still a paste; so is a pasted colour code's text, and
    // a run of keys that are not movement (Delete, F5).
    source.write(`\u001b[B${"x".repeat(16)}`);
    source.write("\u001b[31mred text here\u001b[0m");
    source.write("\u001b[3~".repeat(6));
    source.write("\u001b[15~".repeat(4));
    await vi.waitFor(() => expect(stream.idle()).toBe(true));
    expect(dropped).toEqual([19, 22, 24, 20]);
  });

  it("quits on a ctrl+c read on its own, and drops one pasted inside other text", async () => {
    const source = new Source();
    const stream = new KeyStream(source);
    const got = reader(stream);
    source.write("ab\u0003c");
    await vi.waitFor(() => expect(stream.idle()).toBe(true));
    source.write("\u0003");
    await vi.waitFor(() => expect(stream.idle()).toBe(true));
    expect(got).toEqual(["a", "b", "c", "\u0003"]);
  });

  it("forwards raw mode and the TTY flag to the terminal", () => {
    const source = Object.assign(new Source(), { setRawMode: vi.fn(), ref: vi.fn(), unref: vi.fn() });
    const stream = new KeyStream(source);
    expect(stream.isTTY).toBe(true);
    stream.setRawMode(true);
    stream.ref();
    expect(source.setRawMode).toHaveBeenCalledWith(true);
    expect(source.ref).toHaveBeenCalled();
  });
});

describe("scans in the key stream", () => {
  /** A stream that takes scans, on a virtual clock; `route` says where bursts go. */
  function scanning(opts: { text?: boolean; route?: BurstRoute; took?: boolean } = {}) {
    const source = new Source();
    const timers = new VirtualTimers();
    const scans: string[] = [];
    const state = { route: opts.route ?? "scan", text: opts.text ?? false };
    const stream = new KeyStream(source, {
      textMode: () => state.text,
      bursts: () => state.route,
      onScan: (code) => {
        scans.push(code);
        return opts.took ?? true;
      },
      timers,
    });
    const got = reader(stream);
    const settled = () => vi.waitFor(() => expect(stream.idle()).toBe(true));
    return { source, timers, scans, state, stream, got, settled };
  }

  it("hands a 13-digit code and Enter in one read to onScan whole, never to Ink as keys", async () => {
    const t = scanning();
    t.source.write("0712630000215\r");
    await t.settled();
    expect(t.scans).toEqual(["0712630000215"]);
    expect(t.got).toEqual([]);
  });

  it("keeps a scan in its place among keys, and a typist's keys as keys", async () => {
    const t = scanning();
    t.source.write("\u001b[B");
    t.source.write("4006381333931\r");
    t.timers.advance(100);
    t.source.write("j");
    // A person's next key is far off: the held `j` goes as a key once the gap has passed.
    t.timers.advance(200);
    await t.settled();
    expect(t.scans).toEqual(["4006381333931"]);
    expect(t.got).toEqual(["\u001b[B", "j"]);
  });

  it("holds printable keys exactly the scan gap on its clock, however busy the machine", async () => {
    const t = scanning();
    t.source.write("jj");
    t.timers.advance(SCAN_GAP_MS);
    // Real time passes meanwhile; only the key clock decides.
    await new Promise((r) => setTimeout(r, 50));
    expect(t.stream.idle()).toBe(false);
    expect(t.got).toEqual([]);
    t.timers.advance(1);
    await t.settled();
    expect(t.got).toEqual(["j", "j"]);
  });

  it("a burst at a scanner's pace is a scan, and the same keys at a typist's pace are keys", async () => {
    const t = scanning();
    for (const c of "0712") {
      t.source.write(c);
      t.timers.advance(2);
    }
    t.source.write("\r");
    t.timers.advance(200);
    await t.settled();
    expect(t.scans).toEqual(["0712"]);
    for (const c of "0712\r") {
      t.source.write(c);
      t.timers.advance(120);
    }
    await t.settled();
    expect(t.scans).toEqual(["0712"]);
    expect(t.got).toEqual([..."0712", "\r"]);
  });

  it("hands typed text over at once where bursts are text: no hold, no scan, the Enter kept", async () => {
    const t = scanning({ route: "text", text: true });
    t.source.write("2026-11-20\r");
    // Not a millisecond passes on the key clock: nothing waits for it.
    await t.settled();
    expect(t.got).toEqual(["2026-11-20", "\r"]);
    expect(t.scans).toEqual([]);
  });

  it("lets keys held for a possible scan go first when the keys move where bursts are text", async () => {
    const t = scanning();
    t.source.write("ab");
    t.state.route = "text";
    t.source.write("cd\r");
    await t.settled();
    expect(t.got).toEqual(["a", "b", "c", "d", "\r"]);
    expect(t.scans).toEqual([]);
  });

  it("hands a scan over as typed keys and Enter when, at its turn, the shell says it is text there", async () => {
    const t = scanning({ took: false, text: true });
    t.source.write("0712630000215\r");
    await t.settled();
    expect(t.scans).toEqual(["0712630000215"]);
    expect(t.got).toEqual(["0712630000215", "\r"]);
  });

  it("drops a 100 KB paste with no field open even when it ends in Enter", async () => {
    const source = new Source();
    const scans: string[] = [];
    const dropped: number[] = [];
    const stream = new KeyStream(source, {
      onScan: (c) => scans.push(c) > 0,
      onDropped: (n) => dropped.push(n),
      timers: new VirtualTimers(),
    });
    const got = reader(stream);
    source.write(`${"q".repeat(100_000)}\r`);
    await vi.waitFor(() => expect(stream.idle()).toBe(true));
    expect(dropped).toEqual([100_001]);
    expect(scans).toEqual([]);
    expect(got).toEqual([]);
  });
});

describe("esc, tab and pastes", () => {
  async function keysOf(reads: string[], textMode = true): Promise<{ got: string[]; dropped: number[] }> {
    const source = new Source();
    const dropped: number[] = [];
    const stream = new KeyStream(source, {
      textMode: () => textMode,
      bursts: () => "text",
      onScan: () => true,
      onDropped: (n) => dropped.push(n),
      timers: new VirtualTimers(),
    });
    const got = reader(stream);
    for (const read of reads) source.write(read);
    await vi.waitFor(() => expect(stream.idle()).toBe(true));
    return { got, dropped };
  }

  it("takes two esc in one read as two presses of esc, and ESC ESC [ A as meta+↑", async () => {
    expect(splitKeys("\u001b\u001b")).toEqual(["\u001b", "\u001b"]);
    expect(splitKeys("\u001b\u001b\u001b")).toEqual(["\u001b", "\u001b", "\u001b"]);
    expect(splitKeys("\u001b\u001b[A")).toEqual(["\u001b\u001b[A"]);
    expect(splitKeys("\u001b\u001bOA")).toEqual(["\u001b\u001bOA"]);
    expect(splitKeys("\u001b\u001bx")).toEqual(["\u001b", "\u001b", "x"]);
    expect(splitKeys("\u001b6\u001b\u007f")).toEqual(["\u001b", "6", "\u001b\u007f"]);
    // esc then enter, tab or a line feed: two keys (as one, enter would save the form esc cancelled).
    expect(splitKeys("\u001b\r\u001b\t\u001b\n")).toEqual(["\u001b", "\r", "\u001b", "\t", "\u001b", "\n"]);
    expect((await keysOf(["/smit\u001b\u001b6"], false)).got).toEqual([
      "/",
      "s",
      "m",
      "i",
      "t",
      "\u001b",
      "\u001b",
      "6",
    ]);
  });

  it("keeps a typed tab a tab, inside a read or at its end (tmux send-keys 'Till' Tab 'url' is one read)", async () => {
    expect((await keysOf(["Till\turl"])).got).toEqual(["Till", "\t", "url"]);
    expect((await keysOf(["Till\t", "url"])).got).toEqual(["Till", "\t", "url"]);
    expect((await keysOf(["Till", "\t", "url"])).got).toEqual(["Till", "\t", "url"]);
  });

  it("takes a bracketed paste whole into the field: its tabs and line breaks are spaces, the last break dropped", async () => {
    expect((await keysOf(["\u001b[200~a\tb\r\nc\r\n\u001b[201~"])).got).toEqual(["a b c"]);
    // A paste in pieces, with typed keys around it.
    expect((await keysOf(["x\u001b[200~2026-", "11-20", "\n\u001b[201~\r"])).got).toEqual(["x", "2026-11-20", "\r"]);
  });

  it("ends a paste whose end never comes once no piece has arrived for a while; the keys after it are keys", async () => {
    const source = new Source();
    const timers = new VirtualTimers();
    const stream = new KeyStream(source, { textMode: () => true, bursts: () => "text", timers });
    const got = reader(stream);
    source.write("\u001b[200~2026-");
    timers.advance(PASTE_END_WAIT_MS - 100);
    source.write("11-20");
    // Each piece waits afresh: the paste is still open just short of the wait after its last piece.
    timers.advance(PASTE_END_WAIT_MS - 1);
    expect(stream.idle()).toBe(false);
    timers.advance(1);
    await vi.waitFor(() => expect(stream.idle()).toBe(true));
    source.write("\r");
    await vi.waitFor(() => expect(stream.idle()).toBe(true));
    expect(got).toEqual(["2026-11-20", "\r"]);
  });

  it("drops a bracketed paste with no text field open, whatever its length, and says so", async () => {
    const { got, dropped } = await keysOf(["\u001b[200~q1\u001b[201~"], false);
    expect(got).toEqual([]);
    expect(dropped).toEqual([2]);
  });
});
