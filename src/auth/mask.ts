/** Shows at most the last 4 characters of a secret, so a user can tell tokens apart without leaking one. */
export function maskToken(token: string | null | undefined): string {
  if (!token) return "(none)";
  // Short values would be given away almost whole by their last four characters.
  if (token.length < 12) return "****";
  return `…${token.slice(-4)}`;
}

/**
 * Replaces every occurrence of the given secrets in a text by their masked form. Used on error
 * messages that echo a request or response before they reach the terminal.
 */
export function redact(text: string, secrets: readonly (string | null | undefined)[]): string {
  let out = text;
  for (const s of secrets) {
    if (s && s.length >= 4) out = out.split(s).join(maskToken(s));
  }
  return out;
}
