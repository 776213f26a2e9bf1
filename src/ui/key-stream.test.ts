import { EventEmitter } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { isKnownKey, KeyStream, nextKey, splitKeys } from "./key-stream.js";

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
  it("hands a 13-digit code and Enter in one read to onScan whole, never to Ink as keys", async () => {
    const source = new Source();
    const scans: string[] = [];
    const stream = new KeyStream(source, { onScan: (code) => scans.push(code) });
    const got = reader(stream);
    source.write("0712630000215\r");
    await vi.waitFor(() => expect(stream.idle()).toBe(true));
    expect(scans).toEqual(["0712630000215"]);
    expect(got).toEqual([]);
  });

  it("keeps a scan in its place among keys, and a typist's keys as keys", async () => {
    const source = new Source();
    const scans: string[] = [];
    let now = 0;
    const stream = new KeyStream(source, { onScan: (code) => scans.push(`scan:${code}`), now: () => now });
    const order: string[] = [];
    stream.on("readable", () => {
      for (let k = stream.read(); k !== null; k = stream.read()) order.push(k);
    });
    const onScan = scans;
    source.write("\u001b[B");
    source.write("4006381333931\r");
    now = 100;
    source.write("j");
    // A person's next key is far off: the held `j` goes as a key once the gap has passed.
    now = 200;
    await vi.waitFor(() => expect(stream.idle()).toBe(true));
    expect(onScan).toEqual(["scan:4006381333931"]);
    expect(order).toEqual(["\u001b[B", "j"]);
  });

  it("drops a 100 KB paste with no field open even when it ends in Enter", async () => {
    const source = new Source();
    const scans: string[] = [];
    const dropped: number[] = [];
    const stream = new KeyStream(source, { onScan: (c) => scans.push(c), onDropped: (n) => dropped.push(n) });
    const got = reader(stream);
    source.write(`${"q".repeat(100_000)}\r`);
    await vi.waitFor(() => expect(stream.idle()).toBe(true));
    expect(dropped).toEqual([100_001]);
    expect(scans).toEqual([]);
    expect(got).toEqual([]);
  });

  it("makes a tab inside a paste into a field a space, so it does not switch screens", async () => {
    const source = new Source();
    const stream = new KeyStream(source, { textMode: () => true, onScan: () => {} });
    const got = reader(stream);
    source.write("a\tb c d e f g h i j k l m");
    await vi.waitFor(() => expect(stream.idle()).toBe(true));
    expect(got.join("")).toBe("a b c d e f g h i j k l m");
    expect(got).not.toContain("\t");
  });
});
