import { Box } from "ink";
import { useAppStore, useAppStoreApi, useShallow } from "../../state/index.js";
import { useTheme } from "../theme.js";
import { useCommands } from "../use-commands.js";
import { Txt } from "./Txt.js";
import { useList } from "./use-list.js";
import { WindowedList } from "./WindowedList.js";

/** The `L` picker: j/k to choose a location, enter to switch, esc to close. */
export function LocationPicker({ height }: { height: number }) {
  const theme = useTheme();
  const store = useAppStoreApi();
  const locations = useAppStore(useShallow((s) => s.locations));
  const current = useAppStore((s) => s.locationId);
  const [list, onList] = useList(locations.length, Math.min(height - 2, locations.length + 1));
  useCommands(
    ["list", "global"],
    (c) => {
      if (onList(c)) return;
      if (c === "back" || c === "location" || c === "quit") store.getState().closeOverlay();
    },
    true,
    (_input, key) => {
      if (!key.return) return;
      const picked = locations[list.cursor];
      if (picked?.id) void store.getState().selectLocation(picked.id);
    },
  );
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Txt bold>Location</Txt>
      <WindowedList
        items={locations}
        state={list}
        height={Math.min(height - 2, locations.length + 1)}
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
