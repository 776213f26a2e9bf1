import { Box, type DOMElement, measureElement, useApp, useStdout } from "ink";
import { type RefObject, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { type AppStore, OUTBOX_CHECK_SECONDS, StoreProvider, useAppStore, useAppStoreApi } from "../state/index.js";
import type { CommandDeps } from "./commands.js";
import { CommandPalette } from "./components/CommandPalette.js";
import { Confirm } from "./components/Confirm.js";
import { Header } from "./components/Header.js";
import { HelpOverlay } from "./components/HelpOverlay.js";
import { LocationPicker } from "./components/LocationPicker.js";
import { StatusBar, statusBarHeight } from "./components/StatusBar.js";
import { Txt } from "./components/Txt.js";
import { type Keyboard, KeyboardProvider, useKeyboard, useKeys } from "./keyboard.js";
import { SCREENS } from "./screens/registry.js";
import type { AnyScreenDef, ScreenEntry } from "./screens/screen-def.js";
import { burstRoute, dispatchKey, dispatchScan, keysWait, ShellProvider, useShell } from "./shell.js";
import { makeTheme, ThemeProvider } from "./theme.js";

/** Below this size the app says so instead of drawing a garbled frame. */
export const MIN_COLUMNS = 60;
/** See {@link MIN_COLUMNS}. */
export const MIN_ROWS = 16;

/** Fails to compile when a union gains a member that a switch does not handle. */
export function assertNever(value: never): never {
  throw new Error(`unhandled: ${JSON.stringify(value)}`);
}

/** The terminal size, updated on resize. */
function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const read = () => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const [size, setSize] = useState(read);
  // biome-ignore lint/correctness/useExhaustiveDependencies: read only closes over stdout.
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on("resize", onResize);
    return () => {
      stdout.off("resize", onResize);
    };
  }, [stdout]);
  return size;
}

/** The app with its providers: what `renderApp` renders for the terminal and for tests. */
export function AppRoot({
  store,
  color = true,
  onFirstFrame,
  screens = SCREENS,
  keyboard,
}: {
  store: AppStore;
  color?: boolean;
  /** Called once the first frame has been written. */
  onFirstFrame?: () => void;
  /** The screen registry; tests may pass their own. */
  screens?: readonly ScreenEntry[];
  keyboard?: Keyboard;
}) {
  return (
    <StoreProvider store={store}>
      <ShellProvider screens={screens}>
        <ThemeProvider theme={makeTheme(color)}>
          <KeyboardProvider onCtrlC={() => store.getState().quit()} {...(keyboard ? { keyboard } : {})}>
            <App {...(onFirstFrame ? { onFirstFrame } : {})} />
          </KeyboardProvider>
        </ThemeProvider>
      </ShellProvider>
    </StoreProvider>
  );
}

