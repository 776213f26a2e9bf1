import { Box } from "ink";
import { useMemo } from "react";
import { describeBreakType, memberName } from "../../../domain/shifts.js";
import { localDate, localTime } from "../../../domain/time.js";
import {
  selectBreakTypes,
  selectHeadCount,
  selectLocation,
  selectTimeZone,
  selectWhoIsHere,
  useAppStore,
  useAppStoreApi,
  useShallow,
} from "../../../state/index.js";
import { ColumnList, listRows } from "../../components/ColumnList.js";
import { firstThatFits } from "../../components/columns.js";
import { FilterLine } from "../../components/FilterLine.js";
import { FormView, formHeight } from "../../components/FormView.js";
import type { FieldSpec } from "../../components/form.js";
import { Txt } from "../../components/Txt.js";
import { useListWindow, useWidgetList } from "../../components/use-list.js";
import { WindowedList } from "../../components/WindowedList.js";
import { useKeys } from "../../keyboard.js";
import { useHasFocus } from "../../shell.js";
import { useTheme } from "../../theme.js";
import type { ScreenProps } from "../screen-def.js";
import { shiftTimesFields, shiftTimesFrom } from "../shift-times.js";
import { timeClockColumns } from "./columns.js";

const TITLE = "Who is here";

/** Who is here, and the clock actions on the selected member. */
export function TimeClockScreen({ height, width }: ScreenProps) {
  const theme = useTheme();
  const rows = useAppStore(selectWhoIsHere);
  const form = useAppStore((s) => s.timeclock.form);
  const filter = useAppStore((s) => s.timeclock.filter);
  const loaded = useAppStore((s) => s.timeclock.loaded);
  const location = useAppStore(selectLocation);
  const tz = useAppStore(selectTimeZone);
  const forgotten = rows.filter((r) => r.forgotten);
  // The store's count, not the filtered rows': a filter narrows the list, not who is on shift.
  const { onShift, members } = useAppStore(useShallow(selectHeadCount));
  const breakTypeCount = useAppStore((s) => s.breakTypes.items.length);
  const now = useAppStore((s) => s.now);
  const count = `${onShift} on shift${filter ? ` · filter "${filter}": ${rows.length} of ${members} shown` : ""}`;
  const panel =
    form.kind === "pick-break"
      ? breakPickerHeight(breakTypeCount)
      : form.kind === "fix-forgot"
        ? formHeight(FIX_FIELDS, true)
        : form.kind === "clock-in-at" || form.kind === "clock-out-at"
          ? formHeight(AT_FIELDS, true)
          : form.kind === "add-shift"
            ? formHeight(shiftTimesFields([], ""), true)
            : form.kind === "filter"
              ? 1
              : 0;
  const listHeight = Math.max(3, height - 1 - (forgotten.length ? 1 : 0) - panel);
  const ids = useMemo(() => rows.map((r) => r.id), [rows]);
  const list = useListWindow("timeclock", ids, listRows(listHeight));
  const columns = useMemo(() => timeClockColumns(tz, now), [tz, now]);

  return (
    <Box flexDirection="column" width={width}>
      <Txt wrap="truncate-end">
        <Txt bold>{TITLE}</Txt>
        {/* Until the locations arrive there is no store to name, nor a time zone to show. */}
        {location ? (
          <Txt color={theme.muted}>
            {/* When the line is long the time zone goes, then the store's name: the counts and the filter stay. */}
            {firstThatFits(
              [
                ` at ${location.name ?? location.id} (${tz}) · ${count}`,
                ` at ${location.name ?? location.id} · ${count}`,
                // The header names the store too.
                ` · ${count}`,
              ],
              width - TITLE.length,
            )}
          </Txt>
        ) : null}
      </Txt>
      {forgotten.length > 0 ? (
        <Txt color={theme.warn} wrap="truncate-end">
          ⚠ {forgotten.length} open shift{forgotten.length > 1 ? "s" : ""} from an earlier day:{" "}
          {forgotten.map((r) => r.name).join(", ")} — f sets the end
        </Txt>
      ) : null}
      {!loaded ? (
        <Txt color={theme.muted}>Loading the team…</Txt>
      ) : (
        <ColumnList
          columns={columns}
          rows={rows}
          state={list}
          height={listHeight}
          width={width}
          rowKey={(r) => r.id}
          empty={filter ? `No one matches "${filter}".` : "No team members at this location."}
        />
      )}
      {form.kind === "filter" ? <TimeClockFilter /> : null}
      {form.kind === "pick-break" ? <BreakPicker memberId={form.memberId} /> : null}
      {form.kind === "fix-forgot" ? <FixForgotForm shiftId={form.shiftId} /> : null}
      {form.kind === "clock-in-at" || form.kind === "clock-out-at" ? (
        <ClockAtForm memberId={form.memberId} direction={form.kind === "clock-in-at" ? "in" : "out"} />
      ) : null}
      {form.kind === "add-shift" ? <AddShiftForm memberId={form.memberId} /> : null}
    </Box>
  );
}

/** The `/` filter line of the time clock: by name. */
function TimeClockFilter() {
  const store = useAppStoreApi();
  const filter = useAppStore((s) => s.timeclock.filter);
  return (
    <FilterLine
      field="filter"
      value={filter}
      what="name"
      onChange={(text) => store.getState().setFilter(text)}
      onDone={() => store.getState().openTimeClockForm({ kind: "none" })}
    />
  );
}

