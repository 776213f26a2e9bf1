// Types of scripts/bundle-options.mjs, for the tests that build with it.
import type { BuildOptions } from "esbuild";

export const bundleOptions: BuildOptions;
export const publishedInkOptions: BuildOptions;
export const INK_PATCHES: readonly string[];
export const CACHE_LIMIT: number;
export const OUTPUT_LINES: number;
export function patchInkOutput(source: string): string;
export function patchInkMeasureText(source: string): string;
export function patchInkRenderNode(source: string): string;
export function patchYogaLoader(source: string): string;
