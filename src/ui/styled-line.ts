// A faster drop-in for ansi-tokenize's `styledCharsToString`, which Ink calls for every line of
// every frame. The library works out the codes between each pair of neighbouring cells by building
// sets, even when both cells have the same style (nearly always: a row has a few colour runs and
// many cells). Here neighbours whose styles hold the same codes in the same order add nothing, and
// only a real change goes to the library's own diff, so the string is the same, byte for byte.
// The bundle puts it in Ink's output (scripts/bundle-options.mjs); styled-line.test.ts checks that
// it writes what the library writes.
import { type AnsiCode, ansiCodesToString, diffAnsiCodes, type StyledChar } from "@alcalzone/ansi-tokenize";

function sameCodes(a: readonly AnsiCode[], b: readonly AnsiCode[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]?.code !== b[i]?.code || a[i]?.endCode !== b[i]?.endCode) return false;
  return true;
}

const NONE: AnsiCode[] = [];

/** The cells of one line as a string with the fewest codes between them, as ansi-tokenize writes it. */
export function styledLineToString(chars: readonly StyledChar[]): string {
  let out = "";
  let previous: AnsiCode[] | undefined;
  for (const char of chars) {
    if (previous === undefined) out += ansiCodesToString(char.styles);
    else if (!sameCodes(previous, char.styles)) out += ansiCodesToString(diffAnsiCodes(previous, char.styles));
    out += char.value;
    previous = char.styles;
  }
  if (previous !== undefined && previous.length > 0) out += ansiCodesToString(diffAnsiCodes(previous, NONE));
  return out;
}
