#!/usr/bin/env node
// Enforces the layering of STYLE.md: imports go downward only. Each layer lists the layers it
// may import; anything else fails the lint with the file and the import named.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "src");
const allowed = {
  spec: [],
  domain: ["spec"],
  square: ["spec"],
  auth: ["square", "spec", "domain"],
  // Files this machine keeps (journal, outbox, indexes): SQLite, below the state that uses them.
  local: ["domain", "spec"],
  state: ["square", "auth", "local", "domain", "spec"],
  ui: ["state", "domain", "spec"],
  service: ["spec", "domain"],
  cli: ["*"],
  commands: ["*"],
};

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (/\.(ts|tsx)$/.test(name)) yield p;
  }
}

const layerOf = (file) => {
  const rel = relative(root, file).split(sep);
  return rel.length === 1 ? "cli" : rel[0];
};

const problems = [];
for (const file of files(root)) {
  const from = layerOf(file);
  const rules = allowed[from];
  if (!rules) {
    problems.push(`${relative(process.cwd(), file)}: folder src/${from} is not a known layer`);
    continue;
  }
  const text = readFileSync(file, "utf8");
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g)) {
    const target = resolve(dirname(file), m[1]);
    if (!target.startsWith(root + sep)) continue;
    const to = layerOf(`${target}.ts`);
    if (to === from || rules.includes("*") || rules.includes(to)) continue;
    problems.push(`${relative(process.cwd(), file)}: ${from}/ may not import ${to}/ (${m[1]})`);
  }
}
if (problems.length > 0) {
  console.error(`layer check failed:\n${problems.join("\n")}`);
  process.exit(1);
}
console.log("layer check: imports go downward only");