/** Runs the registry's hooks: on showing a screen, on a location change, and the quiet refresh. */
function useScreenHooks(def: AnyScreenDef | undefined) {
  const store = useAppStoreApi();
  const { screens } = useShell();
  const locationId = useAppStore((s) => s.locationId);
  const allLocations = useAppStore((s) => s.allLocations);
  const kind = def?.kind;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the screen or location changes.
  useEffect(() => {
    if (!locationId) return;
    for (const d of screens) void d.onLocationChange?.(store.getState(), d.kind === store.getState().screen.kind);
  }, [locationId]);
  // All locations chosen (or one again): the screens that can show every store read again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the choice changes.
  useEffect(() => {
    if (!locationId) return;
    for (const d of screens) {
      if (d.allLocations) void d.onLocationChange?.(store.getState(), d.kind === store.getState().screen.kind);
    }
  }, [allLocations]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when another screen is shown, or has loaded.
  useEffect(() => {
    if (def && (store.getState().locationId || def.withoutLocation)) void def.onShow?.(store.getState());
  }, [kind, def?.onShow]);
  // The service answers again: the screen on show reads again (what it shows was read before, or
  // could not be read at all), as its quiet refresh does, or as `r` does when it has none.
  const connection = useAppStore((s) => s.connection.state);
  const was = useRef(connection);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the connection changes.
  useEffect(() => {
    const back = was.current === "offline" && connection === "online";
    was.current = connection;
    const s = store.getState();
    if (back && def && s.locationId) void (def.refresh ?? def.reload)?.(s);
  }, [connection]);
  useEffect(() => {
    if (!def?.refresh) return;
    const refresh = def.refresh;
    const timer = setInterval(
      () => {
        const s = store.getState();
        // Not while something is loading or being sent: the refresh waits for the next turn.
        if (s.locationId && s.loading === undefined && s.inFlight.length === 0) void refresh(s);
      },
      (def.refreshSeconds ?? 15) * 1000,
    );
    return () => clearInterval(timer);
  }, [def, store]);
}

/** The shell: header, the current screen from the registry, overlays, and the status bar. */
export function App({ onFirstFrame }: { onFirstFrame?: () => void } = {}) {
  const store = useAppStoreApi();
  const { screens } = useShell();
  const { exit } = useApp();
  const { columns, rows } = useTerminalSize();
  const kind = useAppStore((s) => s.screen.kind);
  const overlay = useAppStore((s) => s.overlay);
  const exited = useAppStore((s) => s.exited);
  const statusRows = useAppStore((s) => statusBarHeight(s, Math.max(MIN_COLUMNS, columns)));
  const def = screens.find((d) => d.kind === kind) ?? screens[0];
  useScreenHooks(def);
  const bodyHeight = Math.max(MIN_ROWS, rows) - 3 - statusRows;
  useShellKeys(bodyHeight, Math.max(MIN_COLUMNS, columns));
  const [overlayBox, overlayRows] = useMeasuredRows();

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, after the first commit.
  useEffect(() => {
    // Effects run after Ink has written the committed frame: this is the first frame on screen.
    onFirstFrame?.();
  }, []);
  useEffect(() => {
    void store.getState().init();
    const timer = setInterval(() => store.getState().tick(), 1000);
    // Kept writes go out when the service answers again: looked at (and the service asked) now and then.
    const outbox = setInterval(() => void store.getState().outboxCheck(), OUTBOX_CHECK_SECONDS * 1000);
    return () => {
      clearInterval(timer);
      clearInterval(outbox);
    };
  }, [store]);
  useEffect(() => {
    if (exited) exit();
  }, [exited, exit]);

  if (!def) return <Txt>No screens are registered.</Txt>;
  // Too small: the app stays mounted but hidden, so a half-typed form survives a resize.
  const tooSmall = columns < MIN_COLUMNS || rows < MIN_ROWS;
  // One row spare: a frame as tall as the terminal makes Ink clear and redraw the whole screen.
  const height = Math.max(MIN_ROWS, rows) - 1;
  const width = Math.max(MIN_COLUMNS, columns);
  const active = overlay.kind === "none" && !tooSmall;
  const screenRows = bodyHeight - (overlay.kind === "none" ? 0 : overlayRows);
  const Body = def.component;
  const deps: CommandDeps = { page: pageRows(bodyHeight), width, height: bodyHeight };
  return (
    <>
      {tooSmall ? <TooSmall columns={columns} rows={rows} /> : null}
      <Box flexDirection="column" width={width} height={height} display={tooSmall ? "none" : "flex"}>
        <Header width={width} />
        <Box flexDirection="column" height={bodyHeight} overflowY="hidden">
          {/* Yoga would squeeze boxes taller than the body onto each other; cut them off instead. */}
          <Box ref={overlayBox} flexShrink={0} flexDirection="column">
            <OverlayView height={bodyHeight} width={width} deps={deps} />
          </Box>
          {/* Under an overlay the screen gets the rows the overlay leaves (Ink does not clip a box
              nested in a clipped box to its parent, so a screen drawn taller would spill into the
              status bar); with fewer than a handful left, it waits hidden. */}
          <Box flexShrink={0} flexDirection="column" display={screenRows < 4 ? "none" : "flex"}>
            <Body active={active} height={Math.max(4, screenRows)} width={width} />
          </Box>
        </Box>
        <StatusBar width={width} />
      </Box>
    </>
  );
}

/** A box's height in rows, measured after each layout (0 before the first). */
function useMeasuredRows(): [RefObject<DOMElement | null>, number] {
  const ref = useRef<DOMElement | null>(null);
  const [rows, setRows] = useState(0);
  useLayoutEffect(() => {
    const measured = ref.current ? measureElement(ref.current).height : 0;
    if (measured !== rows) setRows(measured);
  });
  return [ref, rows];
}

/** Rows a page key moves: a screenful of a list, less its header and the lines around it. */
function pageRows(bodyHeight: number): number {
  return Math.max(1, bodyHeight - 6);
}

/** Hands the keyboard's keys and scans that no widget took to the shell's router. */
function useShellKeys(bodyHeight: number, width: number) {
  const store = useAppStoreApi();
  const shell = useShell();
  const keyboard = useKeyboard();
  const deps = useMemo<CommandDeps>(
    () => ({ page: pageRows(bodyHeight), width, height: bodyHeight }),
    [bodyHeight, width],
  );
  useLayoutEffect(() => {
    keyboard.shell.current = (input, key) => dispatchKey(shell, store, deps, input, key);
    const typing = () => keyboard.textFields.size > 0;
    keyboard.scan.current = (code) => dispatchScan(shell, store, deps, code, typing());
    keyboard.bursts.current = () => burstRoute(shell.screens, store.getState(), typing());
    keyboard.held.current = () => keysWait(shell.screens, store.getState());
    // A screen that was loading may be in now: the keys that waited for it go.
    keyboard.release.current?.();
    return () => {
      keyboard.shell.current = undefined;
      keyboard.scan.current = undefined;
      keyboard.bursts.current = undefined;
      keyboard.held.current = undefined;
    };
  }, [keyboard, shell, store, deps]);
}

function OverlayView({ height, width, deps }: { height: number; width: number; deps: CommandDeps }) {
  const overlay = useAppStore((s) => s.overlay);
  switch (overlay.kind) {
    case "none":
      return null;
    case "help":
      return <HelpOverlay height={height} width={width} />;
    case "palette":
      return <CommandPalette height={height} width={width} deps={deps} />;
    case "locations":
      return <LocationPicker height={height} />;
    case "confirm":
      // A new question starts with its own highlighted answer.
      return <Confirm key={overlay.question.message} question={overlay.question} width={width} />;
    default:
      return assertNever(overlay);
  }
}

function TooSmall({ columns, rows }: { columns: number; rows: number }) {
  const store = useAppStoreApi();
  useKeys(
    (input) => {
      if (input === "q") store.getState().quit();
      return true;
    },
    { isActive: true },
  );
  // Short lines: this is read on terminals as small as a few cells.
  return (
    <Box flexDirection="column">
      <Txt bold wrap="truncate-end">
        Too small: {columns}×{rows}
      </Txt>
      <Txt wrap="truncate-end">
        Need {MIN_COLUMNS}×{MIN_ROWS}.
      </Txt>
      <Txt wrap="truncate-end">Enlarge, or q quits.</Txt>
    </Box>
  );
}
