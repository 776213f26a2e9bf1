// Kept writes in the manager's words: what each one does ("Clock in Ana Lopez at 09:00"), why the
// service refused one, and which ways out fit that refusal.

import type { Customer } from "../spec/generated/types.js";
import { type KeptTarget, type KeptWrite, timeOf } from "./kept-writes.js";
import { formatMoney } from "./money.js";
import { profileName, shortGan } from "./names.js";
import { localDate, localTime } from "./time.js";

/** How the screens mark what is shown as kept writes will make it, before they are sent. */
export const KEPT_MARK = "◷ kept, not yet sent";
/** {@link KEPT_MARK} where room is short. */
export const KEPT_SHORT = "◷ kept";

/** What the words of a kept write need: names and the store's time zone. */
export interface KeptNames {
  member(id: string): string;
  timeZone: string;
  /** The day today in the store's zone: a time on another day names its date. */
  today: string;
}

const customerOf = (target: KeptTarget<Customer>) =>
  target.kind === "known" ? profileName(target.base) : "the profile added offline";

/** A time of day, with its date when it is not today. */
function when(iso: string, names: KeptNames): string {
  const day = localDate(iso, names.timeZone);
  return `${day === names.today ? "" : `${day} `}${localTime(iso, names.timeZone)}`;
}

/** What a kept write does, as one line: "Clock in Ana Lopez at 09:00". */
export function describeKept(write: KeptWrite, names: KeptNames): string {
  switch (write.kind) {
    case "clock-in":
      return `Clock in ${names.member(write.memberId)} at ${when(write.request.shift.start_at, names)}`;
    case "add-shift": {
      const s = write.request.shift;
      const end = s.end_at ? localTime(s.end_at, names.timeZone) : "still open";
      return `Add ${names.member(write.memberId)}'s shift of ${when(s.start_at, names)}–${end}`;
    }
    case "shift-change":
      return describeShiftChange(write, names);
    case "delete-shift":
      return `Delete ${names.member(write.memberId)}'s shift of ${when(write.startAt, names)}`;
    case "create-customer":
      return `Add the customer ${profileName(write.request)}`;
    case "update-customer": {
      const fields = Object.keys(write.update).filter((f) => f !== "version");
      return `Change ${customerOf(write.customer)}: ${fields.map((f) => f.replaceAll("_", " ")).join(", ")}`;
    }
    case "customer-group":
      return write.member
        ? `Add ${customerOf(write.customer)} to ${write.groupName}`
        : `Take ${customerOf(write.customer)} out of ${write.groupName}`;
    case "gift-card": {
      const a = write.request.gift_card_activity;
      const verb = a.type === "LOAD" ? "Load" : a.type === "ADJUST_INCREMENT" ? "Add" : "Take";
      const money = formatMoney(
        a.load_activity_details?.amount_money ??
          a.adjust_increment_activity_details?.amount_money ??
          a.adjust_decrement_activity_details?.amount_money,
      );
      const prep = a.type === "ADJUST_DECREMENT" ? "off" : a.type === "LOAD" ? "onto" : "to";
      return `${verb} ${money} ${prep} card ${shortGan(write.gan)} (balance ${formatMoney(write.before)} → ${formatMoney(write.after)})`;
    }
  }
}

function describeShiftChange(write: Extract<KeptWrite, { kind: "shift-change" }>, names: KeptNames): string {
  const who = names.member(write.memberId);
  const c = write.change;
  switch (c.op) {
    case "start-break":
      return `Start ${c.breakType.name} for ${who} at ${when(c.at, names)}`;
    case "end-break":
      return `End ${who}'s break at ${when(c.at, names)}`;
    case "clock-out":
      return `Clock out ${who} at ${when(c.at, names)}`;
    case "set-times": {
      const end = c.endAt ? localTime(c.endAt, names.timeZone) : "still open";
      return `Set ${who}'s shift to ${when(c.startAt, names)}–${end}`;
    }
  }
}

/** A way out of a refusal, offered in To resolve. */
export type ResolveChoice =
  /** Send it again with another time (a clock-in, a shift, a break or a clock-out). */
  | "change-time"
  /** Send the change again over the object as it is now (someone changed it first). */
  | "apply-again"
  | "discard"
  /** Open the shift, profile or card it is about. */
  | "open";

/** The service's refusal as the outbox keeps it. */
export interface RefusalInput {
  status: number;
  code: string;
  detail: string | undefined;
}

/** A refusal in words, with the ways out that fit it. */
export interface Refusal {
  problem: string;
  choices: ResolveChoice[];
}

/** Whether a write changes an object at a version (so "apply again over theirs" makes sense). */
function atVersion(write: KeptWrite): boolean {
  return write.kind === "shift-change" || write.kind === "update-customer";
}

const isConflict = (r: Pick<RefusalInput, "status" | "code">) =>
  r.status === 409 || r.code === "CONFLICT" || r.code === "VERSION_MISMATCH";
const isGone = (r: Pick<RefusalInput, "status" | "code">) => r.status === 404 || r.code === "NOT_FOUND";

/** The ways out of a refusal of `write`: a time to change, a newer version to apply over, discard, open. */
export function choicesOf(write: KeptWrite, r: Pick<RefusalInput, "status" | "code">): ResolveChoice[] {
  if (isGone(r)) return ["discard"];
  const choices: ResolveChoice[] = [];
  if (isConflict(r) && atVersion(write)) choices.push("apply-again");
  if (timeOf(write) !== undefined) choices.push("change-time");
  choices.push("discard", "open");
  return choices;
}

/** The status and code of a refusal as its details line keeps them (`CONFLICT · HTTP 409 · UpdateShift`). */
export function refusalCodes(details: string | undefined): Pick<RefusalInput, "status" | "code"> {
  const status = Number(/HTTP (\d{3})/.exec(details ?? "")?.[1] ?? 400);
  return { status, code: (details ?? "").split(" · ")[0] ?? "" };
}

/** What the service's refusal of a kept write (`what`: its words) means, and what the manager can do. */
export function refusalOf(write: KeptWrite, r: RefusalInput, what: string): Refusal {
  const choices = choicesOf(write, r);
  const conflict = isConflict(r);
  const detail = (r.detail ?? "").trim();
  if (conflict) return { problem: `${what}: it was changed elsewhere meanwhile.`, choices };
  if (/overlaps/i.test(detail)) {
    return { problem: `${what}: it overlaps a shift recorded elsewhere meanwhile.`, choices };
  }
  if (/open shift/i.test(detail)) {
    return { problem: `${what}: they were clocked in elsewhere meanwhile.`, choices };
  }
  if (isGone(r)) return { problem: `${what}: it no longer exists at the service (deleted elsewhere).`, choices };
  if (write.kind === "gift-card" && r.code === "INSUFFICIENT_FUNDS") {
    // The service's words count cents ("holds 400 and cannot give 600"): said in money instead.
    const taken = formatMoney({ amount: write.before.amount - write.after.amount, currency: write.after.currency });
    return { problem: `${what}: the card holds less than ${taken} now (it was spent elsewhere meanwhile).`, choices };
  }
  const words = detail ? detail.replace(/\.?$/, ".") : "the service refused it.";
  return { problem: `${what}: ${words}`, choices };
}
