import { type Key, useInput, useStdin } from "ink";
import { createContext, type ReactNode, useContext, useEffect, useLayoutEffect, useRef } from "react";
import { useAppStore, useAppStoreApi } from "../state/index.js";

/** The handler that owns the keyboard now, with a token naming its component. */
export interface KeyboardOwner {
  owner: object;
  handle: (input: string, key: Key) => void;
}

type Slot = { current: KeyboardOwner | undefined };

/** The keyboard's state, shared by the listener and the parts of the screen that own it. */
export interface Keyboard {
  slot: Slot;
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

function createKeyboard(): Keyboard {
  const kb: Keyboard = {
    slot: { current: undefined },
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
 * The app's one keyboard listener. The part of the screen that owns the keyboard registers
 * itself while rendering. Keys are handed over one per commit: a key typed before the previous
 * key's result is on screen (a fast typist, a paste: `:` then `b` a millisecond later)
 * waits for it, so it reaches the panel the first key opened, with that panel's fresh state.
 */
export function KeyboardProvider({ children, onCtrlC }: { children: ReactNode; onCtrlC: () => void }) {
  const kb = useRef<Keyboard | undefined>(undefined);
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
      for (const part of splitEnter(input, key)) {
        if (keyboard.behind || keyboard.queue.length > 0) keyboard.queue.push(part);
        else keyboard.dispatch(part.input, part.key);
      }
    },
    // Without a TTY there is no raw mode; the app still renders and quits by signal.
    { isActive: isRawModeSupported },
  );
  return (
    <KeyboardContext.Provider value={keyboard}>
      {children}
      <CommitProbe kb={keyboard} />
    </KeyboardContext.Provider>
  );
}

/**
 * Ink hands over text and a following Enter that arrive together ("Aisha Khan\r", a paste or a
 * fast typist) as one input without `key.return`; split it into the text and a real Enter.
 */
export function splitEnter(input: string, key: Key): { input: string; key: Key }[] {
  if (input.length < 2 || !/[\r\n]/.test(input) || key.ctrl || key.meta) return [{ input, key }];
  const out: { input: string; key: Key }[] = [];
  const parts = input.split(/\r\n|\r|\n/);
  parts.forEach((text, i) => {
    if (text) out.push({ input: text, key });
    if (i < parts.length - 1) out.push({ input: "", key: { ...key, return: true, shift: false } });
  });
  return out;
}

/** Re-renders on every store change; its layout effect marks the change as on screen. */
function CommitProbe({ kb }: { kb: Keyboard }) {
  useAppStore((s) => s);
  useLayoutEffect(() => {
    kb.drain();
  });
  return null;
}

/** The keyboard, for {@link useCommands}. */
export function useKeyboard(): Keyboard {
  const kb = useContext(KeyboardContext);
  if (!kb) throw new Error("useKeyboard outside <KeyboardProvider>");
  return kb;
}
