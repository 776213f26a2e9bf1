// The parts of undici that webhook deliveries use, imported statically here and this module
// loaded with `import()` on the first delivery. A dynamic `import("undici")` itself would be lazy
// too, but in the bundle undici is CommonJS: esbuild hands a dynamic import of it only a
// `default` export, so `Agent` and `request` came out undefined and every delivery failed.
export { Agent, request } from "undici";
