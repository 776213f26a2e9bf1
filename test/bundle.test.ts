// The shipped bundle patches Ink to keep its output caches between frames (scripts/bundle-options.mjs).
// These tests build the same little app with and without the patch and compare every frame, so an
// Ink upgrade that changes what the caches hold fails here, not on a manager's screen.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { bundleOptions, shareOutputCaches } from "../scripts/bundle-options.mjs";

const root = resolve(import.meta.dirname, "..");
const dir = mkdtempSync(join(tmpdir(), "backroom-bundle-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A list whose cursor moves, with colours, wide characters, an emoji and a line cut with …; every
// frame is collected from a fake terminal.
const APP = `
import { EventEmitter } from "node:events";
import { Box, Text, render } from "ink";
import { createElement as h } from "react";
const rows = ["Priya Natarajan", "Tomás Ortega", "王小明 (front)", "Mei Chen 🍵", "A name much longer than the column it sits in"];
const View = ({ cursor, extra }) =>
  h(Box, { flexDirection: "column", width: 40 },
    h(Text, { bold: true, color: "cyan" }, "Who is here · " + rows.length),
    ...rows.map((r, i) => h(Text, { key: r, wrap: "truncate-end", inverse: i === cursor },
      h(Text, { color: i === cursor ? "green" : undefined }, i === cursor ? "›" : " "), " ", r)),
    h(Text, { dimColor: true }, extra));
export function frames() {
  const out = [];
  const stdout = Object.assign(new EventEmitter(), { columns: 40, rows: 20, isTTY: false, write: (s) => { out.push(String(s)); return true; } });
  const app = render(h(View, { cursor: 0, extra: "" }), { stdout, debug: true, patchConsole: false });
  for (const [cursor, extra] of [[1, ""], [2, "saved"], [3, "saved"], [4, "a change made elsewhere"], [0, ""], [1, ""]]) {
    app.rerender(h(View, { cursor, extra }));
  }
  app.unmount();
  return out;
}
`;

async function bundleApp(name: string, patched: boolean): Promise<{ file: string; frames: () => string[] }> {
  const file = join(dir, name);
  const plugins = (bundleOptions.plugins ?? []).filter((p) => patched || p.name !== "shared-ink-output-caches");
  await build({ ...bundleOptions, plugins, stdin: { contents: APP, resolveDir: root, loader: "js" }, outfile: file });
  return { file, ...(await import(pathToFileURL(file).href)) };
}

describe("Ink's output caches kept between frames", () => {
  it("draws every frame exactly as Ink does without the patch", async () => {
    const plain = await bundleApp("plain.mjs", false);
    const shared = await bundleApp("shared.mjs", true);
    expect(readFileSync(shared.file, "utf8")).toContain("sharedOutputCaches()");
    expect(readFileSync(plain.file, "utf8")).not.toContain("sharedOutputCaches()");
    const expected = plain.frames();
    expect(expected.length).toBeGreaterThan(5);
    expect(expected.join("\n")).toContain("Tomás Ortega");
    expect(shared.frames()).toEqual(expected);
    // Twice: the second run starts with caches the first one filled.
    expect(shared.frames()).toEqual(expected);
  });

  it("refuses to build when Ink's source no longer has the line it replaces", () => {
    expect(() => shareOutputCaches("export default class Output {}")).toThrow(/shared-cache patch/);
    const source = readFileSync(join(root, "node_modules/ink/build/output.js"), "utf8");
    expect(shareOutputCaches(source)).toContain("caches = sharedOutputCaches();");
  });
});
