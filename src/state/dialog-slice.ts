import { problemOf, type WriteResult } from "./errors.js";
import { type CsvFile, resolveExportPath, writeCsvFiles, wroteMessage } from "./export-csv.js";
import type { SliceCreator } from "./store.js";
import type { Question } from "./types.js";

/**
 * The one confirmation and the one CSV export: every screen asks its yes/no questions and writes
 * its files through these, so enter, "Replace it?" and the messages are the same everywhere.
 */
export interface DialogSlice {
  /** Asks a yes/no question in the one confirmation; the keys go back where they were after it. */
  ask(question: Question): void;
  /**
   * Answers the open question: closes it, then runs its yes or no; `undefined` (esc) runs its
   * neither when it has one, else its no.
   */
  answer(yes: boolean | undefined): void;
  /** Where a typed export path points: the data folder's `exports/` unless a folder is given. */
  exportTarget(typed: string, defaultName: string): string;
  /**
   * Writes the files of a CSV export, the one way for every screen: never over an existing file
   * unasked (it asks "Replace it?" and writes on yes), the whole paths written in the message.
   * Failures land in the status bar too. Exports are not changes at the service: read-only mode
   * allows them.
   */
  exportCsv(files: readonly CsvFile[], options?: { overwrite?: boolean }): Promise<WriteResult<string[]>>;
}

/** Builds the dialog slice. */
export const createDialogSlice: SliceCreator<DialogSlice> = (set, get, deps) => ({
  ask(question) {
    set({ overlay: { kind: "confirm", question } });
  },

  answer(yes) {
    const overlay = get().overlay;
    if (overlay.kind !== "confirm") return;
    set({ overlay: { kind: "none" } });
    const { onYes, onNo, onNeither } = overlay.question;
    const run = yes ? onYes : yes === undefined && onNeither ? onNeither : onNo;
    const screen = get().screen.kind;
    void Promise.resolve(run?.()).catch((err: unknown) =>
      set({ status: { kind: "error", text: problemOf(err).headline, screen } }),
    );
  },

  exportTarget(typed, defaultName) {
    return resolveExportPath(typed, { dataDir: deps.dataDir, defaultName });
  },

  async exportCsv(files, options = {}) {
    // What it says belongs to the screen that asked, should the manager move on meanwhile.
    const screen = get().screen.kind;
    const result = await writeCsvFiles(files, {
      overwrite: options.overwrite === true,
      files: deps.files,
      dataDir: deps.dataDir,
    });
    if (result.ok) {
      set({ status: { kind: "info", text: wroteMessage(files), screen } });
    } else if (result.error.kind === "exists") {
      const paths = result.error.paths;
      const one = paths.length === 1;
      get().ask({
        message: `${paths.join(" and ")} ${one ? "is" : "are"} already there. Replace ${one ? "it" : "them"}?`,
        risky: true,
        yes: "Replace",
        onYes: () => get().exportCsv(files, { overwrite: true }),
        onNo: () =>
          set({
            status: {
              kind: "info",
              text: `Nothing written: ${paths.join(" and ")} ${one ? "is kept as it was" : "are kept as they were"}.`,
              screen,
            },
          }),
      });
    } else if (result.error.kind === "failed") {
      const { headline, details } = result.error.problem;
      set({ status: { kind: "error", text: headline, screen, ...(details ? { details } : {}) } });
    }
    return result;
  },
});
