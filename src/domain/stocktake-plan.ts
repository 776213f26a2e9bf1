/**
 * How a finished count becomes PHYSICAL_COUNT changes: the lines a commit sends, their
 * `occurred_at`, and the requests they are sent in (each formed once, its key never changing).
 */
import type { BatchChangeInventoryRequest, InventoryChange } from "../spec/generated/types.js";
import { MAX_INVENTORY_CHANGES_PER_BATCH } from "./limits.js";
import type { ReviewRow } from "./stocktake.js";

/** At most this many changes in one BatchChangeInventory request (the interface's limit). */
export const MAX_CHANGES_PER_BATCH = MAX_INVENTORY_CHANGES_PER_BATCH;

/**
 * How old a physical count's `occurred_at` may be when it is sent: the interface refuses counts
 * older than 24 hours. An hour is kept in hand for a slow commit and clock skew.
 */
export const MAX_OCCURRED_AGE_MS = 23 * 3_600_000;

/** One line as it goes into the commit. */
export interface CommitLine {
  variationId: string;
  quantity: string;
  countedAt: string;
  countedBy: string;
}

/** The lines the commit sends: every counted line, and a full count's uncounted items at zero when so chosen. */
export function commitLinesOf(rows: readonly ReviewRow[], decidedAt: string, counter: string): CommitLine[] {
  const out: CommitLine[] = [];
  for (const r of rows) {
    if (r.counted === undefined) continue;
    out.push({
      variationId: r.item.variationId,
      quantity: r.counted,
      // An uncounted item set to zero is "counted" when the manager decided so.
      countedAt: r.countedAt ?? decidedAt,
      countedBy: r.countedBy ?? counter,
    });
  }
  return out;
}

/**
 * The `occurred_at` a line is sent with: when it was counted, so the service places the count
 * among the sales made during the count — unless that is too old for the interface (or in the
 * future by a skewed clock), then the moment of sending.
 */
export function occurredAtFor(countedAt: string, now: Date): string {
  const at = Date.parse(countedAt);
  if (Number.isNaN(at) || at > now.getTime() || now.getTime() - at > MAX_OCCURRED_AGE_MS) return now.toISOString();
  return new Date(at).toISOString();
}

/** One request of a commit, formed once: its key and body never change afterwards. */
export interface PlannedBatch {
  /** 0-based position in the commit. */
  seq: number;
  idempotencyKey: string;
  variationIds: string[];
  body: BatchChangeInventoryRequest;
}

/** The PHYSICAL_COUNT change of one line. */
export function physicalCountChange(
  line: CommitLine,
  ctx: { referenceId: string; locationId: string; now: Date },
): InventoryChange {
  return {
    type: "PHYSICAL_COUNT",
    physical_count: {
      reference_id: ctx.referenceId,
      catalog_object_id: line.variationId,
      catalog_object_type: "ITEM_VARIATION",
      state: "IN_STOCK",
      location_id: ctx.locationId,
      quantity: line.quantity,
      ...(line.countedBy ? { team_member_id: line.countedBy } : {}),
      occurred_at: occurredAtFor(line.countedAt, ctx.now),
    },
  };
}

/**
 * Forms the commit's requests: the lines in counting order, at most `size` to a request, each
 * with an idempotency key minted now. `ignore_unchanged_counts` is off so that every line is
 * recorded — a count that agrees with the books is still a count.
 */
export function planCommitBatches(
  lines: readonly CommitLine[],
  ctx: { referenceId: string; locationId: string; now: Date; newKey: () => string; size?: number; firstSeq?: number },
): PlannedBatch[] {
  const size = Math.min(ctx.size ?? MAX_CHANGES_PER_BATCH, MAX_CHANGES_PER_BATCH);
  if (size < 1) throw new RangeError("batch size must be at least 1");
  // RFC 3339 times and ids compare as plain text: no locale rules, and fast for 10,000 lines.
  const byText = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  const ordered = [...lines].sort((a, b) => byText(a.countedAt, b.countedAt) || byText(a.variationId, b.variationId));
  const batches: PlannedBatch[] = [];
  for (let i = 0; i < ordered.length; i += size) {
    const slice = ordered.slice(i, i + size);
    const idempotencyKey = ctx.newKey();
    batches.push({
      seq: (ctx.firstSeq ?? 0) + batches.length,
      idempotencyKey,
      variationIds: slice.map((l) => l.variationId),
      body: {
        idempotency_key: idempotencyKey,
        changes: slice.map((l) => physicalCountChange(l, ctx)),
        ignore_unchanged_counts: false,
      },
    });
  }
  return batches;
}

/**
 * Which change of a refused batch the service named (`changes[3].physical_count.quantity` → 3),
 * so that one bad line can be set aside and the rest sent; undefined when no change is named.
 */
export function refusedChangeIndex(field: string | undefined): number | undefined {
  const m = /^changes\[(\d+)\]/.exec(field ?? "");
  return m ? Number(m[1]) : undefined;
}
