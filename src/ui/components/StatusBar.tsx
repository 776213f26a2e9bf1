import { Box } from "ink";
import stringWidth from "string-width";
import { type AppState, type Status, shownStatus, useAppStore, useAppStoreApi } from "../../state/index.js";
import { type Command, type CommandTable, unavailableReason } from "../commands.js";
import { currentScreen, focusOf, useShell } from "../shell.js";
import { useTheme } from "../theme.js";
import { fitCell, wrapLines } from "./columns.js";
import { ProgressBar } from "./ProgressBar.js";
import { Spinner } from "./Spinner.js";
import { Txt } from "./Txt.js";

/** The status message's mark and words, or nothing to say. */
function messageOf(
  status: Status,
): { mark: string; text: string; short: string | undefined; details: string | undefined } | undefined {
  if (status.kind === "idle") return undefined;
  const mark = status.kind === "error" ? "✖ " : status.kind === "rule" ? "! " : "";
  return { mark, text: status.text, short: status.short, details: status.details };
}

/**
 * The message's lines in `room` cells: whole on one or two rows; when it needs more, its shorter
 * words (`short`) if it has them; only then is it cut on the second row. The details after it go
 * first (they are shown only in the room the last row leaves).
 */
export function messageLines(status: Status, room: number): string[] {
  const m = messageOf(status);
  if (!m) return [];
  const full = wrapLines(`${m.mark}${m.text}`, room);
  return full.length <= 2 ? full : wrapLines(`${m.mark}${m.short ?? m.text}`, room, 2);
}

/**
 * The rows the status bar takes: the message (two rows when it needs them, so it is read whole
 * rather than cut), the standing notice when there is one, the hints.
 */
export function statusBarHeight(
  s: Pick<AppState, "notice" | "status" | "screen" | "loading" | "progress">,
  width: number,
): number {
  const busy = s.loading !== undefined || s.progress !== undefined;
  const message = busy ? 1 : Math.max(1, messageLines(shownStatus(s), width - 1).length);
  return message + (s.notice ? 1 : 0) + 1;
}

/** A hint of the hint bar: a key and a few words. */
export interface Hint {
  label: string;
  description: string;
  hint: number;
}

/** The hints of a table: its commands that have a hint and can run now, in table order. */
export function hintsOf(table: CommandTable<string>, s: AppState): Hint[] {
  return Object.values(table)
    .filter((c): c is Command & { hint: number } => c.hint !== undefined && !unavailableReason(c, s))
    .map((c) => ({ label: c.label, description: c.short ?? shortDescription(c.description), hint: c.hint }));
}

const hint = (label: string, description: string, priority: number): Hint => ({ label, description, hint: priority });
/** The hints while a form has the keys. */
const FORM_HINTS: Hint[] = [hint("tab/↓", "next field", 0), hint("enter", "save", 0), hint("esc", "cancel", 0)];
/** The hints while a chooser has the keys (the shell's keys work there too). */
const PICKER_HINTS: Hint[] = [hint("j/k", "move", 2), hint("enter", "choose", 2), hint("esc", "back", 2)];

/** The hints while a text field has the keys. */
export function fieldHints(hint: string | undefined): Hint[] {
  return [
    { label: "typing:", description: hint ?? "letters go into the field", hint: 0 },
    { label: "esc", description: "screen keys", hint: 1 },
    { label: "tab", description: "next screen", hint: 2 },
  ];
}

/**
 * The hints that fit in `width`, whole: the most important (lowest `hint`) are kept first, a hint
 * that does not fit is left out whole, and the kept ones show in table order.
 */
export function fitHints(hints: readonly Hint[], width: number): Hint[] {
  const byPriority = [...hints].sort((a, b) => a.hint - b.hint);
  const kept = new Set<Hint>();
  let used = 0;
  for (const h of byPriority) {
    const w = stringWidth(`${h.label} ${h.description}`) + (kept.size > 0 ? 2 : 0);
    if (used + w > width) continue;
    kept.add(h);
    used += w;
  }
  return hints.filter((h) => kept.has(h));
}

function shortDescription(description: string): string {
  return description.split(" (")[0] ?? description;
}

/**
 * The status bar: progress or spinner, or the last message with its details (codes, ids) dim
 * after it, cut with `…` to the width; the standing notice on its own row; the key hints that fit.
 */
export function StatusBar({ width }: { width: number }) {
  const theme = useTheme();
  const shell = useShell();
  const store = useAppStoreApi();
  // Another screen's message is not this one's to show.
  const status = useAppStore(shownStatus);
  const loading = useAppStore((s) => s.loading);
  const progress = useAppStore((s) => s.progress);
  const notice = useAppStore((s) => s.notice);
  const available = (st: AppState): Hint[] => {
    const place = focusOf(shell.screens, st);
    // In a field the letters are typed: the bar says so, and what still works (esc, enter, tab).
    if (place.kind === "field") return fieldHints(place.hint);
    // A form or a chooser has its own keys; an overlay shows its keys itself.
    if (place.kind === "form") return FORM_HINTS;
    if (place.kind === "overlay") return [];
    if (place.kind === "picker") return [...PICKER_HINTS, ...hintsOf(shell.commands, st)];
    const def = currentScreen(shell.screens, st);
    return [...(def ? hintsOf(def.commands, st) : []), ...hintsOf(shell.commands, st)];
  };
  // Redrawn when what can run changes (a row selected, a form closed), not on every change.
  useAppStore((st) =>
    available(st)
      .map((h) => `${h.label} ${h.description}`)
      .join("\u0000"),
  );
  const hints = fitHints(available(store.getState()), width - 1);
  const room = width - 1;
  const m = messageOf(status);
  const color = status.kind === "error" ? theme.bad : status.kind === "rule" ? theme.warn : undefined;
  const lines = messageLines(status, room);
  const last = lines[lines.length - 1] ?? "";
  const detailRoom = room - stringWidth(last) - 3;
  return (
    <Box flexDirection="column" width={width}>
      {progress ? (
        <Box height={1} overflow="hidden">
          <ProgressBar {...progress} />
        </Box>
      ) : loading ? (
        <Box height={1} overflow="hidden">
          <Spinner label={loading} />
        </Box>
      ) : m ? (
        lines.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the one or two lines of one message, in order.
          <Box key={i} height={1} overflow="hidden">
            <Txt wrap="truncate-end">
              <Txt color={color}>{line}</Txt>
              {i === lines.length - 1 && m.details && detailRoom > 8 ? (
                <Txt color={theme.muted}> ({fitCell(m.details, detailRoom).trimEnd()})</Txt>
              ) : null}
            </Txt>
          </Box>
        ))
      ) : (
        <Box height={1}>
          <Txt> </Txt>
        </Box>
      )}
      {notice ? (
        <Box height={1} overflow="hidden">
          <Txt color={theme.warn}>{fitCell(`⚠ ${notice}`, room).trimEnd()}</Txt>
        </Box>
      ) : null}
      <Box height={1} overflow="hidden">
        <Txt wrap="truncate-end">
          {hints.map((h, i) => (
            <Txt key={`${h.label} ${h.description}`}>
              {i > 0 ? "  " : ""}
              <Txt color={theme.accent} bold>
                {h.label}
              </Txt>
              <Txt color={theme.muted}> {h.description}</Txt>
            </Txt>
          ))}
        </Txt>
      </Box>
    </Box>
  );
}
