import { Box } from "ink";
import stringWidth from "string-width";
import { type AppState, useAppStore, useAppStoreApi } from "../../state/index.js";
import { type Command, type CommandTable, unavailableReason } from "../commands.js";
import { currentScreen, useShell } from "../shell.js";
import { useTheme } from "../theme.js";
import { fitCell } from "./columns.js";
import { ProgressBar } from "./ProgressBar.js";
import { Spinner } from "./Spinner.js";
import { Txt } from "./Txt.js";

/** The rows the status bar takes: the message, the standing notice when there is one, the hints. */
export function statusBarHeight(notice: string | undefined): number {
  return notice ? 3 : 2;
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
    .map((c) => ({ label: c.label, description: shortDescription(c.description), hint: c.hint }));
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
  const status = useAppStore((s) => s.status);
  const loading = useAppStore((s) => s.loading);
  const progress = useAppStore((s) => s.progress);
  const notice = useAppStore((s) => s.notice);
  const available = (st: AppState) => {
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
  const message =
    status.kind === "error"
      ? { mark: "✖ ", text: status.text, details: status.details, color: theme.bad }
      : status.kind === "rule"
        ? { mark: "! ", text: status.text, details: status.details, color: theme.warn }
        : status.kind === "info"
          ? { mark: "", text: status.text, details: status.details, color: undefined }
          : undefined;
  const headline = message ? fitCell(`${message.mark}${message.text}`, room).trimEnd() : "";
  const detailRoom = room - stringWidth(headline) - 3;
  return (
    <Box flexDirection="column" width={width}>
      <Box height={1} overflow="hidden">
        {progress ? (
          <ProgressBar {...progress} />
        ) : loading ? (
          <Spinner label={loading} />
        ) : message ? (
          <Txt wrap="truncate-end">
            <Txt color={message.color}>{headline}</Txt>
            {message.details && detailRoom > 8 ? (
              <Txt color={theme.muted}> ({fitCell(message.details, detailRoom).trimEnd()})</Txt>
            ) : null}
          </Txt>
        ) : (
          <Txt> </Txt>
        )}
      </Box>
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
