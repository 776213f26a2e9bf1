import { type Key, useInput, useStdin } from "ink";
import { createContext, type ReactNode, useContext, useLayoutEffect, useRef } from "react";
import type { BurstRoute } from "./key-stream.js";

/** A widget's key handler: returns whether it took the key (else the shell's keys apply). */
export type KeyHandler = (input: string, key: Key) => boolean;

/** The keyboard's state, shared by the one listener, the key stream and the parts that own keys. */
export interface Keyboard {
  /** Widgets that asked for the keys, in the order they did; the last one has them. */
  widgets: { owner: object; handle: KeyHandler }[];
  /** The shell's router for keys no widget took (src/ui/shell.tsx `dispatchKey`). */
  shell: { current: ((input: string, key: Key) => void) | undefined };
  /**
   * The shell's router for scans (`dispatchScan`); the key stream calls it. It returns false when
   * the keys are where a burst is typed text (the stream then hands the code over as keys).
   */
  scan: { current: ((code: string) => boolean) | undefined };
  /** Where a burst goes now (`burstRoute` in src/ui/shell.tsx); the key stream asks at each read. */
  bursts: { current: (() => BurstRoute) | undefined };
  /** Text fields that have the keyboard now (the key stream then passes pastes whole). */
  textFields: Set<object>;
  /**
   * The focused text field's handler of line-editing control keys (ctrl+u clears, ctrl+w deletes a
   * word): ink-text-input would insert the letter instead. Returns whether it took the key.
   */
  textControl: ((key: string) => boolean) | undefined;
  /** Whether keys wait now (the screen they are for is still loading); the key stream asks before each. */
  held: { current: (() => boolean) | undefined };
  /** Lets the keys that waited go (the key stream's `release`), once the screen is in. */
  release: { current: (() => void) | undefined };
}

/** A keyboard; `renderApp` makes one and shares it with the key stream. */
export function createKeyboard(): Keyboard {
  return {
    widgets: [],
    shell: { current: undefined },
    scan: { current: undefined },
    bursts: { current: undefined },
    textFields: new Set(),
    textControl: undefined,
    held: { current: undefined },
    release: { current: undefined },
  };
}

const KeyboardContext = createContext<Keyboard | undefined>(undefined);

/**
 * The app's one keyboard listener. ctrl+c quits whoever has the keys; then the widget that has
 * the keys (a form, a picker, an overlay) gets the key; what it does not take goes to the shell,
 * which routes it by the focus rules. Keys arrive one by one, each after the previous key's render
 * has settled (the key stream sees to that): `:` then `b` a millisecond later reaches the palette
 * the first key opened.
 */
export function KeyboardProvider({
  children,
  onCtrlC,
  keyboard: given,
}: {
  children: ReactNode;
  onCtrlC: () => void;
  keyboard?: Keyboard;
}) {
  const kb = useRef<Keyboard | undefined>(given);
  kb.current ??= createKeyboard();
  const keyboard = kb.current;
  const { isRawModeSupported } = useStdin();
  useInput(
    (input, key) => {
      if (key.ctrl && input === "c") {
        onCtrlC();
        return;
      }
      const widget = keyboard.widgets[keyboard.widgets.length - 1];
      if (widget?.handle(input, key)) return;
      keyboard.shell.current?.(input, key);
    },
    // Without a TTY there is no raw mode (the app refuses to start without one; tests have one).
    { isActive: isRawModeSupported },
  );
  return <KeyboardContext.Provider value={keyboard}>{children}</KeyboardContext.Provider>;
}

/** The keyboard, for widgets, text fields and the shell. */
export function useKeyboard(): Keyboard {
  const kb = useContext(KeyboardContext);
  if (!kb) throw new Error("useKeyboard outside <KeyboardProvider>");
  return kb;
}

/**
 * Gives a widget (a form, a picker, an overlay) the keys while `isActive` — only the place that
 * has the focus passes true. The handler returns whether it took a key; the rest go to the shell.
 * It is registered after each commit, so it always sees the state on screen.
 */
export function useKeys(handler: KeyHandler, { isActive }: { isActive: boolean }): void {
  const kb = useKeyboard();
  const owner = useRef({}).current;
  const latest = useRef(handler);
  useLayoutEffect(() => {
    latest.current = handler;
  });
  useLayoutEffect(() => {
    if (!isActive) return;
    const widgets = kb.widgets;
    widgets.push({ owner, handle: (input, key) => latest.current(input, key) });
    return () => {
      const at = widgets.findIndex((w) => w.owner === owner);
      if (at >= 0) widgets.splice(at, 1);
    };
  }, [isActive, kb, owner]);
}

/**
 * Marks a text field as having the keyboard while `focus` is true (pastes then arrive whole), and
 * gives it the line-editing control keys.
 */
export function useTextFocus(focus: boolean, onControl: (key: string) => boolean): void {
  // A field outside the app (the sign-in prompt) has no keyboard to tell.
  const kb = useContext(KeyboardContext);
  const token = useRef({}).current;
  const control = useRef(onControl);
  useLayoutEffect(() => {
    control.current = onControl;
  });
  useLayoutEffect(() => {
    if (!focus || !kb) return;
    kb.textFields.add(token);
    const handler = (key: string) => control.current(key);
    kb.textControl = handler;
    return () => {
      kb.textFields.delete(token);
      if (kb.textControl === handler) kb.textControl = undefined;
    };
  }, [focus, kb, token]);
}
