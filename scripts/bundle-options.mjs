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
 * - Its caches of styled characters and widths live for one frame; here they live for the process
 *   (bounded: they start over past CACHE_LIMIT entries), so a key press re-reads only the rows that
 *   changed.
 * - Each line is turned back into a string by a diff of styles between every pair of cells; here
 *   src/ui/styled-line.ts skips neighbours of the same style (nearly all) and writes the same bytes.
 * Measured on the review list of 10,000 shifts (scripts/bench-ui.mjs): key press to frame p50
 * 12.7 ms before, 7.7 ms with the caches, 6.8 ms with both.
 */
export const CACHE_LIMIT = 4096;
const styledLine = resolve(root, "src/ui/styled-line.ts");
export function patchInkOutput(source) {
  const out = applyEdits("ink/build/output.js", source, [
    {
      what: "the caches made for each frame",
      from: "caches = new OutputCaches();",
      to: "caches = sharedOutputCaches();",
    },
    {
      what: "the line written from its styled cells",
      from: "return styledCharsToString(lineWithoutEmptyItems).trimEnd();",
      to: "return backroomStyledLine(lineWithoutEmptyItems).trimEnd();",
    },
  ]);
  return `import { styledLineToString as backroomStyledLine } from ${JSON.stringify(styledLine)};
${out}
let backroomOutputCaches;
function sharedOutputCaches() {
  if (!backroomOutputCaches || backroomOutputCaches.styledChars.size + backroomOutputCaches.widths.size > ${CACHE_LIMIT}) {
    backroomOutputCaches = new OutputCaches();
  }
  return backroomOutputCaches;
}
`;
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
export const INK_PATCHES = ["faster-ink-output", "yoga-without-fetch"];
const inkPatches = [
  sourcePatch("faster-ink-output", /[\\/]ink[\\/]build[\\/]output\.js$/, patchInkOutput),
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
