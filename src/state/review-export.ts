// The review's CSV export, the same for the screen and `backroom shifts export`: the shifts, and
// with `summary` the weekly summary per member beside them (`x.csv` → `x-summary.csv`).
import { type LocationNames, memberWeeksCsv, shiftsCsv, summaryFileName } from "../domain/csv.js";
import { plural } from "../domain/plural.js";
import { memberWeeks, type Review } from "../domain/review.js";
import type { CsvFile } from "./export-csv.js";

/** Where the shifts were worked (a store's name by its id), and the weeks of the summary. */
export interface ReviewPlace {
  names: LocationNames;
  startOfWeek: string;
}

/** The files of a review export to `path`. */
export function reviewExportFiles(review: Review, place: ReviewPlace, path: string, summary: boolean): CsvFile[] {
  const n = review.rows.length;
  const files: CsvFile[] = [{ path, text: shiftsCsv(review.rows, place.names), what: plural(n, "shift") }];
  if (summary) {
    files.push({
      path: summaryFileName(path),
      text: memberWeeksCsv(memberWeeks(review, place.startOfWeek), place.names),
      what: "the weekly summary",
    });
  }
  return files;
}
