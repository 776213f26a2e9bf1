import { Box } from "ink";
import { localTimeSeconds, machineTimeZone } from "../../domain/time.js";
import { OFFLINE_RETRY_SECONDS, selectTimeZone, useAppStore } from "../../state/index.js";
import { useTheme } from "../theme.js";
import { Txt } from "./Txt.js";

/** "the drawers" → "The drawers". */
const capitalised = (what: string): string => what.charAt(0).toUpperCase() + what.slice(1);

/** "The drawers cannot be read: the service cannot be reached." */
const unreachable = (what: string): string => `${capitalised(what)} cannot be read: the service cannot be reached.`;

/**
 * Why data is not there while the service cannot be reached: "<What> cannot be read: the service
 * cannot be reached.", when it was last tried (in the store's time, as the header's; this machine's
 * while no store is known), that the app keeps trying, and that `r` tries now.
 */
function OfflineWords({ what }: { what: string }) {
  const theme = useTheme();
  const connection = useAppStore((s) => s.connection);
  const timeZone = useAppStore((s) => (s.locationId ? selectTimeZone(s) : machineTimeZone()));
  if (connection.state !== "offline") return null;
  const tried = localTimeSeconds(connection.triedAt, timeZone);
  return (
    <>
      <Txt color={theme.bad}>{unreachable(what)}</Txt>
      <Txt color={theme.muted}>
        {connection.retrying ? "Trying again now…" : `Last tried ${tried}`} · tries again every {OFFLINE_RETRY_SECONDS}{" "}
        s · r tries now
      </Txt>
    </>
  );
}

/**
 * What a screen that needs the store shows while no location is known yet (src/ui/use-screens.tsx):
 * its title, then why its data is not there — the service cannot be reached (the app started while
 * it was down), not signed in, or the store still being read. `what`: the data in the manager's
 * words ("the drawers").
 */
export function NotRead({ title, what }: { title: string; what: string }) {
  const theme = useTheme();
  const offline = useAppStore((s) => s.connection.state === "offline");
  const signedOut = useAppStore((s) => s.signedIn === "signed-out");
  const reading = useAppStore((s) => s.loading !== undefined);
  return (
    <Box flexDirection="column">
      <Txt bold wrap="truncate-end">
        {title}
      </Txt>
      {offline ? (
        <OfflineWords what={what} />
      ) : signedOut ? (
        <Txt color={theme.bad}>{capitalised(what)} cannot be read: not signed in; 0 opens the account to sign in.</Txt>
      ) : (
        <Txt color={theme.muted}>
          {reading ? "Reading the store's locations…" : "The store's locations are not read; r reads them again."}
        </Txt>
      )}
    </Box>
  );
}

/**
 * In a screen, in place of data not read yet: `loading` ("Reading the drawers…") while it can come;
 * while the service cannot be reached, says so as {@link NotRead} does. The screen reads again by
 * itself when the service answers (src/ui/App.tsx).
 */
export function NotReadYet({ what, loading }: { what: string; loading: string }) {
  const theme = useTheme();
  const offline = useAppStore((s) => s.connection.state === "offline");
  return (
    <Box flexDirection="column">
      {offline ? <OfflineWords what={what} /> : <Txt color={theme.muted}>{loading}</Txt>}
    </Box>
  );
}

/** {@link NotReadYet} in one line, for a list's empty text. */
export function useNotReadText(what: string, loading: string): string {
  const offline = useAppStore((s) => s.connection.state === "offline");
  return offline ? unreachable(what) : loading;
}
