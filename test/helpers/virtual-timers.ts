// A clock that moves only when a test says so, with timers that fire as it passes their time: the
// `Timers` the store and the key stream take (src/state/types.ts). A test of timing then decides
// its outcome by the times it names, never by how busy the machine is.
import type { Timers } from "../../src/state/index.js";

/** Timers on a virtual clock; `advance` moves it and runs what falls due, in order. */
export class VirtualTimers implements Timers {
  private now = 0;
  private seq = 0;
  private waiting: { at: number; seq: number; run: () => void }[] = [];

  after(ms: number, run: () => void): void {
    this.waiting.push({ at: this.now + Math.max(0, ms), seq: this.seq++, run });
  }

  elapsed(): number {
    return this.now;
  }

  /** Moves the clock `ms` on, running each timer that falls due at its own time (and those they set). */
  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const due = this.waiting.filter((w) => w.at <= until).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.waiting.splice(this.waiting.indexOf(due), 1);
      this.now = Math.max(this.now, due.at);
      due.run();
    }
    this.now = until;
  }
}
