// What the stocktake journal holds: counts, their lines and unknown codes, and the requests of
// their commits.
import type {
  CountLine,
  CountScope,
  ExpectedCount,
  PlannedBatch,
  StockItem,
  UncountedChoice,
} from "../domain/stocktake.js";
import type { RequestState } from "./request-log.js";

/** Where a count stands. */
export type CountStatus = "open" | "committing" | "committed" | "discarded";

/** A count's header. */
export interface CountHeader {
  /** The count's id; also every change's `reference_id`. */
  id: string;
  /** The seller the location belongs to: one open count per location of one seller. */
  merchantId: string;
  locationId: string;
  locationName: string;
  timeZone: string;
  scope: CountScope;
  /** The team member counting (the signed-in one, or one picked at the start); "" when none. */
  counterId: string;
  counterName: string;
  startedAt: string;
  status: CountStatus;
  /** What to do with the uncounted items of a full count. */
  uncounted: UncountedChoice;
  /** Scan = 1 unit mode: every scan adds one. */
  scanOne: boolean;
  /** A blind count: the expected quantities are hidden while counting, shown in the review. */
  blind: boolean;
  /** When the commit was planned (the batches formed). */
  plannedAt: string | undefined;
  committedAt: string | undefined;
  /** The latest `calculated_at` of the book quantities read: where the next incremental read starts. */
  expectedSyncedAt: string | undefined;
}

/** A count in a listing, with how far it got. */
export interface CountListing extends CountHeader {
  lines: number;
  unknownCodes: number;
  batches: number;
  batchesAccepted: number;
}

/** A code scanned or typed that matched nothing, kept to be resolved later. */
export interface UnknownCode {
  code: string;
  firstSeenAt: string;
  lastSeenAt: string;
  times: number;
  /** The variation it was resolved to, if it was. */
  resolvedTo: string | undefined;
}

/** Where a request of the commit stands (the states of every journaled request). */
export type BatchState = RequestState;

/** One request of a commit as the journal holds it. */
export interface JournalBatch extends PlannedBatch {
  state: BatchState;
  attempts: number;
  sentAt: string | undefined;
  settledAt: string | undefined;
  /** The ids of the changes the service recorded, once accepted. */
  changeIds: string[];
  /** Why it was set aside (superseded), in words. */
  problem: string | undefined;
}

/** A line the service refused, set aside from the commit. */
export interface RefusedLine {
  variationId: string;
  problem: string;
}

/** Everything the journal holds about one count. */
export interface CountRecord {
  header: CountHeader;
  /** The catalog entries the count knows, by variation id. */
  items: Map<string, StockItem>;
  /** The variations of the scope, in catalog order (a full count's every tracked variation). */
  scope: string[];
  expected: Map<string, ExpectedCount>;
  /** Counted lines, in the order first counted. */
  lines: CountLine[];
  unknown: UnknownCode[];
  batches: JournalBatch[];
  refused: RefusedLine[];
  /** Names of the team members who counted, by id. */
  people: Map<string, string>;
}

/** What starts a count. */
export type NewCount = Omit<
  CountHeader,
  "id" | "status" | "plannedAt" | "committedAt" | "expectedSyncedAt" | "uncounted" | "scanOne" | "blind"
> &
  Partial<Pick<CountHeader, "uncounted" | "scanOne" | "blind">>;

/** A second open count at a location that already has one. */
export class OpenCountExists extends Error {
  override name = "OpenCountExists";
  readonly existing: CountHeader;
  constructor(existing: CountHeader) {
    super(`A count is already open at ${existing.locationName} (${existing.id}, started ${existing.startedAt}).`);
    this.existing = existing;
  }
}

/** A change to a count that its state does not allow (lines of a count being committed, ...). */
export class CountStateError extends Error {
  override name = "CountStateError";
}
