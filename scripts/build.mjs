// Bundles the CLI into ESM: start-up reads a few files instead of hundreds of modules. Code
// splitting keeps what the first frame does not need (the local service, SQLite, the client's
// other areas, sign-in) in chunks that load after it, through dynamic imports.
// Usage: node scripts/build.mjs [--outdir DIR]  (default dist, entry DIR/backroom.mjs)
import { build } from "esbuild";

const at = process.argv.indexOf("--outdir");
const outdir = at > 0 && process.argv[at + 1] ? process.argv[at + 1] : "dist";

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
  entryPoints: { backroom: "src/cli.tsx" },
  outdir,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  // .mjs: ESM wherever the files land, whatever package.json is (or is not) above them.
  outExtension: { ".js": ".mjs" },
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
