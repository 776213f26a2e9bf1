import { Box, useApp, useStdout } from "ink";
import { useEffect, useRef, useState } from "react";
import { type AppStore, type Screen, StoreProvider, useAppStore, useAppStoreApi } from "../state/index.js";
import { CommandPalette } from "./components/CommandPalette.js";
import { ConfirmDialog } from "./components/ConfirmDialog.js";
import { Header } from "./components/Header.js";
import { HelpOverlay } from "./components/HelpOverlay.js";
import { LocationPicker } from "./components/LocationPicker.js";
import { StatusBar } from "./components/StatusBar.js";
import { Txt } from "./components/Txt.js";
import { KeyboardProvider } from "./keyboard.js";
import type { Command, Scope } from "./keymap.js";
import { CommandSinkProvider } from "./screen-commands.js";
import { BreakTypesScreen } from "./screens/break-types/BreakTypesScreen.js";
import { ReviewScreen } from "./screens/review/ReviewScreen.js";
import { TimeClockScreen } from "./screens/timeclock/TimeClockScreen.js";
import { makeTheme, ThemeProvider } from "./theme.js";
import { useCommands } from "./use-commands.js";

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

/** The app with its providers: what `runApp` renders and what tests render. */
export function AppRoot({
  store,
  color = true,
  onFirstFrame,
}: {
  store: AppStore;
  color?: boolean;
  /** Called once the first frame has been written. */
  onFirstFrame?: () => void;
}) {
  return (
    <StoreProvider store={store}>
      <ThemeProvider theme={makeTheme(color)}>
        <KeyboardProvider onCtrlC={() => store.getState().quit()}>
          <App {...(onFirstFrame ? { onFirstFrame } : {})} />
        </KeyboardProvider>
      </ThemeProvider>
    </StoreProvider>
  );
}

/** The scopes of keys that apply on a screen, for help and hints. */
function scopesOf(screen: Screen): Scope[] {
  switch (screen.kind) {
    case "timeclock":
      return ["timeclock", "global", "list"];
    case "review":
      return ["review", "global", "list"];
    case "break-types":
      return ["break-types", "global", "list"];
    default:
      return assertNever(screen);
  }
}

/** The shell: header, the current screen, overlays, and the status bar. */
export function App({ onFirstFrame }: { onFirstFrame?: () => void } = {}) {
  const store = useAppStoreApi();
  const { exit } = useApp();
  const { columns, rows } = useTerminalSize();
  const screen = useAppStore((s) => s.screen);
  const overlay = useAppStore((s) => s.overlay);
  const exited = useAppStore((s) => s.exited);
  const sink = useRef<((command: Command) => void) | undefined>(undefined);

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, after the first commit.
  useEffect(() => {
    // Effects run after Ink has written the committed frame: this is the first frame on screen.
    onFirstFrame?.();
  }, []);
  useEffect(() => {
    void store.getState().init();
    const timer = setInterval(() => store.getState().tick(), 1000);
    return () => clearInterval(timer);
  }, [store]);
  useEffect(() => {
    if (exited) exit();
  }, [exited, exit]);

  if (columns < MIN_COLUMNS || rows < MIN_ROWS) {
    return <TooSmall columns={columns} rows={rows} />;
  }
  // One row spare: a frame as tall as the terminal makes Ink clear and redraw the whole screen.
  const height = rows - 1;
  const bodyHeight = height - 2 - 2;
  const active = overlay.kind === "none";
  const scopes = scopesOf(screen);
  const props = { active, height: bodyHeight, width: columns };
  let body: React.ReactNode;
  switch (screen.kind) {
    case "timeclock":
      body = <TimeClockScreen {...props} />;
      break;
    case "review":
      body = <ReviewScreen {...props} />;
      break;
    case "break-types":
      body = <BreakTypesScreen {...props} />;
      break;
    default:
      body = assertNever(screen);
  }
  return (
    <CommandSinkProvider sink={sink}>
      <Box flexDirection="column" width={columns} height={height}>
        <Header width={columns} />
        <Box flexDirection="column" height={bodyHeight} overflow="hidden">
          {/* Yoga would squeeze boxes taller than the body onto each other; cut them off instead. */}
          <Box flexShrink={0} flexDirection="column">
            <OverlayView overlay={overlay} scopes={scopes} height={bodyHeight} onRun={(c) => sink.current?.(c)} />
          </Box>
          <Box flexShrink={0} flexDirection="column">
            {body}
          </Box>
        </Box>
        <StatusBar scopes={scopes} width={columns} />
      </Box>
    </CommandSinkProvider>
  );
}

function OverlayView({
  overlay,
  scopes,
  height,
  onRun,
}: {
  overlay: ReturnType<AppStore["getState"]>["overlay"];
  scopes: Scope[];
  height: number;
  onRun: (command: Command) => void;
}) {
  const store = useAppStoreApi();
  switch (overlay.kind) {
    case "none":
      return null;
    case "help":
      return <HelpOverlay scopes={scopes} height={height} />;
    case "palette":
      return <CommandPalette onRun={onRun} />;
    case "locations":
      return <LocationPicker height={height} />;
    case "confirm-quit":
      return (
        <ConfirmDialog
          message={`${overlay.reason} Quit anyway?`}
          onYes={() => store.getState().quit()}
          onNo={() => store.getState().closeOverlay()}
        />
      );
    case "confirm":
      return (
        <ConfirmDialog
          message={overlay.message}
          onYes={() => {
            store.getState().closeOverlay();
            void overlay.onYes();
          }}
          onNo={() => store.getState().closeOverlay()}
        />
      );
    default:
      return assertNever(overlay);
  }
}

function TooSmall({ columns, rows }: { columns: number; rows: number }) {
  const store = useAppStoreApi();
  useCommands(
    ["global"],
    (c) => {
      if (c === "quit" || c === "forceQuit") store.getState().quit();
    },
    true,
  );
  return (
    <Box flexDirection="column">
      <Txt bold>The terminal is too small.</Txt>
      <Txt>
        backroom needs at least {MIN_COLUMNS}×{MIN_ROWS}; this one is {columns}×{rows}. Enlarge the window, or press q
        to quit.
      </Txt>
    </Box>
  );
}
