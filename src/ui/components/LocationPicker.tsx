import { Box } from "ink";
import { type AppState, useAppStore, useAppStoreApi, useShallow } from "../../state/index.js";
import { useKeys } from "../keyboard.js";
import { currentScreen, useShell } from "../shell.js";
import { useTheme } from "../theme.js";
import { Txt } from "./Txt.js";
import { useWidgetList } from "./use-list.js";
import { WindowedList } from "./WindowedList.js";

/** What the picker lists: every store of the seller, and first "All locations" where the screen can show them all. */
type Choice = { kind: "all" } | { kind: "store"; id: string; name: string; timezone: string };

/** Which choice is in force: all locations (on a screen that shows them), else the selected store. */
function isCurrent(c: Choice, s: Pick<AppState, "locationId" | "allLocations">, offersAll: boolean): boolean {
  const all = offersAll && s.allLocations;
  return c.kind === "all" ? all : !all && c.id === s.locationId;
}

/**
 * The `L` picker: j/k to choose a location, enter to switch, esc (or L) to close. On a screen that
 * can show every store at once (its registry entry says `allLocations`) it offers "All locations"
 * first; elsewhere it says which screens do.
 */
export function LocationPicker({ height }: { height: number }) {
  const theme = useTheme();
  const store = useAppStoreApi();
  const { screens } = useShell();
  const offersAll = useAppStore((s) => currentScreen(screens, s)?.allLocations === true);
  const elsewhere = screens.filter((d) => d.allLocations).map((d) => d.title);
  const locations = useAppStore(useShallow((s) => s.locations));
  const current = useAppStore(useShallow((s) => ({ locationId: s.locationId, allLocations: s.allLocations })));
  const choices: Choice[] = [
    ...(offersAll ? [{ kind: "all" as const }] : []),
    ...locations.flatMap((l) =>
      l.id ? [{ kind: "store" as const, id: l.id, name: l.name ?? l.id, timezone: l.timezone ?? "" }] : [],
    ),
  ];
  // The note wraps, never cut: two rows are kept for it (a narrow terminal's second line).
  const note = !offersAll && elsewhere.length > 0 ? 2 : 0;
  const rows = Math.min(height - 2 - note, choices.length + 1);
  const [list, onList] = useWidgetList(choices.length, rows - 1);
  useKeys(
    (input, key) => {
      if (onList(input, key)) return true;
      if (key.escape || input === "L") store.getState().closeOverlay();
      else if (key.return) {
        const picked = choices[list.cursor];
        if (picked?.kind === "all") store.getState().selectAllLocations();
        else if (picked) store.getState().selectLocation(picked.id);
      } else return false;
      return true;
    },
    { isActive: true },
  );
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Txt bold>Location</Txt>
      {note ? <Txt color={theme.muted}>All locations: not on this screen; on {elsewhere.join(", ")}</Txt> : null}
      <WindowedList
        items={choices}
        state={list}
        height={rows}
        rowKey={(c) => (c.kind === "all" ? "*all" : c.id)}
        renderRow={(c) => (
          <Txt>
            {" "}
            {c.kind === "all" ? "All locations" : c.name}{" "}
            <Txt color={theme.muted}>{c.kind === "all" ? "every store together" : c.timezone}</Txt>
            {isCurrent(c, current, offersAll) ? <Txt color={theme.good}> (current)</Txt> : null}
          </Txt>
        )}
      />
    </Box>
  );
}
