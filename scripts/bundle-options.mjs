// The esbuild settings every bundle of the app shares: the shipped build (scripts/build.mjs) and
// the benchmarks' harnesses must bundle the same way to measure the same.
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

// Ink loads React's devtools only when DEV=true; a bundle would otherwise import the package (not
// installed) at start-up. An empty module stands in for it.
const withoutDevtools = {
  name: "without-react-devtools",
  setup(b) {
    b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: "react-devtools-core", namespace: "empty" }));
    b.onLoad({ filter: /.*/, namespace: "empty" }, () => ({
      contents: "export default { initialize() {}, connectToDevTools() {} };",
    }));
  },
};

/**
 * Replaces each `from` of `edits` in a dependency's source, or fails the build: when a new version
 * no longer has the text, the patch must be reviewed, not quietly dropped.
 */
function applyEdits(file, source, edits) {
  let out = source;
  for (const edit of edits) {
    if (!out.includes(edit.from)) {
      throw new Error(
        `${file} no longer has ${edit.what} (\`${edit.from}\`): review its patch in scripts/bundle-options.mjs`,
      );
    }
    out = out.replace(edit.from, edit.to);
  }
  return out;
}

/** A plugin that rewrites the dependency file matching `filter` with `patch(source)`. */
const sourcePatch = (name, filter, patch) => ({
  name,
  setup(b) {
    b.onLoad({ filter }, async (args) => ({
      contents: patch(await readFile(args.path, "utf8")),
      loader: "js",
      resolveDir: dirname(args.path),
    }));
  },
});

/**
 * Ink draws every frame from scratch, and two steps of its output (ink/build/output.js) cost most
 * of a frame. The bundle changes both; test/bundle.test.ts checks that every frame stays the same.
 * - Its caches of styled characters and widths live for one frame; here they live for the process,
 *   in src/ui/recent-map.ts's two-generation maps, so a key press re-reads only the rows that
 *   changed and what scrolled away is forgotten. Bounded by lines, not bytes: a line's styled cells
 *   are about 4 KB, so OUTPUT_LINES lines per generation hold at most a few MB.
 * - Each line is turned back into a string by a diff of styles between every pair of cells; here
 *   src/ui/styled-line.ts skips neighbours of the same style (nearly all) and writes the same bytes.
 *   Its cells are made there too, smaller (one shape, one styles list per run of a style).
 * - Each frame starts from a grid of new blank cells (3,000 objects at 100×30); here every blank
 *   cell is one shared, frozen object.
 * Measured on the review list of 10,000 shifts (scripts/bench-ui.mjs): key press to frame p50
 * 12.7 ms before, 7.7 ms with the caches, 6.8 ms with both.
 */
export const OUTPUT_LINES = 128;
/** Entries per generation of the caches of single characters' widths and of text measures. */
export const CACHE_LIMIT = 2048;
const styledLine = resolve(root, "src/ui/styled-line.ts");
const recentMap = resolve(root, "src/ui/recent-map.ts");
export function patchInkOutput(source) {
  const out = applyEdits("ink/build/output.js", source, [
    {
      what: "the caches made for each frame",
      from: "caches = new OutputCaches();",
      to: "caches = sharedOutputCaches();",
    },
    {
      what: "the blank cell made for each cell of each frame",
      from: `row.push({
                    type: 'char',
                    value: ' ',
                    fullWidth: false,
                    styles: [],
                });`,
      // Cells are only read once written (the cached styled characters are shared the same way).
      to: "row.push(BACKROOM_BLANK_CELL);",
    },
    {
      what: "the styled cells made from a line",
      from: "cached = styledCharsFromTokens(tokenize(line));",
      to: "cached = backroomStyledChars(tokenize(line));",
    },
    {
      what: "the line written from its styled cells",
      from: "return styledCharsToString(lineWithoutEmptyItems).trimEnd();",
      to: "return backroomStyledLine(lineWithoutEmptyItems).trimEnd();",
    },
  ]);
  return `import { styledCharsOf as backroomStyledChars, styledLineToString as backroomStyledLine } from ${JSON.stringify(styledLine)};
import { RecentMap as BackroomRecentMap } from ${JSON.stringify(recentMap)};
${out}
const BACKROOM_BLANK_CELL = Object.freeze({ type: "char", value: " ", fullWidth: false, styles: Object.freeze([]) });
let backroomOutputCaches;
function sharedOutputCaches() {
  if (!backroomOutputCaches) {
    backroomOutputCaches = new OutputCaches();
    backroomOutputCaches.styledChars = new BackroomRecentMap(${OUTPUT_LINES});
    backroomOutputCaches.blockWidths = new BackroomRecentMap(${OUTPUT_LINES});
    backroomOutputCaches.widths = new BackroomRecentMap(${CACHE_LIMIT});
  }
  return backroomOutputCaches;
}
`;
}

