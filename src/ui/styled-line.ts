// Faster drop-ins for two of ansi-tokenize's functions that Ink calls for every line it draws.
// `styledCharsToString`: The library works out the codes between each pair of neighbouring cells by building
// sets, even when both cells have the same style (nearly always: a row has a few colour runs and
// many cells). Here neighbours whose styles hold the same codes in the same order add nothing, and
// only a real change goes to the library's own diff, so the string is the same, byte for byte.
// `styledCharsFromTokens`: see styledCharsOf.
// The bundle puts both in Ink's output (scripts/bundle-options.mjs); styled-line.test.ts checks
// that they give what the library gives.
import {
  type AnsiCode,
  ansiCodesToString,
  diffAnsiCodes,
  reduceAnsiCodesIncremental,
  type StyledChar,
  type Token,
} from "@alcalzone/ansi-tokenize";

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

/**
 * The styled cells of a tokenized line, equal to ansi-tokenize's `styledCharsFromTokens`. The
 * library copies each character token with a spread and gives each cell its own copy of the
 * styles; V8 then gives many cells a hidden class of their own (about 150 bytes more each, seen in
 * heap snapshots of the review list). Here every cell is built with one shape, and a run of cells
 * in one style shares one styles list (never changed: each style change makes a new list).
 */
export function styledCharsOf(tokens: readonly Token[]): StyledChar[] {
  let codes: AnsiCode[] = [];
  const out: StyledChar[] = [];
  for (const token of tokens) {
    if (token.type === "ansi") codes = reduceAnsiCodesIncremental(codes, [token]);
    else if (token.type === "char")
      out.push({ type: "char", value: token.value, fullWidth: token.fullWidth, styles: codes });
  }
  return out;
}
