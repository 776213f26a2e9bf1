/**
 * Puts parts on lines of at most `width` cells, `sep` between the parts of a line; a part never
 * breaks, and a part longer than the width gets a line of its own (the line cuts it).
 */
export function wrapParts(parts: readonly string[], width: number, sep = " · "): string[] {
  const lines: string[] = [];
  for (const part of parts) {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + sep.length + part.length <= width)
      lines[lines.length - 1] = last + sep + part;
    else lines.push(part);
  }
  return lines;
}
