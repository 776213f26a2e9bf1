import { Box } from "ink";
import { useState } from "react";
import stringWidth from "string-width";
import { useAppStore, useAppStoreApi } from "../../state/index.js";
import { type CommandTable, unavailableReason } from "../commands.js";
import { useKeys } from "../keyboard.js";
import { currentScreen, useShell } from "../shell.js";
import { useTheme } from "../theme.js";
import { wrapLines } from "./columns.js";
import { Txt } from "./Txt.js";

/** One key of the help: its label, what it does, and whether it can run now. */
export interface HelpEntry {
  label: string;
  description: string;
  available: boolean;
}

/** One line of the help as drawn: its text and whether it is dim. */
export interface HelpLine {
  text: string;
  dim: boolean;
}

const LABEL = 11;

/** The help's keys of a table, in table order. */
export function helpEntries(table: CommandTable<string>, available: (name: string) => boolean): HelpEntry[] {
  return Object.entries(table).map(([name, c]) => ({
    label: c.label,
    description: c.description,
    available: available(name),
  }));
}

/**
 * The help laid out in `width` cells: the keys in as many columns as fit (two from 96 cells), each
 * description wrapped under itself, then the note wrapped. Nothing is cut: what does not fit in
 * the rows scrolls.
 */
export function helpLines(entries: readonly HelpEntry[], note: string | undefined, width: number): HelpLine[] {
  const columns = width >= 96 ? 2 : 1;
  const gap = 3;
  const colWidth = Math.floor((width - gap * (columns - 1)) / columns);
  const block = (e: HelpEntry): string[] => {
    const label = e.label.length >= LABEL ? `${e.label} ` : e.label.padEnd(LABEL);
    const first = stringWidth(label);
    const words = wrapLines(e.description, Math.max(8, colWidth - first));
    return words.map((w, i) => (i === 0 ? label : " ".repeat(first)) + w);
  };
  const lines: HelpLine[] = [];
  for (let i = 0; i < entries.length; i += columns) {
    const row = entries.slice(i, i + columns);
    const blocks = row.map(block);
    const height = Math.max(...blocks.map((b) => b.length));
    for (let r = 0; r < height; r++) {
      const text = blocks
        .map((b, ci) => {
          const cell = b[r] ?? "";
          return ci < blocks.length - 1 ? cell + " ".repeat(Math.max(0, colWidth - stringWidth(cell)) + gap) : cell;
        })
        .join("")
        .trimEnd();
      lines.push({ text, dim: row.every((e) => !e.available) });
    }
  }
  if (note) {
    lines.push({ text: "", dim: false });
    for (const l of wrapLines(note, width)) lines.push({ text: l, dim: true });
  }
  return lines;
}

/**
 * Every key of the current screen and the shell, read from their command tables, and the screen's
 * note; dim keys cannot run now. esc, ? or q closes it; j/k and pgup/pgdn scroll when it is longer
 * than the room; the shell's keys (a number, tab, :) still work.
 */
export function HelpOverlay({ height, width }: { height: number; width: number }) {
  const theme = useTheme();
  const store = useAppStoreApi();
  const shell = useShell();
  const readOnly = useAppStore((s) => s.readOnly);
  const [top, setTop] = useState(0);
  const s = store.getState();
  const def = currentScreen(shell.screens, s);
  const available = (table: CommandTable<string>) => (name: string) => {
    const c = table[name];
    return c !== undefined && !unavailableReason(c, s);
  };
  // The number keys are one line: a key and a screen each would fill a short terminal.
  const numbered = shell.screens.filter((d) => d.key);
  const shellEntries = helpEntries(shell.commands, available(shell.commands)).filter(
    (_e, i) => !Object.keys(shell.commands)[i]?.startsWith("show:"),
  );
  const entries = [
    ...(def ? helpEntries(def.commands, available(def.commands)) : []),
    ...shellEntries,
    ...(numbered.length
      ? [
          {
            label: `${numbered[0]?.key}–${numbered.at(-1)?.key}`,
            description: `show a screen: ${numbered.map((d) => `${d.key} ${d.title}`).join(", ")}`,
            available: true,
          },
        ]
      : []),
  ];
  const inner = Math.max(10, width - 4);
  const lines = helpLines(entries, def?.help, inner);
  // Border (2), the title and the closing line.
  const room = Math.max(1, height - 4);
  const maxTop = Math.max(0, lines.length - room);
  const at = Math.min(top, maxTop);
  useKeys(
    (input, key) => {
      if (key.escape || input === "?" || input === "q") store.getState().closeOverlay();
      else if (input === "j" || key.downArrow) setTop(Math.min(maxTop, at + 1));
      else if (input === "k" || key.upArrow) setTop(Math.max(0, at - 1));
      else if (key.pageDown || input === " ") setTop(Math.min(maxTop, at + room));
      else if (key.pageUp) setTop(Math.max(0, at - room));
      else if (input === "g" || key.home) setTop(0);
      else if (input === "G" || key.end) setTop(maxTop);
      else return false;
      return true;
    },
    { isActive: true },
  );
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1} flexShrink={0}>
      <Txt bold wrap="truncate-end">
        {`Keys of the ${def?.title ?? ""} screen${readOnly ? " (read-only: changes disabled)" : ""}`}
      </Txt>
      {lines.slice(at, at + room).map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one text, in order.
        <Txt key={at + i} color={l.dim ? theme.muted : undefined} wrap="truncate-end">
          {l.text || " "}
        </Txt>
      ))}
      <Txt color={theme.muted} wrap="truncate-end">
        {maxTop > 0
          ? `lines ${at + 1}–${Math.min(lines.length, at + room)} of ${lines.length} · j/k g/G scroll · esc or ? closes`
          : "esc or ? closes"}
      </Txt>
    </Box>
  );
}
