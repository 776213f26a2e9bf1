/** A small, fast seeded generator (mulberry32): the demo store is identical on every machine. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Helpers over a seeded generator. */
export interface Rng {
  (): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

/** Wraps a generator with int/pick/chance. */
export function rng(seed: number): Rng {
  const r = seededRandom(seed);
  const f = (() => r()) as Rng;
  f.int = (min, max) => min + Math.floor(r() * (max - min + 1));
  f.pick = (items) => {
    const item = items[Math.floor(r() * items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  };
  f.chance = (p) => r() < p;
  return f;
}
