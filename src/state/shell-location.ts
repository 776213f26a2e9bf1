// The selected location's facts every slice reads: its time zone and its country.
import type { Location } from "../spec/generated/types.js";

/** The IANA time zone of the selected location (UTC when it has none). */
export function timeZoneOf(s: {
  locations: { id?: string; timezone?: string }[];
  locationId: string | undefined;
}): string {
  return s.locations.find((l) => l.id === s.locationId)?.timezone ?? "UTC";
}

/**
 * The country of the selected location (phone numbers are read as its numbers), or of the first
 * location that names one; undefined when none does.
 */
export function countryOf(s: { locations: readonly Location[]; locationId: string | undefined }): string | undefined {
  return s.locations.find((l) => l.id === s.locationId)?.country ?? s.locations.find((l) => l.country)?.country;
}
