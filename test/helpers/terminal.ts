// A fake terminal for driving the app in-process: its output (size, frames) and its input (reads).
import { EventEmitter } from "node:events";

/** A terminal's output as Ink sees it: a size, and the frames written. */
export class FakeStdout extends EventEmitter {
  columns: number;
  rows: number;
  isTTY = true;
  frames = 0;
  last = "";
  /** Everything written, for output that is not written as whole frames. */
  written = "";
  constructor(columns: number, rows: number) {
    super();
    this.columns = columns;
    this.rows = rows;
  }
  write = (frame: string) => {
    this.frames += 1;
    this.last = frame;
    this.written += frame;
    return true;
  };
  /** Changes the size as a terminal window does. */
  resize(columns: number, rows: number) {
    this.columns = columns;
    this.rows = rows;
    this.emit("resize");
  }
}

/** A terminal's input: each `write` is one read of the terminal (a chunk of keys). */
export class FakeStdin extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write(data: string) {
    this.data = data;
    this.emit("readable");
  }
  read(): string | null {
    const d = this.data;
    this.data = null;
    return d;
  }
  setRawMode() {}
  setEncoding() {}
  ref() {}
  unref() {}
}
