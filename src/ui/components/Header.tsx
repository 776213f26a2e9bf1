import { Box } from "ink";
import { localTime } from "../../domain/time.js";
import {
  SCREEN_ORDER,
  SCREEN_TITLES,
  selectLocation,
  selectMerchantName,
  selectTimeZone,
  useAppStore,
} from "../../state/index.js";
import { useTheme } from "../theme.js";
import { Txt } from "./Txt.js";

/** The header: merchant, location, environment, signed-in state, clock; then the screen tabs. */
export function Header({ width }: { width: number }) {
  const theme = useTheme();
  const merchant = useAppStore(selectMerchantName);
  const location = useAppStore(selectLocation);
  const locationCount = useAppStore((s) => s.locations.length);
  const env = useAppStore((s) => s.env);
  const readOnly = useAppStore((s) => s.readOnly);
  const signedIn = useAppStore((s) => s.signedIn);
  const tz = useAppStore(selectTimeZone);
  const now = useAppStore((s) => s.now);
  const screen = useAppStore((s) => s.screen.kind);
  const envColors = theme.env[env];
  return (
    <Box flexDirection="column" width={width}>
      <Box justifyContent="space-between">
        <Box gap={1}>
          <Txt bold>{merchant}</Txt>
          <Txt color={theme.muted}>·</Txt>
          <Txt>
            {location?.name ?? "no location"}
            {locationCount > 1 ? <Txt color={theme.muted}> (L to switch)</Txt> : null}
          </Txt>
        </Box>
        <Box gap={1}>
          <Txt color={envColors.fg} backgroundColor={envColors.bg} inverse={!theme.color} bold>
            {` ${env} `}
          </Txt>
          {readOnly ? <Txt color={theme.warn}>READ-ONLY</Txt> : null}
          <Txt color={signedIn === "signed-in" ? theme.good : signedIn === "signed-out" ? theme.bad : theme.muted}>
            {signedIn === "signed-in" ? "● signed in" : signedIn === "signed-out" ? "○ signed out" : "○ checking"}
          </Txt>
          <Txt>{localTime(now, tz)}</Txt>
        </Box>
      </Box>
      <Box gap={2}>
        {SCREEN_ORDER.map((kind, i) => (
          <Txt
            key={kind}
            color={kind === screen ? theme.accent : theme.muted}
            bold={kind === screen}
            underline={kind === screen && !theme.color}
          >
            {i + 1} {SCREEN_TITLES[kind]}
          </Txt>
        ))}
      </Box>
    </Box>
  );
}
