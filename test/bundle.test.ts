// The shipped bundle patches Ink's output and yoga-layout's WebAssembly loader
// (scripts/bundle-options.mjs). These tests build one little app with and without the patches and
// compare every frame, so an upgrade that changes what the patches rely on fails here, not on a
// manager's screen.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import {
  bundleOptions,
  patchInkMeasureText,
  patchInkOutput,
  patchInkRenderNode,
  patchYogaLoader,
  publishedInkOptions,
} from "../scripts/bundle-options.mjs";

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

async function bundleApp(
  name: string,
  options: typeof bundleOptions,
): Promise<{ file: string; frames: () => string[] }> {
  const file = join(dir, name);
  await build({ ...options, stdin: { contents: APP, resolveDir: root, loader: "js" }, outfile: file });
  return { file, ...(await import(pathToFileURL(file).href)) };
}

describe("Ink and yoga-layout, patched in the bundle", () => {
  it("draws every frame exactly as Ink as published does", async () => {
    const plain = await bundleApp("plain.mjs", publishedInkOptions);
    const patched = await bundleApp("patched.mjs", bundleOptions);
    const code = readFileSync(patched.file, "utf8");
    expect(code).toContain("sharedOutputCaches()");
    expect(code).toMatch(/styledLineToString\d*\(lineWithoutEmptyItems\)/);
    expect(code).toContain("row.push(BACKROOM_BLANK_CELL)");
    expect(code).toMatch(/const currentWidth = \w+\(text\)\.width;/);
    expect(readFileSync(plain.file, "utf8")).not.toContain("sharedOutputCaches()");
    const expected = plain.frames();
    expect(expected.length).toBeGreaterThan(5);
    expect(expected.join("\n")).toContain("Tomás Ortega");
    expect(patched.frames()).toEqual(expected);
    // Twice: the second run starts with caches the first one filled.
    expect(patched.frames()).toEqual(expected);
  });

  it("starts Ink without loading Node's HTTP client; as published, Ink loads it", async () => {
    const probe = (bundle: string) => {
      const script = join(dir, `probe-${bundle}`);
      writeFileSync(
        script,
        `await import(${JSON.stringify(pathToFileURL(join(dir, bundle)).href)});
process.stdout.write(String(process.moduleLoadList.some((m) => m.includes("undici"))));`,
      );
      return execFileSync(process.execPath, [script], { encoding: "utf8" });
    };
    await bundleApp("plain.mjs", publishedInkOptions);
    await bundleApp("patched.mjs", bundleOptions);
    expect(probe("plain.mjs")).toBe("true");
    expect(probe("patched.mjs")).toBe("false");
  });

  it("refuses to build when a patched file no longer has the text it replaces", () => {
    expect(() => patchInkOutput("export default class Output {}")).toThrow(/review its patch/);
    const output = readFileSync(join(root, "node_modules/ink/build/output.js"), "utf8");
    expect(() => patchInkOutput(output.replace("caches = new OutputCaches();", ""))).toThrow(
      /caches made for each frame/,
    );
    expect(patchInkOutput(output)).toContain("caches = sharedOutputCaches();");
    expect(() => patchInkOutput(output.replace("styles: [],", "styles: [] ,"))).toThrow(/blank cell/);
    const measure = readFileSync(join(root, "node_modules/ink/build/measure-text.js"), "utf8");
    expect(() => patchInkMeasureText(measure.replace("new Map()", "new WeakMap()"))).toThrow(/never emptied/);
    const renderNode = readFileSync(join(root, "node_modules/ink/build/render-node-to-output.js"), "utf8");
    expect(() => patchInkRenderNode(renderNode.replace("widestLine(text)", "w(text)"))).toThrow(/measured again/);
    const yoga = readFileSync(join(root, "node_modules/yoga-layout/dist/binaries/yoga-wasm-base64-esm.js"), "utf8");
    expect(() => patchYogaLoader("export default {}")).toThrow(/fetch of the embedded WebAssembly/);
    expect(patchYogaLoader(yoga)).not.toContain('"function"!=typeof fetch?Promise.resolve()');
  });
});
