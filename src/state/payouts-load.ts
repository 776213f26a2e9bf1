// Reading payouts from the service: shared by the payouts slice and the `backroom payouts`
// commands, so the screen and the commands show the same numbers.
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { localDayWindow } from "../domain/cash-drawers.js";
import { errorCode, fileErrorWords, sizeOverWords } from "../domain/file-errors.js";
import { MAX_STATEMENT_BYTES } from "../domain/limits.js";
import { dueDate } from "../domain/payout-reconcile.js";
import { addDays } from "../domain/time.js";
import type { Location, Payout, PayoutEntry, PayoutStatus } from "../spec/generated/types.js";
import { SquareApiError } from "../square/errors.js";
import type { SquareClient } from "../square/index.js";
import { mapLimit } from "./drawers-load.js";
import { readTextFile } from "./read-text-file.js";

/** The calls the payouts screen and commands make. */
export interface PayoutsClient {
  payouts: Pick<SquareClient["payouts"], "listPayouts" | "getPayout" | "listPayoutEntries">;
}

/** Entries are read a page at a time: the interface's largest page. */
export const ENTRY_PAGE_SIZE = 100;

/** Payouts whose entries are read at once, for the weekly fees. */
export const ENTRY_READ_CONCURRENCY = 4;

/** Whether a failure is the sign-in lacking `PAYOUTS_READ`: said as such, never as an error. */
export function isMissingPayoutsPermission(err: unknown): boolean {
  return err instanceof SquareApiError && (err.hasCode("INSUFFICIENT_SCOPES") || err.status === 403);
}

/** What to ask for: locations (each with its time zone), local dates, and a status or all. */
export interface PayoutQuery {
  locations: readonly Pick<Location, "id" | "timezone">[];
  from: string;
  to: string;
  status?: PayoutStatus | undefined;
}

/**
 * The payouts created on the local dates `from`..`to` (each location's own days: `begin_time`
 * inclusive, `end_time` exclusive, on creation time), of every location asked for, newest first.
 */
export async function listPayoutsInRange(client: PayoutsClient, q: PayoutQuery): Promise<Payout[]> {
  const lists = await Promise.all(
    q.locations.map(async (l) => {
      const { begin, end } = localDayWindow(q.from, q.to, l.timezone ?? "UTC");
      return client.payouts
        .listPayouts({
          location_id: l.id ?? "",
          begin_time: begin,
          end_time: end,
          sort_order: "DESC",
          limit: 100,
          ...(q.status ? { status: q.status } : {}),
        })
        .all();
    }),
  );
  return lists.flat().sort(newestFirst);
}

const newestFirst = (a: Payout, b: Payout) =>
  (b.created_at ?? "").localeCompare(a.created_at ?? "") || b.id.localeCompare(a.id);

/**
 * Every entry of one payout, oldest first, a page at a time: `onPage` sees what has arrived so
 * far, so a screen can draw the first hundred while the rest are on their way.
 */
export async function loadPayoutEntries(
  client: PayoutsClient,
  payoutId: string,
  onPage?: (soFar: readonly PayoutEntry[], done: boolean) => void,
): Promise<PayoutEntry[]> {
  const entries: PayoutEntry[] = [];
  for await (const page of client.payouts
    .listPayoutEntries(payoutId, { sort_order: "ASC", limit: ENTRY_PAGE_SIZE })
    .pages()) {
    entries.push(...(page.payout_entries ?? []));
    onPage?.(entries, !page.cursor);
  }
  return entries;
}

/** The entries of each payout, read a few payouts at a time; `onProgress` counts payouts done. */
export async function loadEntriesOf(
  client: PayoutsClient,
  payouts: readonly Payout[],
  onProgress?: (done: number, total: number) => void,
): Promise<Map<string, PayoutEntry[]>> {
  const out = new Map<string, PayoutEntry[]>();
  let done = 0;
  await mapLimit(payouts, ENTRY_READ_CONCURRENCY, async (p) => {
    out.set(p.id, await loadPayoutEntries(client, p.id));
    done += 1;
    onProgress?.(done, payouts.length);
  });
  return out;
}

/** Days before a statement's first date whose payouts may still post on it (created, then due, then posted). */
const STATEMENT_LEAD_DAYS = 14;

/**
 * The payouts a statement of `from`..`to` may show: those created from two weeks before its first
 * date (a payout is due a day or two after it is created and may post three business days later)
 * up to the day after its last, of every location given.
 */
export async function payoutsForStatement(
  client: PayoutsClient,
  locations: readonly Pick<Location, "id" | "timezone">[],
  range: { from: string; to: string },
): Promise<Payout[]> {
  const payouts = await listPayoutsInRange(client, {
    locations,
    from: addDays(range.from, -STATEMENT_LEAD_DAYS),
    to: addDays(range.to, 1),
  });
  return payouts.sort((a, b) => (dueDate(a) ?? "").localeCompare(dueDate(b) ?? "") || a.id.localeCompare(b.id));
}

/** A path as typed: `~` is the home folder, a relative path is from the working folder. */
export function typedPath(path: string, home: string = homedir()): string {
  const p = path.trim();
  const expanded = p === "~" ? home : p.startsWith("~/") ? join(home, p.slice(2)) : p;
  return isAbsolute(expanded) ? expanded : resolve(expanded);
}

/**
 * A statement file's text, or why it cannot be read, in words: a file over
 * {@link MAX_STATEMENT_BYTES} is refused by its size before it is read (a pipe or a device is read
 * no further than that).
 */
export async function readStatementText(
  path: string,
): Promise<{ ok: true; text: string } | { ok: false; problem: string }> {
  try {
    const read = await readTextFile(path, MAX_STATEMENT_BYTES);
    if (read.ok) return { ok: true, text: read.text };
    const size = sizeOverWords(read.bytes, MAX_STATEMENT_BYTES, read.exact);
    return { ok: false, problem: `${path} is ${size}; a statement export is far smaller.` };
  } catch (err) {
    const code = errorCode(err);
    if (code === "ENOENT") return { ok: false, problem: `There is no file ${path}.` };
    if (code === "EISDIR") return { ok: false, problem: `${path} is a folder, not a statement.` };
    return {
      ok: false,
      problem: `${path} cannot be read (${fileErrorWords(code, "read") ?? code ?? (err as Error).message}).`,
    };
  }
}

/**
 * The one currency a statement of these locations is in, or why there is none: a bank account
 * holds one currency, so locations in several cannot share a statement.
 */
export function statementCurrency(
  locations: readonly Pick<Location, "currency" | "name" | "id">[],
): { ok: true; currency: string } | { ok: false; problem: string } {
  const currencies = [...new Set(locations.map((l) => l.currency ?? "USD"))];
  if (currencies.length > 1) {
    return {
      ok: false,
      problem: `The locations are in ${currencies.join(" and ")}; a bank statement is in one currency, so reconcile one location at a time.`,
    };
  }
  return { ok: true, currency: currencies[0] ?? "USD" };
}
