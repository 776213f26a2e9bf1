import { Box } from "ink";
import stringWidth from "string-width";
import { localTime, machineTimeZone } from "../../domain/time.js";
import {
  type Connection,
  selectKeptCounts,
  selectLocation,
  selectMerchantName,
  selectTimeZone,
  useAppStore,
  useShallow,
} from "../../state/index.js";
import { currentScreen, useShell } from "../shell.js";
import { type Theme, useTheme } from "../theme.js";
import { Txt } from "./Txt.js";

/** A piece of the header line: dropped when the line does not fit, highest `drop` first. */
interface Part {
  text: string;
  color?: string | undefined;
  backgroundColor?: string | undefined;
  bold?: boolean;
  inverse?: boolean;
  drop: number;
}

/**
 * What the connection part says. `tz` is the store's zone, undefined while no location is known
 * (offline from the start): the time is then this machine's, never a UTC time unsaid.
 */
export function connectionText(
  c: Connection,
  signedIn: string,
  tz: string | undefined,
  machineZone: string = machineTimeZone(),
): { text: string; tone: "good" | "bad" | "muted" } {
  if (c.state === "offline") {
    const since = localTime(c.since, tz ?? machineZone);
    return { text: `○ offline (since ${since}${c.retrying ? ", retrying" : ""})`, tone: "bad" };
  }
  if (signedIn === "signed-out") return { text: "○ signed out", tone: "bad" };
  if (c.state === "online") return { text: "● online", tone: "good" };
  return { text: "○ connecting", tone: "muted" };
}

/** Keeps the parts that fit in `width` (with one space between), dropping the least needed first. */
export function fitParts<T extends { text: string; drop: number }>(parts: readonly T[], width: number): T[] {
  let kept = [...parts];
  const need = (ps: T[]) => ps.reduce((n, p) => n + stringWidth(p.text), 0) + Math.max(0, ps.length - 1);
  while (need(kept) > width) {
    const victim = kept.reduce<T | undefined>((v, p) => (p.drop > (v?.drop ?? 0) ? p : v), undefined);
    if (!victim) break;
    kept = kept.filter((p) => p !== victim);
  }
  return kept;
}

/** The header's count of kept writes: `◷ 3 kept`, `⚠ 1 to resolve (!)`; nothing when none. */
export function keptParts(kept: { pending: number; refused: number }, theme: Theme): Part[] {
  const parts: Part[] = [];
  if (kept.pending > 0) parts.push({ text: `◷ ${kept.pending} kept`, color: theme.warn, drop: 0 });
  if (kept.refused > 0) parts.push({ text: `⚠ ${kept.refused} to resolve (!)`, color: theme.bad, drop: 0 });
  return parts;
}

function tone(theme: Theme, t: "good" | "bad" | "muted"): string | undefined {
  return t === "good" ? theme.good : t === "bad" ? theme.bad : theme.muted;
}

/**
 * The header: merchant and location on the left; which store, read-only, the connection and the
 * clock on the right; then the screen tabs. On a narrow terminal the least needed parts go first;
 * the clock and the store stay.
 */
export function Header({ width }: { width: number }) {
  const theme = useTheme();
  const { screens } = useShell();
  const merchant = useAppStore(selectMerchantName);
  const location = useAppStore(selectLocation);
  // On a screen that shows every store, all locations when chosen.
  const allStores = useAppStore((s) => s.allLocations && currentScreen(screens, s)?.allLocations === true);
  const locationCount = useAppStore((s) => s.locations.length);
  const env = useAppStore((s) => s.env);
  const baseUrl = useAppStore((s) => s.baseUrl);
  const readOnly = useAppStore((s) => s.readOnly);
  const signedIn = useAppStore((s) => s.signedIn);
  const connection = useAppStore((s) => s.connection);
  const tz = useAppStore(selectTimeZone);
  const now = useAppStore((s) => s.now);
  const screen = useAppStore((s) => s.screen.kind);
  const keptCounts = useAppStore(useShallow(selectKeptCounts));
  const envColors = theme.env[env];
  const conn = connectionText(connection, signedIn, location ? tz : undefined);
  const right: Part[] = [
    {
      text: ` ${env} `,
      color: envColors.fg,
      backgroundColor: envColors.bg,
      inverse: !theme.color,
      bold: true,
      drop: 0,
    },
    ...(baseUrl ? [{ text: hostOf(baseUrl), color: theme.muted, drop: 5 }] : []),
    ...(readOnly ? [{ text: "READ-ONLY", color: theme.warn, drop: 1 }] : []),
    { text: conn.text, color: tone(theme, conn.tone), drop: conn.tone === "bad" ? 0 : 3 },
    // What this machine keeps for the service, and what it refused: `!` shows them.
    ...keptParts(keptCounts, theme),
    // The store's wall clock, once the store (and so its time zone) is known: never a UTC time that
    // jumps when the locations arrive.
    ...(location ? [{ text: localTime(now, tz), drop: 0 }] : []),
  ];
  const left: Part[] = [
    { text: allStores ? "All locations" : (location?.name ?? "no location"), bold: true, drop: 2 },
    ...(locationCount > 1 ? [{ text: "(L to switch)", color: theme.muted, drop: 6 }] : []),
    { text: `· ${merchant}`, color: theme.muted, drop: 4 },
  ];
  const kept = fitParts([...left, ...right], width - 1);
  const keptLeft = left.filter((p) => kept.includes(p));
  const keptRight = right.filter((p) => kept.includes(p));
  // Narrow, a screen with a number key shows the key alone; one without (reached by tab, the palette
  // or a shell key) keeps its title, and only when even that does not fit is the title cut short.
  const tabs = screens.map((d) => ({
    kind: d.kind,
    full: d.key ? `${d.key} ${d.title}` : d.title,
    short: d.key ?? d.title,
    shortest: d.key ?? d.title.slice(0, 3),
  }));
  const widthOf = (pick: (t: (typeof tabs)[number]) => string, gap: number) =>
    tabs.reduce((n, t) => n + stringWidth(pick(t)) + gap, 0);
  const compact = widthOf((t) => t.full, 2) > width;
  const cut = compact && widthOf((t) => t.short, 1) > width;
  return (
    <Box flexDirection="column" width={width}>
      <Box justifyContent="space-between" width={width}>
        <Box gap={1}>{keptLeft.map((p) => draw(p))}</Box>
        <Box gap={1}>{keptRight.map((p) => draw(p))}</Box>
      </Box>
      <Box gap={compact ? 1 : 2} height={1} overflow="hidden">
        {tabs.map((t) => {
          const current = t.kind === screen;
          return (
            <Txt
              key={t.kind}
              color={current ? theme.accent : theme.muted}
              bold={current}
              underline={current && !theme.color}
              wrap="truncate-end"
            >
              {!compact || current ? t.full : cut ? t.shortest : t.short}
            </Txt>
          );
        })}
      </Box>
    </Box>
  );
}

function draw(p: Part) {
  return (
    <Txt
      key={p.text}
      color={p.color}
      backgroundColor={p.backgroundColor}
      bold={Boolean(p.bold)}
      inverse={Boolean(p.inverse)}
      wrap="truncate-end"
    >
      {p.text}
    </Txt>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