/**
 * Ink measures each text node's width twice a frame: once for layout, through a cache that is
 * never emptied (ink/build/measure-text.js), and once more to draw it, uncached
 * (ink/build/render-node-to-output.js). A line with any character past ASCII (–, ·, │, an accented
 * name) is measured by splitting it into graphemes, which allocates an object per character: on
 * the review list, 2.5 MB of garbage a key press. Here drawing uses the layout's measure, and that
 * cache is a RecentMap like the output's, so scrolling through thousands of rows does not keep
 * every row's text for the life of the process.
 */
export function patchInkMeasureText(source) {
  const out = applyEdits("ink/build/measure-text.js", source, [
    {
      what: "the cache that is never emptied",
      from: "const cache = new Map();",
      to: `const cache = new BackroomRecentMap(${CACHE_LIMIT});`,
    },
  ]);
  return `import { RecentMap as BackroomRecentMap } from ${JSON.stringify(recentMap)};
${out}`;
}

/** Drawing takes a text node's width from the layout's measure (see {@link patchInkMeasureText}). */
export function patchInkRenderNode(source) {
  const out = applyEdits("ink/build/render-node-to-output.js", source, [
    {
      what: "the width of a text node measured again to draw it",
      from: "const currentWidth = widestLine(text);",
      to: "const currentWidth = backroomMeasureText(text).width;",
    },
  ]);
  return `import backroomMeasureText from "./measure-text.js";
${out}`;
}

/**
 * Ink's layout engine (yoga-layout) carries its WebAssembly as a base64 data: URL and, wherever a
 * global `fetch` exists, reads it with fetch. In Node that loads Node's whole HTTP client (its
 * internal undici) to decode one string: about 25 ms of every start, before the first frame. The
 * loader has its own path that decodes the string directly (it takes it where fetch is missing);
 * the bundle always takes that one. Same bytes, same module.
 */
export function patchYogaLoader(source) {
  return applyEdits("yoga-layout/dist/binaries/yoga-wasm-base64-esm.js", source, [
    {
      what: "the fetch of the embedded WebAssembly",
      from: 'return w||"function"!=typeof fetch?Promise.resolve()',
      to: "return w||!0?Promise.resolve()",
    },
  ]);
}

/** The app's patches to Ink and its layout engine, by plugin name (the benchmarks leave them out of
 * Ink's own hello world, and the tests compare with and without them). */
export const INK_PATCHES = ["faster-ink-output", "ink-measure-once", "ink-draw-measured", "yoga-without-fetch"];
const inkPatches = [
  sourcePatch("faster-ink-output", /[\\/]ink[\\/]build[\\/]output\.js$/, patchInkOutput),
  sourcePatch("ink-measure-once", /[\\/]ink[\\/]build[\\/]measure-text\.js$/, patchInkMeasureText),
  sourcePatch("ink-draw-measured", /[\\/]ink[\\/]build[\\/]render-node-to-output\.js$/, patchInkRenderNode),
  sourcePatch(
    "yoga-without-fetch",
    /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/,
    patchYogaLoader,
  ),
];

/** Node ESM, React's production build, native and optional packages left to node_modules. */
export const bundleOptions = {
  absWorkingDir: root,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  jsx: "automatic",
  external: ["better-sqlite3", "keytar"],
  plugins: [withoutDevtools, ...inkPatches],
  banner: {
    // Bundled CommonJS dependencies call require(); give them one in ESM.
    js: "import { createRequire as __backroomCreateRequire } from 'node:module'; const require = __backroomCreateRequire(import.meta.url);",
  },
  define: { "process.env.NODE_ENV": '"production"' },
  logLevel: "warning",
};

/** The same bundling with Ink and yoga-layout as published: the baseline of Ink's own hello world. */
export const publishedInkOptions = { ...bundleOptions, plugins: [withoutDevtools] };
