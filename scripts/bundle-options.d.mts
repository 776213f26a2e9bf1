// Types of scripts/bundle-options.mjs, for the tests that build with it.
import type { BuildOptions } from "esbuild";

export const bundleOptions: BuildOptions;
export const CACHE_LIMIT: number;
export function shareOutputCaches(source: string): string;
