import { createContext, type ReactNode, useContext } from "react";
import type { EnvLabel } from "../state/index.js";

/** Colours by role; every value is undefined when colour is off (NO_COLOR, --no-color). */
export interface Theme {
  color: boolean;
  accent: string | undefined;
  muted: string | undefined;
  good: string | undefined;
  warn: string | undefined;
  bad: string | undefined;
  env: Record<EnvLabel, { bg: string | undefined; fg: string | undefined }>;
}

/** Builds the theme; without colour, emphasis falls back to bold and inverse. */
export function makeTheme(color: boolean): Theme {
  const c = (name: string) => (color ? name : undefined);
  return {
    color,
    accent: c("cyan"),
    muted: c("gray"),
    good: c("green"),
    warn: c("yellow"),
    bad: c("red"),
    env: {
      DEMO: { bg: c("green"), fg: c("black") },
      LOCAL: { bg: c("blue"), fg: c("white") },
      SANDBOX: { bg: c("yellow"), fg: c("black") },
      PRODUCTION: { bg: c("red"), fg: c("white") },
    },
  };
}

const ThemeContext = createContext<Theme>(makeTheme(true));

/** Provides the theme to the tree. */
export function ThemeProvider({ theme, children }: { theme: Theme; children: ReactNode }) {
  return <ThemeContext.Provider value={theme}>{children}</ThemeContext.Provider>;
}

/** The current theme. */
export function useTheme(): Theme {
  return useContext(ThemeContext);
}
