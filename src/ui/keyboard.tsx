import { type Key, useInput, useStdin } from "ink";
import { createContext, type ReactNode, useContext, useEffect, useLayoutEffect, useRef } from "react";

/** The handler that owns the keyboard now, with a token naming its component. */
export interface KeyboardOwner {
  owner: object;
  handle: (input: string, key: Key) => void;
}

type Slot = { current: KeyboardOwner | undefined };

/** The keyboard's state, shared by the listener, the key stream and the parts that own keys. */
export interface Keyboard {
  slot: Slot;
  /** Text fields that have the keyboard now (the key stream then passes pastes whole). */
  textFields: Set<object>;
  /**
   * The focused text field's handler of line-editing control keys (ctrl+u clears, ctrl+w deletes a
   * word): ink-text-input would insert the letter instead. Returns whether it took the key.
   */
  textControl: ((key: string) => boolean) | undefined;
}

/** A keyboard; `renderApp` makes one and shares it with the key stream. */
export function createKeyboard(): Keyboard {
  return { slot: { current: undefined }, textFields: new Set(), textControl: undefined };
}

const KeyboardContext = createContext<Keyboard | undefined>(undefined);

/**
 * The app's one keyboard listener for commands. The part of the screen that owns the keyboard
 * registers itself while rendering, so its handler always sees the state on screen. Keys arrive
 * one by one, each after the previous key's render has settled (the key stream sees to that):
 * `:` then `b` a millisecond later reaches the palette the first key opened.
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
      // ctrl+c always quits at once, whoever owns the keyboard.
      if (key.ctrl && input === "c") {
        onCtrlC();
        return;
      }
      keyboard.slot.current?.handle(input, key);
    },
    // Without a TTY there is no raw mode (the app refuses to start without one; tests have one).
    { isActive: isRawModeSupported },
  );
  return <KeyboardContext.Provider value={keyboard}>{children}</KeyboardContext.Provider>;
}

/** The keyboard, for {@link useKeys} and text fields. */
export function useKeyboard(): Keyboard {
  const kb = useContext(KeyboardContext);
  if (!kb) throw new Error("useKeyboard outside <KeyboardProvider>");
  return kb;
}

/**
 * Takes the keyboard while `isActive` (only one part of the screen passes true at a time) and
 * hands it every key. Command handling builds on it (`useCommands`); dialogs and pickers use it
 * directly for their raw keys.
 */
export function useKeys(handler: (input: string, key: Key) => void, { isActive }: { isActive: boolean }): void {
  const kb = useKeyboard();
  const slot = kb.slot;
  const owner = useRef({}).current;
  if (isActive) {
    // Registered during render with this render's handler, so it always sees fresh state.
    slot.current = { owner, handle: handler };
  }
  useEffect(() => {
    if (!isActive) return;
    return () => {
      if (slot.current?.owner === owner) slot.current = undefined;
    };
  }, [isActive, slot, owner]);
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
  control.current = onControl;
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
