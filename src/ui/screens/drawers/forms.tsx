import { Box } from "ink";
import { useReducer } from "react";
import { CASH_DRAWER_EVENT_TYPES, EVENT_TYPE_LABELS } from "../../../domain/cash-drawers.js";
import type { CashDrawerEventType } from "../../../spec/generated/types.js";
import { exportProblem, useLoadedStore, useLoadedStoreApi } from "../../../state/index.js";
import { FormView, formHeight } from "../../components/FormView.js";
import type { FieldSpec } from "../../components/form.js";
import { Txt } from "../../components/Txt.js";
import { useKeys } from "../../keyboard.js";
import { useHasFocus } from "../../shell.js";
import { useTheme } from "../../theme.js";
import { filterPickerReducer, initialFilterPicker, pickedTypes } from "./filter.js";

/** The date range form's fields. */
export const RANGE_FIELDS: FieldSpec[] = [
  { name: "from", label: "From", hint: "YYYY-MM-DD" },
  { name: "to", label: "To", hint: "YYYY-MM-DD (empty: the same day)" },
];

/** The export form's field. */
export const EXPORT_FIELDS: FieldSpec[] = [{ name: "path", label: "Write CSV to" }];

/** Terminal rows the event type picker takes. */
export const FILTER_PICKER_HEIGHT = 2 + 1 + CASH_DRAWER_EVENT_TYPES.length + 1;

/** Rows the open form takes under the screen's content. */
export function drawersFormHeight(kind: "none" | "range" | "filter" | "export"): number {
  if (kind === "range") return formHeight(RANGE_FIELDS, false);
  if (kind === "export") return formHeight(EXPORT_FIELDS, true);
  if (kind === "filter") return FILTER_PICKER_HEIGHT;
  return 0;
}

/** Picks the day, or a range of days, to show. */
export function DrawersRangeForm() {
  const store = useLoadedStoreApi();
  const { from, to } = useLoadedStore((s) => s.drawers);
  return (
    <FormView
      title="Drawers of which days?"
      fields={RANGE_FIELDS}
      initial={{ from, to: to === from ? "" : to }}
      onSubmit={async (v) => {
        const start = (v.from ?? "").trim();
        const end = (v.to ?? "").trim() || start;
        const problem = await store.getState().loadDrawers({ from: start, to: end });
        if (!problem) store.getState().openDrawersForm({ kind: "none" });
        return problem;
      }}
      onCancel={() => store.getState().openDrawersForm({ kind: "none" })}
    />
  );
}

/** Asks where to write the day's (or the shift's events') CSV; an existing file needs a yes. */
export function DrawersExportForm({ what }: { what: "day" | "events" }) {
  const store = useLoadedStoreApi();
  const count = useLoadedStore((s) =>
    what === "day" ? (s.drawers.day?.rows.length ?? 0) : (s.drawers.detail?.events.length ?? 0),
  );
  const s = () => store.getState();
  return (
    <FormView
      title={what === "day" ? `Export ${count} drawer shifts as CSV` : "Export the shift's events as CSV"}
      note={
        what === "events" && s().drawers.filter.length > 0
          ? "Only the event types of the filter are written."
          : "A file already there is replaced only if you say so."
      }
      fields={EXPORT_FIELDS}
      initial={{ path: s().drawersExportPath(what) }}
      onSubmit={async (v) => {
        // A file already there is asked about in the one confirmation; the form has closed by then.
        const written = await s().exportDrawers(what, v.path ?? "");
        return written.ok ? undefined : exportProblem(written.error);
      }}
      onCancel={() => s().openDrawersForm({ kind: "none" })}
    />
  );
}

/** Ticks the event types the timeline shows: space ticks, a all/none, enter applies, esc cancels. */
export function EventFilterPicker() {
  const theme = useTheme();
  const store = useLoadedStoreApi();
  const current = useLoadedStore((s) => s.drawers.filter);
  const [state, dispatch] = useReducer(filterPickerReducer, current, initialFilterPicker);
  useKeys(
    (input, key) => {
      if (key.escape) store.getState().openDrawersForm({ kind: "none" });
      else if (key.return) store.getState().setDrawerFilter(pickedTypes(state));
      else if (input === "j" || key.downArrow) dispatch({ type: "move", delta: 1 });
      else if (input === "k" || key.upArrow) dispatch({ type: "move", delta: -1 });
      else if (input === " " || input === "x") dispatch({ type: "toggle" });
      else if (input === "a") dispatch({ type: "all" });
      else return false;
      return true;
    },
    { isActive: useHasFocus("event filter") },
  );
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1} flexShrink={0}>
      <Txt bold>Show which events?</Txt>
      {CASH_DRAWER_EVENT_TYPES.map((t: CashDrawerEventType, i) => (
        <Txt
          key={t}
          wrap="truncate-end"
          color={i === state.cursor ? theme.accent : undefined}
          bold={i === state.cursor}
        >
          {i === state.cursor ? "› " : "  "}[{state.picked.has(t) ? "x" : " "}] {EVENT_TYPE_LABELS[t]}
          <Txt color={theme.muted}> {t}</Txt>
        </Txt>
      ))}
      <Txt color={theme.muted} wrap="truncate-end">
        space tick · a all/none · enter show · esc cancel
      </Txt>
    </Box>
  );
}

/** The form under the current view, when one is open. */
export function OpenForm() {
  const form = useLoadedStore((s) => s.drawers.form);
  if (form.kind === "range") return <DrawersRangeForm />;
  if (form.kind === "export") return <DrawersExportForm what={form.what} />;
  if (form.kind === "filter") return <EventFilterPicker />;
  return null;
}
