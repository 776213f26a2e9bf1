// The esbuild settings every bundle of the app shares: the shipped build (scripts/build.mjs) and
// the UI benchmark's harness (scripts/bench-ui.mjs) must bundle the same way to measure the same.
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
 * Ink draws every frame from scratch: its Output class turns each line into styled characters and
 * measures each character, with caches that live for one frame only. Between two frames of a list
 * only the rows that changed differ, so the app keeps those caches for the life of the process
 * (bounded: they start over when they pass CACHE_LIMIT entries). Frames are the same (test/bundle.test.ts
 * compares them); a key press on the review list of 10,000 shifts went from p50 12.7 ms to 7.7 ms.
 * The patch is checked: if Ink's source no longer has the line it replaces, the build fails rather
 * than quietly dropping it.
 */
export const CACHE_LIMIT = 4096;
const ORIGINAL = "caches = new OutputCaches();";
export function shareOutputCaches(source) {
  if (!source.includes(ORIGINAL) || !source.includes("class OutputCaches {")) {
    throw new Error("ink/build/output.js no longer has `caches = new OutputCaches();`: review the shared-cache patch");
  }
  return `${source.replace(ORIGINAL, "caches = sharedOutputCaches();")}
let backroomOutputCaches;
function sharedOutputCaches() {
  if (!backroomOutputCaches || backroomOutputCaches.styledChars.size + backroomOutputCaches.widths.size > ${CACHE_LIMIT}) {
    backroomOutputCaches = new OutputCaches();
  }
  return backroomOutputCaches;
}
`;
}

const sharedInkOutputCaches = {
  name: "shared-ink-output-caches",
  setup(b) {
    b.onLoad({ filter: /[\\/]ink[\\/]build[\\/]output\.js$/ }, async (args) => ({
      contents: shareOutputCaches(await readFile(args.path, "utf8")),
      loader: "js",
    }));
  },
};

/** Node ESM, React's production build, native and optional packages left to node_modules. */
export const bundleOptions = {
  absWorkingDir: root,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  jsx: "automatic",
  external: ["better-sqlite3", "keytar"],
  plugins: [withoutDevtools, sharedInkOutputCaches],
  banner: {
    // Bundled CommonJS dependencies call require(); give them one in ESM.
    js: "import { createRequire as __backroomCreateRequire } from 'node:module'; const require = __backroomCreateRequire(import.meta.url);",
  },
  define: { "process.env.NODE_ENV": '"production"' },
  logLevel: "warning",
};
