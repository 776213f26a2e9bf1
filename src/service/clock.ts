/** The service's clock: every rule that depends on time reads it, and the admin API moves it. */
export interface ServiceClock {
  now(): Date;
  /** Pins the clock to an instant; it keeps running from there. */
  set(at: Date): void;
  advance(seconds: number): void;
}

/** A clock that runs with the machine's time plus an offset the admin API can change. */
export function createClock(base: () => number = Date.now): ServiceClock {
  let offset = 0;
  return {
    now: () => new Date(base() + offset),
    set: (at) => {
      offset = at.getTime() - base();
    },
    advance: (seconds) => {
      offset += seconds * 1000;
    },
  };
}

/** RFC 3339 in UTC with milliseconds, as the service writes timestamps. */
export const iso = (d: Date): string => d.toISOString();
