// The esbuild settings every bundle of the app shares: the shipped build (scripts/build.mjs) and
// the UI benchmark's harness (scripts/bench-ui.mjs) must bundle the same way to measure the same.
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

/** Node ESM, React's production build, native and optional packages left to node_modules. */
export const bundleOptions = {
  absWorkingDir: root,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  jsx: "automatic",
  external: ["better-sqlite3", "keytar"],
  plugins: [withoutDevtools],
  banner: {
    // Bundled CommonJS dependencies call require(); give them one in ESM.
    js: "import { createRequire as __backroomCreateRequire } from 'node:module'; const require = __backroomCreateRequire(import.meta.url);",
  },
  define: { "process.env.NODE_ENV": '"production"' },
  logLevel: "warning",
};
