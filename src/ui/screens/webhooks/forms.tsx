import { Box } from "ink";
import { useMemo } from "react";
import { onField } from "../../../domain/form-problem.js";
import { localTime } from "../../../domain/time.js";
import { DEFAULT_API_VERSION } from "../../../domain/webhooks.js";
import type { WebhookSubscription } from "../../../spec/generated/types.js";
import { selectTimeZone, useLoadedStore, useLoadedStoreApi } from "../../../state/index.js";
import {
  EVENT_TYPES_LIST,
  shownTypes,
  TEST_TYPES_LIST,
  type TestOutcome,
  unofferedTypes,
} from "../../../state/screens.js";
import { FilterLine } from "../../components/FilterLine.js";
import { FormView } from "../../components/FormView.js";
import type { FieldSpec } from "../../components/form.js";
import { Txt } from "../../components/Txt.js";
import { useListWindow } from "../../components/use-list.js";
import { WindowedList } from "../../components/WindowedList.js";
import { useHasFocus } from "../../shell.js";
import { useTheme } from "../../theme.js";
import { FILTER_FIELD } from "./commands.js";

const FIELDS: FieldSpec[] = [
  { name: "name", label: "Name", hint: "optional, up to 64 characters" },
  { name: "url", label: "Notification URL", hint: "https://…, or http://127.0.0.1:PORT/… here" },
  { name: "apiVersion", label: "API version", hint: "YYYY-MM-DD; shapes the events" },
];

/** The rows the fields' form takes. */
export const FIELDS_HEIGHT = 2 + 1 + 1 + FIELDS.length + 2;

/** The first step of creating or editing: name, URL and API version; enter goes on to the event types. */
export function SubscriptionFields() {
  const store = useLoadedStoreApi();
  const form = useLoadedStore((s) => s.webhooks.form);
  if (!form) return null;
  const s = () => store.getState();
  return (
    <FormView
      title={form.id ? `Edit "${form.name || form.url}"` : "New webhook subscription"}
      note="enter: on to the event types · esc: cancel"
      fields={FIELDS}
      initial={{ name: form.name, url: form.url, apiVersion: form.apiVersion }}
      onSubmit={async (v) => {
        for (const field of ["name", "url", "apiVersion"] as const) {
          s().webhooksDispatch({ type: "edit-field", field, value: v[field] ?? "" });
        }
        await s().webhooksFormNext();
        const after = s().webhooks.form;
        if (after?.step === "events") {
          // The cursor starts on the first type already marked (editing), else on the first.
          const shown = shownTypes(after);
          s().selectRow(
            EVENT_TYPES_LIST,
            shown,
            Math.max(
              0,
              shown.findIndex((t) => after.picked.includes(t)),
            ),
          );
        }
        if (after?.step !== "fields" || !after.problem) return undefined;
        return after.problemField ? onField(after.problem, after.problemField) : after.problem;
      }}
      onCancel={() => s().webhooksDispatch({ type: "close-form" })}
    />
  );
}

/** The second step: the event types of the chosen version, marked with space, narrowed with `/`. */
export function EventTypePicker({ height }: { height: number }) {
  const theme = useTheme();
  const store = useLoadedStoreApi();
  const form = useLoadedStore((s) => s.webhooks.form);
  const typed = useHasFocus(FILTER_FIELD);
  const shown = useMemo(() => (form ? shownTypes(form) : []), [form]);
  const unoffered = form ? unofferedTypes(form) : [];
  // Title, the marked line (two rows for a problem), the warning of types the version lacks.
  const extra = 2 + (form?.problem ? 1 : 0) + (unoffered.length ? 1 : 0) + (typed || form?.filter ? 1 : 0);
  const listHeight = Math.max(2, height - extra);
  const list = useListWindow(EVENT_TYPES_LIST, shown, listHeight - 1);
  if (!form) return null;
  const offered = form.offered;
  const picked = new Set(form.picked);
  return (
    <Box flexDirection="column">
      <Txt bold wrap="truncate-end">
        {form.id ? "Edit" : "New"}: event types of API version {form.apiVersion.trim() || DEFAULT_API_VERSION}
        <Txt color={theme.muted}>
          {" "}
          · {form.picked.length} marked{form.saving ? " · saving…" : ""}
        </Txt>
      </Txt>
      {typed || form.filter ? (
        <FilterLine
          field={FILTER_FIELD}
          value={form.filter}
          what="event type"
          onChange={(text) => store.getState().webhooksDispatch({ type: "filter", text })}
          onDone={() => store.getState().focusField("webhooks", undefined)}
        />
      ) : null}
      {offered?.state === "loading" ? (
        <Txt color={theme.muted}>Reading the event types of {offered.version}…</Txt>
      ) : null}
      {offered?.state === "failed" ? (
        <Txt color={theme.bad} wrap="truncate-end">
          The event types could not be read: {offered.problem} (r tries again)
        </Txt>
      ) : null}
      {offered?.state === "loaded" ? (
        <WindowedList
          items={shown}
          state={list}
          height={listHeight}
          rowKey={(t) => t}
          empty={
            form.filter
              ? `No event type matches "${form.filter}" (esc clears the filter).`
              : "This version offers no event types."
          }
          renderRow={(t) => (
            <Txt wrap="truncate-end" color={picked.has(t) ? theme.accent : undefined}>
              {picked.has(t) ? "[x] " : "[ ] "}
              {t}
            </Txt>
          )}
        />
      ) : null}
      {unoffered.length ? (
        <Txt color={theme.warn} wrap="truncate-end">
          Not offered by {form.apiVersion}: {unoffered.join(", ")} (u unmarks)
        </Txt>
      ) : null}
      {form.problem ? (
        <Box height={2} overflow="hidden">
          <Txt color={theme.bad}>{form.problem}</Txt>
        </Box>
      ) : (
        <Txt color={theme.muted} wrap="truncate-end">
          {form.picked.length ? `Marked: ${form.picked.join(", ")}` : "Nothing marked yet."}
        </Txt>
      )}
    </Box>
  );
}

