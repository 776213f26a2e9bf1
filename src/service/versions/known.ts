import { parseDate } from "../../domain/time.js";
import { invalid } from "../errors.js";

/**
 * Every Square-Version the service has released, up to the one this project speaks (2024-01-18):
 * the versions the official SDKs were pinned to at each release (square/connect-javascript-sdk
 * tags 2.20180712.0 … 6.20201216.0; square/square-nodejs-sdk `squareVersion` of 8.0.0 … 34.0.0).
 * "Requesting an API version that does not exist returns an error"
 * (https://developer.squareup.com/docs/build-basics/versioning-overview).
 */
export const KNOWN_VERSIONS: readonly string[] = [
  "2018-07-12",
  "2018-09-18",
  "2018-12-05",
  "2018-12-12",
  "2019-02-13",
  "2019-03-13",
  "2019-03-27",
  "2019-04-10",
  "2019-05-08",
  "2019-06-12",
  "2019-07-10",
  "2019-08-14",
  "2019-09-25",
  "2019-11-20",
  "2019-12-17",
  "2020-01-22",
  "2020-02-26",
  "2020-03-25",
  "2020-04-22",
  "2020-05-28",
  "2020-06-25",
  "2020-07-22",
  "2020-08-12",
  "2020-08-26",
  "2020-09-23",
  "2020-10-28",
  "2020-11-18",
  "2020-12-16",
  "2021-01-21",
  "2021-02-26",
  "2021-03-17",
  "2021-04-21",
  "2021-05-13",
  "2021-06-16",
  "2021-07-21",
  "2021-08-18",
  "2021-09-15",
  "2021-10-20",
  "2021-11-17",
  "2021-12-15",
  "2022-01-20",
  "2022-02-16",
  "2022-03-16",
  "2022-04-20",
  "2022-05-12",
  "2022-06-16",
  "2022-07-20",
  "2022-08-17",
  "2022-08-23",
  "2022-09-21",
  "2022-10-19",
  "2022-11-16",
  "2022-12-14",
  "2023-01-19",
  "2023-03-15",
  "2023-04-19",
  "2023-05-17",
  "2023-06-08",
  "2023-07-20",
  "2023-08-16",
  "2023-09-25",
  "2023-10-18",
  "2023-11-15",
  "2023-12-13",
  "2024-01-18",
];

const KNOWN: ReadonlySet<string> = new Set(KNOWN_VERSIONS);
const SHAPE = /^\d{4}-\d{2}-\d{2}$/;

/** The newest version the service knows. */
export const NEWEST_VERSION = KNOWN_VERSIONS[KNOWN_VERSIONS.length - 1] ?? "2024-01-18";

/** Whether a version is one the service released. */
export const isKnownVersion = (v: string): boolean => KNOWN.has(v);

/**
 * The Square-Version a request is answered in: its header, or `fallback` (the application's
 * default) when the header is absent or empty. Malformed or unknown → INVALID_SQUARE_VERSION_FORMAT,
 * the service's own code for a Square-Version it cannot serve.
 */
export function requestVersion(header: string | undefined, fallback: string): string {
  const version = header || fallback;
  if (KNOWN.has(version)) return version;
  if (!SHAPE.test(version) || !parseDate(version)) {
    throw invalid(
      "INVALID_SQUARE_VERSION_FORMAT",
      `Square-Version must be YYYY-MM-DD, got ${JSON.stringify(version)}.`,
    );
  }
  throw invalid(
    "INVALID_SQUARE_VERSION_FORMAT",
    version > NEWEST_VERSION
      ? `Square-Version ${version} is newer than this service's newest, ${NEWEST_VERSION}.`
      : `Square-Version ${version} is not a released version of the interface.`,
  );
}
