import { Box } from "ink";
import { useMemo } from "react";
import type { ResolveChoice } from "../../../domain/kept-words.js";
import type { KeptEntry } from "../../../domain/kept-writes.js";
import { localDate, localTime } from "../../../domain/time.js";
import { type AppState, selectTimeZone, useAppStore, useAppStoreApi } from "../../../state/index.js";
import { ColumnList, listRows } from "../../components/ColumnList.js";
import type { Column } from "../../components/columns.js";
import { FormView, formHeight } from "../../components/FormView.js";
import type { FieldSpec } from "../../components/form.js";
import { Txt } from "../../components/Txt.js";
import { useListWindow } from "../../components/use-list.js";
import { useTheme } from "../../theme.js";
import type { ScreenProps } from "../screen-def.js";
import { choicesHere, KEPT_LIST, keptOrder, selectedKept } from "./commands.js";

/** Where a kept write stands, in words. */
function stateWords(e: KeptEntry, all: readonly KeptEntry[]): string {
  if (e.state === "refused") return "to resolve";
  const waits = e.dependsOn === undefined ? undefined : all.find((x) => x.seq === e.dependsOn);
  if (waits?.state === "refused") return "waits (to resolve)";
  if (waits) return "waits its turn";
  if (e.state === "sent") return e.attempts > 1 ? `sent ${e.attempts}×, no answer` : "sent, no answer";
  return "kept";
}

function columns(tz: string, all: readonly KeptEntry[], today: string): Column<KeptEntry>[] {
  return [
    {
      header: " ",
      width: 1,
      render: (e) => (e.state === "refused" ? "⚠" : "◷"),
      color: (e, theme) => (e.state === "refused" ? theme.bad : theme.warn),
    },
    { header: "Change", width: 24, flex: 3, render: (e) => e.label },
    {
      header: "State",
      width: 18,
      render: (e) => stateWords(e, all),
      color: (e, theme) => (e.state === "refused" ? theme.bad : theme.muted),
    },
    {
      header: "Made",
      width: 11,
      drop: 1,
      render: (e) =>
        `${localDate(e.actedAt, tz) === today ? "" : `${localDate(e.actedAt, tz).slice(5)} `}${localTime(e.actedAt, tz)}`,
    },
    { header: "By", width: 10, drop: 3, render: (e) => e.actor, color: (_e, theme) => theme.muted },
  ];
}

const CHOICE_WORDS: Record<ResolveChoice, string> = {
  "change-time": "t send again at another time",
  "apply-again": "a send again over theirs",
  discard: "d discard",
  open: "enter open",
};

/** The rows the detail lines under the list take: why (two rows), the ways out, the codes. */
const DETAIL_ROWS = 4;

const TIME_FIELDS: FieldSpec[] = [
  { name: "date", label: "Date", hint: "YYYY-MM-DD" },
  { name: "time", label: "Time", hint: "HH:MM, the store's time" },
];

/** The selected write: why it waits or was refused, and the ways out. */
function Details({ width }: { width: number }) {
  const theme = useTheme();
  const e = useAppStore(selectedKept);
  const choices = useAppStore((s: AppState) => choicesHere(s).join(","));
  if (!e) return <Box height={DETAIL_ROWS} />;
  const ways = choices
    .split(",")
    .filter(Boolean)
    .map((c) => CHOICE_WORDS[c as ResolveChoice]);
  const why =
    e.state === "refused"
      ? (e.problem ?? "The service refused it.")
      : `${e.label}: kept with its key; sent, once, when the service answers.`;
  return (
    <Box flexDirection="column" height={DETAIL_ROWS} width={width}>
      <Box height={2} overflow="hidden">
        <Txt color={e.state === "refused" ? theme.bad : undefined} wrap="wrap">
          {why}
        </Txt>
      </Box>
      <Txt color={theme.muted} wrap="truncate-end">
        {ways.join(" · ")}
      </Txt>
      <Txt color={theme.muted} wrap="truncate-end">
        {[`#${e.seq}`, `key ${e.idempotencyKey}`, e.details ?? ""].filter(Boolean).join(" · ")}
      </Txt>
    </Box>
  );
}

/** The writes kept on this machine for the service, To resolve first; the time form of a refused one. */
export function OutboxScreen({ height, width }: ScreenProps) {
  const theme = useTheme();
  const store = useAppStoreApi();
  const entries = useAppStore((s) => s.outbox.entries);
  const form = useAppStore((s) => s.outbox.form);
  const sending = useAppStore((s) => s.outbox.sending);
  const problem = useAppStore((s) => s.outbox.problem);
  const tz = useAppStore(selectTimeZone);
  const now = useAppStore((s) => s.now);
  const { entries: rows, ids } = keptOrder(entries);
  const refused = rows.filter((e) => e.state === "refused").length;
  const panel = form.kind === "change-time" ? formHeight(TIME_FIELDS, true) : 0;
  const listHeight = Math.max(3, height - 2 - DETAIL_ROWS - panel);
  const list = useListWindow(KEPT_LIST, ids, listRows(listHeight));
  const today = localDate(now, tz);
  const cols = useMemo(() => columns(tz, entries, today), [tz, entries, today]);
  const s = () => store.getState();
  const editing = form.kind === "change-time" ? entries.find((e) => e.seq === form.seq) : undefined;
  return (
    <Box flexDirection="column" width={width}>
      <Txt wrap="truncate-end">
        <Txt bold>Kept on this machine</Txt>
        <Txt color={theme.muted}> · {rows.length - refused} to send</Txt>
        {refused > 0 ? <Txt color={theme.bad}> · {refused} to resolve</Txt> : null}
        {sending ? <Txt color={theme.muted}> · sending…</Txt> : null}
      </Txt>
      <Txt color={problem ? theme.bad : theme.muted} wrap="truncate-end">
        {problem ?? "Sent in the order made, once each, when the service answers."}
      </Txt>
      <ColumnList
        columns={cols}
        rows={rows}
        state={list}
        height={listHeight}
        width={width}
        rowKey={(e) => String(e.seq)}
        local
        empty="Nothing is kept: every change reached the service."
      />
      <Details width={width} />
      {editing && form.kind === "change-time" ? (
        <FormView
          title={`Send again at another time: ${editing.label}`}
          note="The store's local date and time; the change goes out again with a new key."
          fields={TIME_FIELDS}
          initial={{ date: form.date, time: form.time }}
          onSubmit={(v) => s().outboxChangeTime(editing.seq, v.date ?? "", v.time ?? "")}
          onCancel={() => s().outboxOpenForm({ kind: "none" })}
        />
      ) : null}
    </Box>
  );
}
