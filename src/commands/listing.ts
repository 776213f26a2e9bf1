// What the commands that list a store's records share: which store (or every one) they read,
// the client they read it with, and where and how they write what they read.
import type { Location } from "../spec/generated/types.js";
import type { OptionSpec } from "./args.js";
import { type OutputFormat, type OutTarget, outputFormat, outTarget } from "./output.js";
import { type OpenedClient, type Target, type TargetFlagValues, targetFlags } from "./target.js";

/** `--location`: one store, by id or name. */
export const LOCATION_OPTION = {
  type: "string",
  short: "l",
  value: "ID|NAME",
  help: "the location, by id or name in any case (default: the config's defaultLocationId, else the first)",
} as const satisfies OptionSpec;

/** `--location` of the commands that can read every store at once: one store, or `all`. */
export const LOCATION_OR_ALL_OPTION = {
  type: "string",
  short: "l",
  value: "ID|NAME|all",
  help: "the location, by id or name in any case, or all: every store (default: the config's defaultLocationId, else the first)",
} as const satisfies OptionSpec;

/** Whether a `--location` asks for every store (`all`, in any case). */
export const isAllLocations = (wanted: string | undefined): boolean => wanted?.trim().toLowerCase() === "all";

/** The call that finds the seller's locations. */
export interface LocationsClient {
  locations: { listLocations(): PromiseLike<{ locations?: Location[] }> };
}

/** The seller's locations that are not inactive: the ones a `--location` may name. */
export async function activeLocations(client: LocationsClient): Promise<Location[]> {
  return ((await client.locations.listLocations()).locations ?? []).filter((l) => l.status !== "INACTIVE");
}

/**
 * What a command builds on: how to open a client with the calls `C` on the resolved target (by
 * default `openTarget`; tests pass the local service's), and the clock.
 */
export interface TargetDeps<C> {
  open?: (target: Target) => Promise<Pick<OpenedClient, "close"> & { client: C }>;
  now?: () => Date;
}

/** The flags every listing command takes: where it reads, how and where it writes, on what target. */
export interface ListingFlags {
  location: string | undefined;
  format: OutputFormat;
  out: OutTarget;
  target: TargetFlagValues;
}

/** Reads and checks the listing flags of a command line (a UsageError names the flag). */
export function listingFlags(
  values: TargetFlagValues &
    Parameters<typeof outputFormat>[0] &
    Parameters<typeof outTarget>[0] & { location?: string | undefined },
  env: Readonly<Record<string, string | undefined>>,
): ListingFlags {
  return {
    location: values.location,
    format: outputFormat(values),
    out: outTarget(values, env),
    target: targetFlags(values),
  };
}
