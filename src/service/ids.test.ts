import { describe, expect, it } from "vitest";
import { randomIds, seededIds, timeOrderedId } from "./ids.js";
import { seededRandom } from "./seed/random.js";

describe("ids", () => {
  it("are upper-case base-36 of the asked length, and do not repeat across pool refills", () => {
    const ids = randomIds();
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const id = ids.next();
      expect(id).toMatch(/^[A-Z0-9]{26}$/);
      seen.add(id);
    }
    expect(seen.size).toBe(2000);
    expect(ids.next(13)).toHaveLength(13);
  });

  it("are the same for the same seed", () => {
    const a = seededIds(seededRandom(7));
    const b = seededIds(seededRandom(7));
    expect([a.next(), a.next()]).toEqual([b.next(), b.next()]);
  });

  it("minted in time order sort in time order, with the same shape", () => {
    const ids = randomIds();
    const times = ["2024-01-18T00:00:00.000Z", "2024-01-18T00:00:00.001Z", "2026-11-26T20:00:00.000Z"];
    const minted = times.map((t) => timeOrderedId(new Date(t), ids));
    for (const id of minted) expect(id).toMatch(/^[A-Z0-9]{26}$/);
    expect([...minted].sort()).toEqual(minted);
    // Two at the same moment differ.
    const at = new Date(times[0] ?? "");
    expect(timeOrderedId(at, ids)).not.toBe(timeOrderedId(at, ids));
  });
});