/** The rows the break picker takes for this many break types. */
function breakPickerHeight(types: number): number {
  return 2 + 1 + types + 1 + 1;
}

/** Chooses which break to start: j/k, enter, esc. */
function BreakPicker({ memberId }: { memberId: string }) {
  const theme = useTheme();
  const store = useAppStoreApi();
  const types = useAppStore(useShallow(selectBreakTypes));
  const name = useAppStore((s) => s.timeclock.members.find((m) => m.id === memberId)?.given_name ?? "");
  const [list, onList] = useWidgetList(types.length, types.length);
  useKeys(
    (input, key) => {
      if (onList(input, key)) return true;
      const t = types[list.cursor];
      if (key.escape) store.getState().openTimeClockForm({ kind: "none" });
      else if (key.return && t?.id) void store.getState().startBreak(memberId, t.id);
      else return false;
      return true;
    },
    { isActive: useHasFocus("break picker") },
  );
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Txt bold wrap="truncate-end">
        Start a break for {name}
      </Txt>
      <WindowedList
        items={types}
        state={list}
        height={types.length + 1}
        rowKey={(t) => t.id ?? t.break_name}
        renderRow={(t) => <Txt wrap="truncate-end"> {describeBreakType(t)}</Txt>}
      />
      <Txt color={theme.muted}>enter start · esc cancel</Txt>
    </Box>
  );
}

const FIX_FIELDS: FieldSpec[] = [
  { name: "date", label: "End date", hint: "YYYY-MM-DD" },
  { name: "time", label: "End time", hint: "HH:MM, local" },
];

/** Sets the end of a forgotten shift; its open breaks end at the same time. */
function FixForgotForm({ shiftId }: { shiftId: string }) {
  const store = useAppStoreApi();
  const shift = useAppStore((s) => s.timeclock.openShifts.find((x) => x.id === shiftId));
  const name = useAppStore((s) => {
    const m = s.timeclock.members.find((x) => x.id === shift?.team_member_id);
    return [m?.given_name, m?.family_name].filter(Boolean).join(" ");
  });
  const tz = useAppStore(selectTimeZone);
  if (!shift) return null;
  return (
    <FormView
      title={`Forgot to clock out: ${name}, since ${localDate(shift.start_at, tz)} ${localTime(shift.start_at, tz)}`}
      note="Any break still running ends at the same time."
      fields={FIX_FIELDS}
      initial={{ date: localDate(shift.start_at, tz), time: "" }}
      onSubmit={(v) => store.getState().fixForgotten(shiftId, v.date ?? "", v.time ?? "")}
      onCancel={() => store.getState().openTimeClockForm({ kind: "none" })}
    />
  );
}

const AT_FIELDS: FieldSpec[] = [
  { name: "date", label: "Date", hint: "YYYY-MM-DD" },
  { name: "time", label: "Time", hint: "HH:MM, local" },
];

/** Clocks in or out at a time already past: a manager records the 08:55 clock-in at 09:10. */
function ClockAtForm({ memberId, direction }: { memberId: string; direction: "in" | "out" }) {
  const store = useAppStoreApi();
  const name = useAppStore((s) => memberName(s.timeclock.members.find((m) => m.id === memberId)));
  const since = useAppStore((s) => s.timeclock.openShifts.find((x) => x.team_member_id === memberId)?.start_at);
  const tz = useAppStore(selectTimeZone);
  const now = store.getState().now;
  const note =
    direction === "in"
      ? "The start may be earlier today or on an earlier day; not later than now."
      : `On shift since ${since ? `${localDate(since, tz)} ${localTime(since, tz)}` : "—"}; a running break ends at the same time.`;
  return (
    <FormView
      title={`Clock ${direction} ${name} at an earlier time`}
      note={note}
      fields={AT_FIELDS}
      initial={{ date: localDate(now, tz), time: "" }}
      onSubmit={(v) =>
        direction === "in"
          ? store.getState().clockInAt(memberId, v.date ?? "", v.time ?? "")
          : store.getState().clockOutAt(memberId, v.date ?? "", v.time ?? "")
      }
      onCancel={() => store.getState().openTimeClockForm({ kind: "none" })}
    />
  );
}

/** A whole shift for someone who forgot to clock in at all: past start and end, and breaks. */
function AddShiftForm({ memberId }: { memberId: string }) {
  const store = useAppStoreApi();
  const name = useAppStore((s) => memberName(s.timeclock.members.find((m) => m.id === memberId)));
  const types = useAppStore(useShallow(selectBreakTypes));
  const tz = useAppStore(selectTimeZone);
  const today = localDate(store.getState().now, tz);
  const fields = useMemo(
    () =>
      shiftTimesFields(
        types.map((t) => t.break_name ?? ""),
        "both empty: still on shift",
      ),
    [types],
  );
  return (
    <FormView
      title={`Add a shift for ${name}`}
      note={`Break types here: ${types.map((t) => t.break_name).join(", ") || "none"}. Times are local (${tz}).`}
      fields={fields}
      initial={{ startDate: today, startTime: "", endDate: today, endTime: "", breaks: "" }}
      onSubmit={(v) => store.getState().addPastShift(memberId, shiftTimesFrom(v))}
      onCancel={() => store.getState().openTimeClockForm({ kind: "none" })}
    />
  );
}
