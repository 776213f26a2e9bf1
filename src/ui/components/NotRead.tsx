import { Box } from "ink";
import { localTimeSeconds, machineTimeZone } from "../../domain/time.js";
import { OFFLINE_RETRY_SECONDS, useAppStore } from "../../state/index.js";
import { useTheme } from "../theme.js";
import { Txt } from "./Txt.js";

/**
 * What a screen shows in place of data it has not read yet: "Loading …" while the read can still
 * come; when the service cannot be reached and nothing was read (the app started while it was
 * down), says so in words, when it was last tried, that the app keeps trying, and that `r` tries
 * now. `what`: the data in the manager's words ("the team").
 */
export function NotRead({ what, loading }: { what: string; loading: string }) {
  const theme = useTheme();
  const connection = useAppStore((s) => s.connection);
  // Nothing known of the store yet, so no store's time zone: this machine's clock, as the header's.
  const started = useAppStore((s) => s.locations.length > 0);
  if (connection.state !== "offline" || started) return <Txt color={theme.muted}>{loading}</Txt>;
  const tried = localTimeSeconds(connection.triedAt, machineTimeZone());
  return (
    <Box flexDirection="column">
      <Txt color={theme.bad}>The service cannot be reached; {what} is not read yet.</Txt>
      <Txt color={theme.muted}>
        {connection.retrying ? "Trying again now…" : `Last tried ${tried}`} · tries again every {OFFLINE_RETRY_SECONDS}{" "}
        s · r tries now
      </Txt>
    </Box>
  );
}
