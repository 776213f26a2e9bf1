import { type Key, useInput, useStdin } from "ink";
import { createContext, type ReactNode, useContext, useEffect, useLayoutEffect, useRef } from "react";
import { useAppStore, useAppStoreApi } from "../state/index.js";

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
  /** Keys that arrived while the previous key's effect was not yet on screen. */
  queue: { input: string; key: Key }[];
  /** A key (or store change) was handled and React has not committed its result yet. */
  behind: boolean;
  timer: NodeJS.Timeout | undefined;
  /** Hands queued keys over, one per commit; called after each commit of the owner. */
  drain(): void;
  /** Handles one key now and waits for its frame before the next. */
  dispatch(input: string, key: Key): void;
}

// A key that changes nothing on screen never gets a commit; do not wait longer than this for one.
const COMMIT_WAIT_MS = 25;

/** A keyboard; `renderApp` makes one and shares it with the key stream. */
export function createKeyboard(): Keyboard {
  const kb: Keyboard = {
    slot: { current: undefined },
    textFields: new Set(),
    textControl: undefined,
    queue: [],
    behind: false,
    timer: undefined,
    drain() {
      kb.behind = false;
      if (kb.timer) clearTimeout(kb.timer);
      kb.timer = undefined;
      const next = kb.queue.shift();
      if (next) kb.dispatch(next.input, next.key);
    },
    dispatch(input, key) {
      kb.behind = true;
      if (kb.timer) clearTimeout(kb.timer);
      kb.timer = setTimeout(() => kb.drain(), COMMIT_WAIT_MS);
      kb.slot.current?.handle(input, key);
    },
  };
  return kb;
}

const KeyboardContext = createContext<Keyboard | undefined>(undefined);

/**
 * The app's one keyboard listener for commands. The part of the screen that owns the keyboard
 * registers itself while rendering. Keys reach it one by one (the key stream splits chunks), and
 * each waits for the previous key's result to be on screen: `:` then `b` a millisecond later
 * reaches the palette the first key opened, with the palette's fresh state.
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
  const store = useAppStoreApi();
  const { isRawModeSupported } = useStdin();
  useEffect(
    () =>
      store.subscribe(() => {
        keyboard.behind = true;
      }),
    [store, keyboard],
  );
  useEffect(() => () => clearTimeout(keyboard.timer), [keyboard]);
  useInput(
    (input, key) => {
      // ctrl+c always quits at once, whoever owns the keyboard.
      if (key.ctrl && input === "c") {
        onCtrlC();
        return;
      }
      if (keyboard.behind || keyboard.queue.length > 0) keyboard.queue.push({ input, key });
      else keyboard.dispatch(input, key);
    },
    // Without a TTY there is no raw mode (the app refuses to start without one; tests have one).
    { isActive: isRawModeSupported },
  );
  return (
    <KeyboardContext.Provider value={keyboard}>
      {children}
      <CommitProbe kb={keyboard} />
    </KeyboardContext.Provider>
  );
}

/** Re-renders on every store change; its layout effect marks the change as on screen. */
function CommitProbe({ kb }: { kb: Keyboard }) {
  useAppStore((s) => s);
  useLayoutEffect(() => {
    kb.drain();
  });
  return null;
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
  // This part's commit shows the last key's result: the next queued key may go.
  useLayoutEffect(() => {
    if (isActive) kb.drain();
  });
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
  const kb = useKeyboard();
  const token = useRef({}).current;
  const control = useRef(onControl);
  control.current = onControl;
  useLayoutEffect(() => {
    if (!focus) return;
    kb.textFields.add(token);
    const handler = (key: string) => control.current(key);
    kb.textControl = handler;
    return () => {
      kb.textFields.delete(token);
      if (kb.textControl === handler) kb.textControl = undefined;
    };
  }, [focus, kb, token]);
}
