/** How big a run is: the figures of `npm run reliability`, or the quick version `npm test` runs. */
export type Mode = "full" | "fast";

/** One measured figure: what it is, its value, the target it must meet (if any) and whether it does. */
export interface Figure {
  label: string;
  value: string;
  target?: string;
  ok: boolean;
}

/** What every section gets from the runner. */
export interface SectionContext {
  mode: Mode;
  /** Seeds every random choice of the run: the same seed repeats the same run. */
  seed: number;
  /** The bundled CLI (`backroom.mjs`), for sections that run `backroom serve` in its own process. */
  cli: string;
  /** A scratch folder of the run's own, removed afterwards. */
  tmp: string;
  /** Progress and details (failing cases, curl commands) for the reader. */
  log(line: string): void;
}

/** One part of the reliability report: it measures, and says which figures meet their targets. */
export interface Section {
  name: string;
  title: string;
  run(ctx: SectionContext): Promise<Figure[]>;
}

/** A figure that must be exactly `want`. */
export const exactly = (label: string, value: number, want = 0): Figure => ({
  label,
  value: String(value),
  target: `= ${want}`,
  ok: value === want,
});

/** A figure that must be at least `min`. */
export const atLeast = (label: string, value: number, min: number, unit = ""): Figure => ({
  label,
  value: `${value}${unit}`,
  target: `≥ ${min}${unit}`,
  ok: value >= min,
});

/** A figure that must be at most `max`. */
export const atMost = (label: string, value: number, max: number, unit = ""): Figure => ({
  label,
  value: `${Number.isInteger(value) ? value : value.toFixed(1)}${unit}`,
  target: `≤ ${max}${unit}`,
  ok: value <= max,
});

/** A figure printed for the reader, with no target. */
export const info = (label: string, value: string): Figure => ({ label, value, ok: true });

/** A figure that is a yes/no check. */
export const check = (label: string, ok: boolean, value = ok ? "yes" : "no"): Figure => ({
  label,
  value,
  target: "yes",
  ok,
});
