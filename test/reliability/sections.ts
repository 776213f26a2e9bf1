import type { Section } from "./section.js";
import { authSection } from "./section-auth.js";
import { crashSection } from "./section-crash.js";
import { faultSection } from "./section-faults.js";
import { fuzzSection } from "./section-fuzz.js";
import { loadSection } from "./section-load.js";
import { secretsSection } from "./section-secrets.js";
import { stocktakeCrashSection } from "./section-stocktake-crash.js";
import { terminalSection } from "./section-terminal.js";

/**
 * Every section of the reliability report, in the order it runs: the service's, then the app's
 * (its stocktake crash, hostile terminal input). A section is one module exporting a `Section` and one entry here:
 * `npm run reliability` and the fast run in `npm test` both read this list.
 */
export const SECTIONS: readonly Section[] = [
  fuzzSection,
  authSection,
  crashSection,
  loadSection,
  faultSection,
  secretsSection,
  stocktakeCrashSection,
  terminalSection,
];
