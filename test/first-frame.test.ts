// The first frame compiles only what it shows: the shell and the time clock. Every other screen,
// its store slice and the domain code they carry load on first use (src/ui/screens/registry.ts).
// This reads the bundle's import graph (esbuild's metafile, as scripts/build.mjs bundles) and fails
// when a lazy screen's code is pulled into the first frame's static imports again.
import { build, type Metafile } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { bundleOptions } from "../scripts/bundle-options.mjs";
import { LAZY_SLICE_NAMES } from "../src/state/store.js";
import { SCREENS } from "../src/ui/screens/registry.js";
import { isLazy } from "../src/ui/screens/screen-def.js";

/** What the app command (the first frame's code, loaded by src/cli.tsx) imports statically. */
function staticClosure(meta: Metafile, from: string): Set<string> {
  const seen = new Set<string>([from]);
  const todo = [from];
  for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
    for (const i of meta.inputs[file]?.imports ?? []) {
      if (i.kind !== "import-statement" || i.external || seen.has(i.path)) continue;
      seen.add(i.path);
      todo.push(i.path);
    }
  }
  return seen;
}

let meta: Metafile;
let first: Set<string>;
beforeAll(async () => {
  const out = await build({
    ...bundleOptions,
    entryPoints: { backroom: "src/cli.tsx" },
    outdir: "dist-first-frame-test",
    splitting: true,
    metafile: true,
    write: false,
  });
  meta = out.metafile;
  first = staticClosure(meta, "src/commands/app.tsx");
}, 60_000);

describe("the first frame's code", () => {
  it("holds the shell and the time clock", () => {
    expect(first).toContain("src/ui/App.tsx");
    expect(first).toContain("src/ui/screens/timeclock/TimeClockScreen.tsx");
    expect(first).toContain("src/state/timeclock-slice.ts");
  });

  it("holds no lazy screen's folder, slice, or the libraries only they use", () => {
    const lazyFolders = SCREENS.filter(isLazy).map((e) => `src/ui/screens/${e.kind}/`);
    expect(lazyFolders.length).toBeGreaterThan(5);
    const pulled = [...first].filter(
      (f) =>
        lazyFolders.some((d) => f.startsWith(d)) ||
        /^src\/state\/(review|stocktake|customers|drawers|payouts|gift-cards|v1|webhooks)-slice\.ts$/.test(f) ||
        f === "src/state/screens.ts" ||
        f === "src/local/customer-index.ts" ||
        f === "src/local/stocktake-journal.ts" ||
        /node_modules\/(libphonenumber-js|csv-parse)\//.test(f),
    );
    expect(pulled).toEqual([]);
  });

  it("still reaches every lazy screen and slice, through a dynamic import", () => {
    const dynamic = new Set(
      Object.values(meta.inputs).flatMap((i) =>
        i.imports.filter((x) => x.kind === "dynamic-import").map((x) => x.path),
      ),
    );
    for (const e of SCREENS.filter(isLazy)) expect(dynamic, e.kind).toContain(`src/ui/screens/${e.kind}/screen.ts`);
    expect(LAZY_SLICE_NAMES.length).toBe(8);
    expect(dynamic).toContain("src/state/payouts-slice.ts");
    expect(dynamic).toContain("src/local/customer-index.ts");
  });
});
