import {
  ACTIVITY_WORDS,
  activityAmount,
  activityNote,
  activityShortWords,
  type HistoryRow,
} from "../../../domain/gift-card-activity.js";
import { formatAmount } from "../../../domain/money.js";
import { localDate, localTime } from "../../../domain/time.js";
import type { GiftCardActivity } from "../../../spec/generated/types.js";
import type { Column } from "../../components/columns.js";
import type { Theme } from "../../theme.js";

/** How a column learns where and when an activity happened, and in what currency to show amounts. */
export interface Places {
  /** A location's name by id. */
  name: (locationId: string) => string;
  /** A location's time zone by id (an activity is shown at its own location's clock). */
  zone: (locationId: string) => string;
  currency: string;
}

/**
 * `03-02 14:05`: the day (month-day) and time at the activity's location; with `withYear`
 * `2025-03-02 14:05`, for a list that reaches into another year.
 */
const when = (a: GiftCardActivity, p: Places, withYear = false) => {
  if (!a.created_at) return "—";
  const zone = p.zone(a.location_id);
  const day = localDate(a.created_at, zone);
  return `${withYear ? day : day.slice(5)} ${localTime(a.created_at, zone)}`;
};

/** Whether any of the activities happened in another year than `year` (at its own location). */
export function reachesAnotherYear(activities: readonly GiftCardActivity[], p: Places, year: string): boolean {
  return activities.some((a) => a.created_at && localDate(a.created_at, p.zone(a.location_id)).slice(0, 4) !== year);
}

const changeColor = (n: number | undefined, theme: Theme) =>
  n === undefined || n === 0 ? theme.muted : n < 0 ? theme.warn : theme.good;

/**
 * A card's history, newest first. On a narrow terminal the note goes first, then where; what
 * stays is when, what, the change and the balance after it. A card older than this year shows
 * the year of each day (`withYear`): "12-14" of last year would read as a day still to come.
 */
export function historyColumns(p: Places, withYear = false): Column<HistoryRow>[] {
  return [
    { header: "When", width: withYear ? 16 : 11, render: (r) => when(r.activity, p, withYear) },
    {
      header: "What",
      width: 13,
      render: (r) => ACTIVITY_WORDS[r.activity.type],
      narrow: (r) => activityShortWords(r.activity.type),
    },
    {
      header: "Change",
      width: 10,
      align: "right",
      render: (r) => (r.change === undefined ? "" : formatAmount(r.change, p.currency, { sign: "always" })),
      color: (r, theme) => changeColor(r.change, theme),
    },
    {
      header: "Balance",
      width: 10,
      align: "right",
      render: (r) => (r.balanceAfter === undefined ? "" : formatAmount(r.balanceAfter, p.currency)),
    },
    { header: "Where", width: 12, drop: 2, render: (r) => p.name(r.activity.location_id) },
    { header: "Note", width: 10, flex: 1, drop: 3, render: (r) => activityNote(r.activity) },
  ];
}

/**
 * A location's activity over some days, newest first, or every location's with where each
 * happened (`withPlace`). The card's number keeps its last digits when cut; the note goes first on
 * a narrow terminal, then the balance after, then where.
 */
export function activityColumns(p: Places, withDate: boolean, withPlace = false): Column<GiftCardActivity>[] {
  return [
    withDate
      ? { header: "When", width: 11, render: (a) => when(a, p) }
      : {
          header: "Time",
          width: 5,
          render: (a) => (a.created_at ? localTime(a.created_at, p.zone(a.location_id)) : "—"),
        },
    ...(withPlace
      ? [{ header: "Where", width: 12, drop: 1, render: (a: GiftCardActivity) => p.name(a.location_id) }]
      : []),
    { header: "Card", width: 16, render: (a) => a.gift_card_gan ?? "" },
    { header: "What", width: 13, render: (a) => ACTIVITY_WORDS[a.type], narrow: (a) => activityShortWords(a.type) },
    {
      header: "Amount",
      width: 10,
      align: "right",
      render: (a) => {
        const m = activityAmount(a);
        return m ? formatAmount(m.amount, m.currency || p.currency) : "";
      },
    },
    {
      header: "Balance",
      width: 10,
      align: "right",
      drop: 2,
      render: (a) => {
        const b = a.gift_card_balance_money;
        return b?.amount === undefined ? "" : formatAmount(b.amount, b.currency ?? p.currency);
      },
    },
    { header: "Note", width: 10, flex: 1, drop: 3, render: (a) => activityNote(a) },
  ];
}
