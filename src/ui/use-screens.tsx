// Screens loaded on first use (src/ui/screens/registry.ts says which and why). Until a lazy
// screen's module and store slices are in, the shell holds a stand-in for it: the same name, key
// and title, a "Loading …" line, no commands, and `loading`, which holds the keys (the key stream
// hands them over in order once the screen is in). A module that cannot be loaded leaves a
// stand-in that says so, and `r` tries again.
import { useEffect, useMemo, useRef, useState } from "react";
import { type AppStore, type ScreenKind, useAppStore, useAppStoreApi } from "../state/index.js";
import { NotRead } from "./components/NotRead.js";
import { Txt } from "./components/Txt.js";
import { listPlace } from "./focus.js";
import { scannedText } from "./scan-detector.js";
import { type AnyScreenDef, isLazy, type LazyScreen, nameOf, type ScreenEntry } from "./screens/screen-def.js";

/** The stand-in shown while a screen loads. */
function loadingScreen(entry: LazyScreen): AnyScreenDef {
  return {
    ...nameOf(entry),
    component: () => <Txt dimColor>Loading {entry.title} …</Txt>,
    commands: {},
    focus: () => listPlace("loading"),
    loading: true,
  };
}

/** The stand-in left when a screen's module could not be loaded; `r` tries again. */
function failedScreen(entry: LazyScreen, err: unknown, retry: () => void): AnyScreenDef {
  const why = err instanceof Error ? err.message : String(err);
  return {
    ...nameOf(entry),
    component: () => (
      <>
        <Txt bold wrap="truncate-end">
          The {entry.title} screen could not be opened; r tries again.
        </Txt>
        <Txt dimColor wrap="truncate-end">
          {why}
        </Txt>
      </>
    ),
    commands: {},
    focus: () => listPlace("not loaded"),
    reload: retry,
  };
}

/**
 * The stand-in of a screen that needs a location while none is known (the app started while the
 * service could not be reached, or is still reading the locations): its title and why its data is
 * not there ({@link NotRead}). It has none of the screen's commands, so no form opens on a store
 * not read; a scan says it did nothing. `r` (the shell's) reads the start again; once a location is
 * known the screen itself is shown, and reads as it does when shown.
 */
function notReadScreen(def: AnyScreenDef): AnyScreenDef {
  const what = def.reads ?? "what this screen shows";
  return {
    ...nameOf(def),
    component: () => <NotRead title={def.title} what={what} />,
    commands: {},
    focus: () => listPlace("not read"),
    onScan: (s, code) =>
      s.setStatus({
        kind: "rule",
        text: `Scanned ${scannedText(code)} before the store was read: nothing was done.`,
      }),
  };
}

/** Loads a lazy screen's module and its store slices together. */
async function loadScreen(entry: LazyScreen, store: AppStore): Promise<AnyScreenDef> {
  const [body] = await Promise.all([entry.load(), ...entry.slices.map((n) => store.getState().loadSlice(n))]);
  return { ...nameOf(entry), ...body };
}

/**
 * The registry's screens as the shell uses them: a lazy one is its stand-in until loaded, and is
 * loaded when it is first shown (the screen to open on, too).
 */
export function useScreens(entries: readonly ScreenEntry[]): readonly AnyScreenDef[] {
  const store = useAppStoreApi();
  const kind = useAppStore((s) => s.screen.kind);
  const [loaded, setLoaded] = useState<ReadonlyMap<ScreenKind, AnyScreenDef>>(() => new Map());
  const started = useRef(new Set<ScreenKind>());
  const standIns = useMemo(
    () => new Map(entries.filter(isLazy).map((e) => [e.kind, loadingScreen(e)] as const)),
    [entries],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: `loaded` too: a failed screen let go (r) loads again.
  useEffect(() => {
    const entry = entries.find((e) => e.kind === kind);
    if (!entry || !isLazy(entry) || started.current.has(kind)) return;
    started.current.add(kind);
    const put = (def: AnyScreenDef) => setLoaded((m) => new Map(m).set(kind, def));
    const retry = () => {
      started.current.delete(kind);
      setLoaded((m) => {
        const next = new Map(m);
        next.delete(kind);
        return next;
      });
    };
    loadScreen(entry, store).then(put, (err: unknown) => put(failedScreen(entry, err, retry)));
  }, [entries, kind, loaded, store]);
  const located = useAppStore((s) => s.locationId !== undefined);
  return useMemo(
    () =>
      entries.map((e) => {
        const def = isLazy(e) ? (loaded.get(e.kind) ?? standIns.get(e.kind) ?? loadingScreen(e)) : e;
        return located || def.withoutLocation || def.loading ? def : notReadScreen(def);
      }),
    [entries, loaded, standIns, located],
  );
}
