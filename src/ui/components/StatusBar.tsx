import { Box } from "ink";
import stringWidth from "string-width";
import { useAppStore } from "../../state/index.js";
import { type Binding, bindingsIn, type Scope } from "../keymap.js";
import { useShell } from "../shell.js";
import { useTheme } from "../theme.js";
import { fitCell } from "./columns.js";
import { ProgressBar } from "./ProgressBar.js";
import { Spinner } from "./Spinner.js";
import { Txt } from "./Txt.js";

/** The rows the status bar takes: the message, the standing notice when there is one, the hints. */
export function statusBarHeight(notice: string | undefined): number {
  return notice ? 3 : 2;
}

/** The hints that fit in `width`, most important first kept, shown in keymap order. */
export function fitHints(bindings: readonly Binding[], width: number): Binding[] {
  const hinted = bindings.filter((b) => b.hint !== undefined);
  const byPriority = [...hinted].sort((a, b) => (a.hint ?? 0) - (b.hint ?? 0));
  const kept = new Set<Binding>();
  let used = 0;
  for (const b of byPriority) {
    const w = stringWidth(`${b.label} ${shortDescription(b)}`) + (kept.size > 0 ? 2 : 0);
    if (used + w > width) continue;
    kept.add(b);
    used += w;
  }
  return hinted.filter((b) => kept.has(b));
}

function shortDescription(b: Binding): string {
  return b.description.split(" (")[0] ?? b.description;
}

/**
 * The status bar: progress or spinner, or the last message with its details (codes, ids) dim
 * after it, cut with `…` to the width; the standing notice on its own row; the key hints that fit.
 */
export function StatusBar({ scopes, width }: { scopes: readonly Scope[]; width: number }) {
  const theme = useTheme();
  const { bindings } = useShell();
  const status = useAppStore((s) => s.status);
  const loading = useAppStore((s) => s.loading);
  const progress = useAppStore((s) => s.progress);
  const readOnly = useAppStore((s) => s.readOnly);
  const notice = useAppStore((s) => s.notice);
  const hints = fitHints(bindingsIn(bindings, scopes), width - 1);
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
          {hints.map((b, i) => {
            const disabled = readOnly && b.write;
            return (
              <Txt key={b.command}>
                {i > 0 ? "  " : ""}
                <Txt color={disabled ? theme.muted : theme.accent} strikethrough={Boolean(disabled)} bold={!disabled}>
                  {b.label}
                </Txt>
                <Txt color={theme.muted} strikethrough={Boolean(disabled)}>
                  {" "}
                  {shortDescription(b)}
                </Txt>
              </Txt>
            );
          })}
        </Txt>
      </Box>
    </Box>
  );
}
