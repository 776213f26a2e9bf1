import { Box } from "ink";
import { useAppStore } from "../../state/index.js";
import { bindingsFor, type Scope } from "../keymap.js";
import { useTheme } from "../theme.js";
import { ProgressBar } from "./ProgressBar.js";
import { Spinner } from "./Spinner.js";
import { Txt } from "./Txt.js";

/** The status bar: progress or spinner, the last message or error, and the key hints. */
export function StatusBar({ scopes, width }: { scopes: readonly Scope[]; width: number }) {
  const theme = useTheme();
  const status = useAppStore((s) => s.status);
  const loading = useAppStore((s) => s.loading);
  const progress = useAppStore((s) => s.progress);
  const readOnly = useAppStore((s) => s.readOnly);
  const notice = useAppStore((s) => s.notice);
  const hints = bindingsFor(scopes).filter((b) => b.hint);
  return (
    <Box flexDirection="column" width={width}>
      <Box>
        {notice ? (
          <Box flexShrink={0} marginRight={2}>
            <Txt color={theme.warn}>⚠ {notice}</Txt>
          </Box>
        ) : null}
        {progress ? (
          <ProgressBar {...progress} />
        ) : loading ? (
          <Spinner label={loading} />
        ) : status.kind === "error" ? (
          <Txt color={theme.bad} wrap="truncate-end">
            ✖ {status.code}: {status.detail}
          </Txt>
        ) : status.kind === "rule" ? (
          <Txt color={theme.warn} wrap="truncate-end">
            ! {status.text}
          </Txt>
        ) : status.kind === "info" ? (
          <Txt wrap="truncate-end">{status.text}</Txt>
        ) : (
          <Txt> </Txt>
        )}
      </Box>
      <Box>
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
                  {b.description.split(" (")[0]}
                </Txt>
              </Txt>
            );
          })}
        </Txt>
      </Box>
    </Box>
  );
}
