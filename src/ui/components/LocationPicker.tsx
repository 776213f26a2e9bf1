import { Box } from "ink";
import { useAppStore, useAppStoreApi, useShallow } from "../../state/index.js";
import { useKeys } from "../keyboard.js";
import { useTheme } from "../theme.js";
import { Txt } from "./Txt.js";
import { useWidgetList } from "./use-list.js";
import { WindowedList } from "./WindowedList.js";

/** The `L` picker: j/k to choose a location, enter to switch, esc (or L) to close. */
export function LocationPicker({ height }: { height: number }) {
  const theme = useTheme();
  const store = useAppStoreApi();
  const locations = useAppStore(useShallow((s) => s.locations));
  const current = useAppStore((s) => s.locationId);
  const rows = Math.min(height - 2, locations.length + 1);
  const [list, onList] = useWidgetList(locations.length, rows - 1);
  useKeys(
    (input, key) => {
      if (onList(input, key)) return true;
      if (key.escape || input === "L") store.getState().closeOverlay();
      else if (key.return) {
        const picked = locations[list.cursor];
        if (picked?.id) store.getState().selectLocation(picked.id);
      } else return false;
      return true;
    },
    { isActive: true },
  );
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Txt bold>Location</Txt>
      <WindowedList
        items={locations}
        state={list}
        height={rows}
        rowKey={(l) => l.id ?? ""}
        renderRow={(l) => (
          <Txt>
            {" "}
            {l.name} <Txt color={theme.muted}>{l.timezone}</Txt>
            {l.id === current ? <Txt color={theme.good}> (current)</Txt> : null}
          </Txt>
        )}
      />
    </Box>
  );
}
