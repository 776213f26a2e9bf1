// Bundles the CLI into one ESM file: start-up reads one file instead of hundreds of modules.
// Usage: node scripts/build.mjs [--outfile FILE]  (default dist/backroom.js; tests bundle elsewhere)
import { build } from "esbuild";

const at = process.argv.indexOf("--outfile");
const outfile = at > 0 && process.argv[at + 1] ? process.argv[at + 1] : "dist/backroom.js";

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

await build({
  entryPoints: ["src/cli.tsx"],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: "linked",
  jsx: "automatic",
  // Native addons and optional packages are loaded from node_modules at run time.
  external: ["better-sqlite3", "keytar"],
  plugins: [withoutDevtools],
  banner: {
    // Bundled CommonJS dependencies call require(); give them one in ESM.
    js: "import { createRequire as __backroomCreateRequire } from 'node:module'; const require = __backroomCreateRequire(import.meta.url);",
  },
  define: { "process.env.NODE_ENV": '"production"' },
  logLevel: "warning",
});
