// Bundles the CLI into ESM: start-up reads a few files instead of hundreds of modules. Code
// splitting keeps what the first frame does not need (the local service, SQLite, the client's
// other areas, sign-in) in chunks that load after it, through dynamic imports.
// Usage: node scripts/build.mjs [--outdir DIR]  (default dist, entry DIR/backroom.mjs)
import { rmSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { bundleOptions } from "./bundle-options.mjs";
import { scriptArgs } from "./script-args.mjs";

const { values } = scriptArgs("build", "node scripts/build.mjs [--outdir DIR]", {
  options: { outdir: { type: "string", default: "dist" } },
});
const outdir = values.outdir;

// Chunk names carry a hash: without this, every build would leave the last one's chunks behind.
// Only what the build writes is removed, whatever folder --outdir names.
for (const name of ["chunks", "backroom.mjs", "backroom.mjs.map"])
  rmSync(join(outdir, name), { recursive: true, force: true });
await build({
  ...bundleOptions,
  entryPoints: { backroom: "src/cli.tsx" },
  outdir,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  // .mjs: ESM wherever the files land, whatever package.json is (or is not) above them.
  outExtension: { ".js": ".mjs" },
  sourcemap: "linked",
});
