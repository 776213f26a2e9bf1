import type { Key } from "ink";
import { createContext, type ReactNode, useContext, useRef } from "react";
import type { Command, Scope } from "./keymap.js";
import { useGlobalCommands } from "./shell.js";
import { useCommands } from "./use-commands.js";

type Sink = { current: ((command: Command) => void) | undefined };

const SinkContext = createContext<Sink>({ current: undefined });

/** Gives the shell a handle on the current screen's commands (the palette runs them). */
export function CommandSinkProvider({ sink, children }: { sink: Sink; children: ReactNode }) {
  return <SinkContext.Provider value={sink}>{children}</SinkContext.Provider>;
}

/**
 * A screen's keyboard: global commands first, then the screen's own. The handler is also
 * registered with the shell so that the palette can run the same commands by name.
 */
export function useScreenCommands(
  scopes: readonly Scope[],
  onCommand: (command: Command) => void,
  isActive: boolean,
  onOther?: (input: string, key: Key) => void,
): void {
  const sink = useContext(SinkContext);
  const global = useGlobalCommands();
  const handle = useRef<(command: Command) => void>(() => undefined);
  handle.current = (command) => {
    if (!global(command)) onCommand(command);
  };
  // Like the keyboard, the palette's target is set while rendering, so it is never a step behind.
  if (isActive) sink.current = (command: Command) => handle.current(command);
  useCommands([...scopes, "global"], (c) => handle.current(c), isActive, onOther);
}
