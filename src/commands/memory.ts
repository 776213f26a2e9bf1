import { setFlagsFromString } from "node:v8";

/**
 * Keeps V8's young generation at the size start-up left it. V8 doubles it, up to 32 MB, whenever
 * enough objects outlive a collection (as when a review of thousands of shifts arrives) and hands
 * the room back only after a long idle spell. An app that waits on a person between key presses
 * does not need it: a key press leaves little garbage (Ink's output is cached). Called once the
 * first frame is drawn, so start-up, which does use the room, is not slowed.
 *
 * The one V8 setting changed at run time. Node warns that a flag set after start may do nothing;
 * this one is read each time V8 considers growing the young generation, and scripts/bench-ui.mjs
 * shows its effect on resident memory (10,000 shifts loaded: about 25 MB less; key press p95 the
 * same). A start-up flag (`--max-semi-space-size`) costs 20 ms of every start instead.
 */
export function holdYoungGeneration(): void {
  setFlagsFromString("--semi-space-growth-factor=1");
}
