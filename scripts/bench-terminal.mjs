// What the in-process UI benchmarks share: a terminal that counts frames and takes key presses,
// and the quantile of sorted samples.
import { EventEmitter } from "node:events";

/** Sorted samples' q-quantile (NaN for none). */
export const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

/** A terminal of `columns`×`rows` that emits `frame` on every write. */
export class FakeStdout extends EventEmitter {
  isTTY = true;
  constructor(columns = 100, rows = 30) {
    super();
    this.columns = columns;
    this.rows = rows;
  }
  write() {
    this.emit("frame");
    return true;
  }
}

/** Keys for the app: `press(data)` hands one read to it, as a terminal does. */
export class FakeStdin extends EventEmitter {
  isTTY = true;
  #queue = [];
  setEncoding() {}
  setRawMode() {}
  ref() {}
  unref() {}
  resume() {}
  pause() {}
  read() {
    return this.#queue.shift() ?? null;
  }
  press(data) {
    this.#queue.push(data);
    this.emit("readable");
  }
}
