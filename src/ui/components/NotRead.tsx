import { Box } from "ink";
import type { ReactNode } from "react";
import { localTimeSeconds, machineTimeZone } from "../../domain/time.js";
import { OFFLINE_RETRY_SECONDS, useAppStore } from "../../state/index.js";
import { useTheme } from "../theme.js";
import { Txt } from "./Txt.js";

/** "the drawers" → "The drawers". */
const capitalised = (what: string): string => what.charAt(0).toUpperCase() + what.slice(1);

/**
 * What a screen that needs the store shows while no location is known yet (src/ui/use-screens.tsx):
 * its title, then why its data is not there. When the service cannot be reached (the app started
 * while it was down) it says so in words, when it was last tried, that the app keeps trying and that
 * `r` tries now; signed out, it says that; else the store is still being read. `what`: the data in
 * the manager's words ("the drawers").
 */
export function NotRead({ title, what }: { title: string; what: string }) {
  const theme = useTheme();
  const connection = useAppStore((s) => s.connection);
  const signedOut = useAppStore((s) => s.signedIn === "signed-out");
  const reading = useAppStore((s) => s.loading !== undefined);
  let body: ReactNode;
  if (connection.state === "offline") {
    // Nothing known of the store yet, so no store's time zone: this machine's clock, as the header's.
    const tried = localTimeSeconds(connection.triedAt, machineTimeZone());
    body = (
      <>
        <Txt color={theme.bad}>{capitalised(what)} cannot be read: the service cannot be reached.</Txt>
        <Txt color={theme.muted}>
          {connection.retrying ? "Trying again now…" : `Last tried ${tried}`} · tries again every{" "}
          {OFFLINE_RETRY_SECONDS} s · r tries now
        </Txt>
      </>
    );
  } else if (signedOut) {
    body = (
      <Txt color={theme.bad}>{capitalised(what)} cannot be read: not signed in; 0 opens the account to sign in.</Txt>
    );
  } else {
    body = (
      <Txt color={theme.muted}>
        {reading ? `Reading the store's locations…` : `The store's locations are not read; r reads them again.`}
      </Txt>
    );
  }
  return (
    <Box flexDirection="column">
      <Txt bold wrap="truncate-end">
        {title}
      </Txt>
      {body}
    </Box>
  );
}
