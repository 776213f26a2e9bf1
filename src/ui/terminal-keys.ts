// Reading what a terminal sends: where one key ends in a chunk of them (escape sequences whole,
// Enter, control characters, one character or a run of text), and which sequences name a key.

const ESC = "\u001b";

/**
 * The next key of `text`: an escape sequence, Enter (`\r\n` is one), a control character, and
 * otherwise one character — or, when `run` is set, the whole run of printable text (a paste).
 */
export function nextKey(text: string, run: boolean): string {
  const first = text[0];
  if (first === undefined) return "";
  if (first === ESC) return escapeSequence(text);
  if (first === "\r") return text[1] === "\n" ? "\r\n" : "\r";
  if (isControl(first)) return first;
  if (!run) return String.fromCodePoint(text.codePointAt(0) ?? 0);
  let end = 0;
  while (end < text.length && !isControl(text[end] ?? "") && text[end] !== ESC) end++;
  return text.slice(0, end);
}

// Escape sequences that name a key Ink knows: arrows, Home/End, F1–F4 and shift+Tab (CSI or SS3,
// with modifiers), the `~` keys (Insert, Delete, Page Up/Down, F5–F12), kitty's `u` keys, and
// meta+character. Anything else — a pasted colour code, a clear-screen — names no key, and Ink 6
// crashes on some of them (a CSI with a modifier and an unknown final byte leaves the key nameless).
// The pattern reads what follows the escape (or two, for meta).
const KNOWN_KEY_TAIL =
  /^(?:\[(?:\d+(?:;\d+)?)?[A-DFHPQRSZ]|O[A-DFHPQRS]|\[(?:[1-9]|1[0-9]|2[0-9]|3[0-4])(?:;\d+)?~|\[\d+(?:;\d+(?::\d+)?)?(?:;[\d:]+)?u|[^[O]?)$/u;

/** Whether Ink can take this key: any key but an escape sequence that names no key. */
export function isKnownKey(key: string): boolean {
  if (!key.startsWith(ESC)) return true;
  const tail = key.startsWith(ESC + ESC) ? key.slice(2) : key.slice(1);
  return !tail.startsWith(ESC) && KNOWN_KEY_TAIL.test(tail);
}

/** Splits a chunk into the keys it holds, one character per key outside escape sequences. */
export function splitKeys(text: string): string[] {
  const keys: string[] = [];
  let rest = text;
  while (rest.length > 0) {
    const key = nextKey(rest, false);
    keys.push(key);
    rest = rest.slice(key.length);
  }
  return keys;
}

/** Whether a character is a control character (below space, or DEL). */
export function isControl(c: string): boolean {
  const code = c.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
}

/** `ESC [ … final`, `ESC O x`, `ESC ESC [ …`/`ESC ESC O x` (meta), ESC and a control key but enter or tab (meta), or a lone ESC. */
function escapeSequence(text: string): string {
  const second = text[1];
  if (second === undefined) return ESC;
  if (second === "[") {
    let i = 2;
    // Legacy function keys: ESC [ [ A.
    if (text[i] === "[") i++;
    while (i < text.length) {
      const code = text.charCodeAt(i);
      if (code >= 0x40 && code <= 0x7e) return text.slice(0, i + 1);
      if (code < 0x20 || code > 0x3f) break;
      i++;
    }
    return text.slice(0, Math.min(i, text.length));
  }
  if (second === "O") return text.slice(0, 3);
  // Two escapes are esc pressed twice (one read when typed fast or sent by tmux), unless a key's
  // sequence follows: ESC ESC [ A and ESC ESC O A are meta+↑ as some terminals send alt+arrow.
  if (second === ESC) return text[2] === "[" || text[2] === "O" ? ESC + escapeSequence(text.slice(1)) : ESC;
  // ESC and a printable character is esc and then that key in one read (`esc`, `6`: leave the
  // field, show the drawers); the app binds no alt+character, which terminals send so. So are
  // ESC and enter, tab or a line feed: as one key (meta+enter) enter would save the form that esc
  // cancelled, or answer yes to the question esc answered no. ESC and another control key stays
  // one (alt+backspace).
  if (!isControl(second) || second === "\r" || second === "\n" || second === "\t") return ESC;
  return text.slice(0, 2);
}