/** Picks the event type of a test notification among the subscription's own. */
export function TestPicker({ sub, height }: { sub: WebhookSubscription | undefined; height: number }) {
  const theme = useTheme();
  const types = useLoadedStore((s) => s.webhooks.testPick?.types);
  const ids = useMemo(() => types ?? [], [types]);
  const list = useListWindow(TEST_TYPES_LIST, ids, Math.max(1, height - 3));
  return (
    <Box flexDirection="column">
      <Txt bold wrap="truncate-end">
        Send a test event to {sub?.name ? `"${sub.name}"` : "the subscription"}
        <Txt color={theme.muted}> · {sub?.notification_url}</Txt>
      </Txt>
      <WindowedList
        items={ids}
        state={list}
        height={Math.max(2, height - 2)}
        rowKey={(t) => t}
        renderRow={(t) => <Txt wrap="truncate-end"> {t}</Txt>}
      />
      <Txt color={theme.muted}>enter sends it; the receiver's answer shows below the list</Txt>
    </Box>
  );
}

/** The rows the detail pane takes. */
export const DETAIL_HEIGHT = 7;

function testText(t: TestOutcome | undefined, testing: boolean, tz: string): string {
  if (testing) return "sending…";
  if (!t) return "not tested yet (t sends a test event)";
  const at = localTime(t.at, tz);
  return t.statusCode === undefined
    ? `${at} ${t.eventType} → no answer from the receiver (${t.tookMs} ms)`
    : `${at} ${t.eventType} → answered ${t.statusCode} in ${t.tookMs} ms`;
}

/** The selected subscription in full, its key (shown once after a replacement) and its last test. */
export function DetailPane({ sub, width }: { sub: WebhookSubscription | undefined; width: number }) {
  const theme = useTheme();
  const revealed = useLoadedStore((s) => s.webhooks.revealed);
  const test = useLoadedStore((s) => (sub?.id ? s.webhooks.tests[sub.id] : undefined));
  const testing = useLoadedStore((s) => s.webhooks.testing !== undefined && s.webhooks.testing === sub?.id);
  const tz = useLoadedStore(selectTimeZone);
  if (!sub) return null;
  const row = (label: string, value: string, color?: string) => (
    <Txt wrap="truncate-end">
      <Txt color={theme.muted}>{label.padEnd(9)}</Txt>
      <Txt color={color}>{value}</Txt>
    </Txt>
  );
  const key = revealed && revealed.subscriptionId === sub.id ? revealed.key : undefined;
  const ok = test?.statusCode !== undefined && test.statusCode >= 200 && test.statusCode < 300;
  return (
    <Box flexDirection="column" width={width}>
      <Txt color={theme.muted} wrap="truncate-end">
        ── {sub.name || "(no name)"} {"─".repeat(Math.max(0, width - 5 - (sub.name || "(no name)").length))}
      </Txt>
      {row("URL", sub.notification_url ?? "")}
      {row("Events", (sub.event_types ?? []).join(", "))}
      {row("Version", `${sub.api_version ?? "?"} · ${sub.enabled === false ? "disabled" : "enabled"} · ${sub.id}`)}
      {key ? (
        <>
          {row("New key", key, theme.warn)}
          <Txt color={theme.warn} wrap="truncate-end">
            Copy it now (select it with the mouse): it is not shown again · esc hides it
          </Txt>
        </>
      ) : (
        <>
          {row("Key", "•••••••• (shown once, when replaced: K)")}
          {row("Test", testText(test, testing, tz), test ? (ok ? theme.good : theme.bad) : undefined)}
        </>
      )}
    </Box>
  );
}
