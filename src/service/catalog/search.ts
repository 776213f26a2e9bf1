import type { CatalogObject, CatalogQuery } from "../../spec/generated/types.js";
import { invalid } from "../errors.js";
import { parseTime } from "../params.js";
import { type CatalogRow, toObject } from "./repo.js";

/** A scalar attribute of an object's data (`name`, `sku`, `upc`, `description`, `ordinal`, ...). */
export function attributeOf(o: CatalogObject, name: string): string | number | boolean | undefined {
  const data =
    o.item_data ??
    o.item_variation_data ??
    o.category_data ??
    (Object.entries(o).find(([k]) => k.endsWith("_data"))?.[1] as object | undefined);
  const value =
    name === "id" || name === "type" || name === "updated_at" || name === "version"
      ? (o as unknown as Record<string, unknown>)[name]
      : data
        ? (data as Record<string, unknown>)[name]
        : undefined;
  if (name === "price_amount" && o.item_variation_data?.price_money) return o.item_variation_data.price_money.amount;
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? value : undefined;
}

const lower = (v: string | number | boolean) => String(v).toLowerCase();

/** The keywords a text query uses: those with at least 3 letters or digits, lower-cased. */
export function usableKeywords(keywords: readonly string[]): string[] {
  return keywords.map((k) => k.trim().toLowerCase()).filter((k) => k.replace(/[^\p{L}\p{N}]/gu, "").length >= 3);
}

/**
 * The words of SearchCatalogItems' `text_filter`, lower-cased, each once, longest first: every
 * word must occur in the item's text. Any number of words is answered.
 */
export function textFilterWords(text: string): string[] {
  return [...new Set(text.toLowerCase().split(/\s+/))].filter((w) => w !== "").sort((a, b) => b.length - a.length);
}

/** At most this many words become SQL patterns: SQLite limits how many and how long they may be. */
const SQL_WORDS = 4;
const SQL_WORD_LENGTH = 200;

/**
 * A text filter as SQL: LIKE conditions on `search_text` for the longest few words (the most
 * selective), and the words left for {@link containsAll} on the rows the query returns. No
 * input reaches SQLite's limits on expression depth or pattern length, and the answer is the
 * same as checking every word.
 */
export function textFilterSql(words: readonly string[]): { where: string[]; params: string[]; rest: string[] } {
  const inSql = words.filter((w) => w.length <= SQL_WORD_LENGTH).slice(0, SQL_WORDS);
  return {
    where: inSql.map(() => "search_text LIKE ? ESCAPE '\\'"),
    params: inSql.map((w) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`),
    rest: words.filter((w) => !inSql.includes(w)),
  };
}

/** Whether every word occurs in the text (both lower-case). */
export const containsAll = (text: string, words: readonly string[]): boolean => words.every((w) => text.includes(w));

/** A row with its object parsed at most once. */
interface Candidate {
  row: CatalogRow;
  object(): CatalogObject;
}

const candidate = (row: CatalogRow): Candidate => {
  let parsed: CatalogObject | undefined;
  return {
    row,
    object: () => {
      parsed ??= toObject(row);
      return parsed;
    },
  };
};

/**
 * Applies a SearchCatalogObjects query to candidate rows: every expression present must hold
 * (exact, set, prefix, range, text, the items-for-... look-ups, `begin_time`); then the sorted
 * attribute query orders them, or catalog order when absent.
 */
export function applyCatalogQuery(
  rows: readonly CatalogRow[],
  query: CatalogQuery | undefined,
  beginTime: string | undefined,
): CatalogRow[] {
  let list = rows.map(candidate);
  if (beginTime !== undefined) {
    const after = parseTime(beginTime, "begin_time").getTime();
    list = list.filter((c) => Date.parse(c.row.updated_at) > after);
  }
  if (!query) return list.map((c) => c.row);

  const attr = (c: Candidate, name: string) => attributeOf(c.object(), name);
  if (query.exact_query) {
    const { attribute_name, attribute_value } = query.exact_query;
    const want = attribute_value.toLowerCase();
    list = list.filter((c) => {
      const v = attr(c, attribute_name);
      return v !== undefined && lower(v) === want;
    });
  }
  if (query.set_query) {
    const { attribute_name, attribute_values } = query.set_query;
    const want = new Set(attribute_values.map((v) => v.toLowerCase()));
    list = list.filter((c) => {
      const v = attr(c, attribute_name);
      return v !== undefined && want.has(lower(v));
    });
  }
  if (query.prefix_query) {
    const { attribute_name, attribute_prefix } = query.prefix_query;
    const want = attribute_prefix.toLowerCase();
    list = list.filter((c) => {
      const v = attr(c, attribute_name);
      return v !== undefined && lower(v).startsWith(want);
    });
  }
  if (query.range_query) {
    const { attribute_name, attribute_min_value: min, attribute_max_value: max } = query.range_query;
    list = list.filter((c) => {
      const v = attr(c, attribute_name);
      return typeof v === "number" && (min === undefined || v >= min) && (max === undefined || v <= max);
    });
  }
  if (query.text_query) {
    const keywords = query.text_query.keywords;
    if (keywords.length > 3) {
      throw invalid("ARRAY_LENGTH_TOO_LONG", "A text query takes 1 to 3 keywords.", "query.text_query.keywords");
    }
    const words = usableKeywords(keywords);
    list = list.filter((c) => containsAll(c.row.search_text, words));
  }
  const anyOf = (
    wanted: readonly string[] | undefined,
    have: (o: CatalogObject) => readonly (string | undefined)[],
  ) => {
    const set = new Set(wanted ?? []);
    list = list.filter((c) => have(c.object()).some((id) => id !== undefined && set.has(id)));
  };
  if (query.items_for_tax_query) anyOf(query.items_for_tax_query.tax_ids, (o) => o.item_data?.tax_ids ?? []);
  if (query.items_for_modifier_list_query) {
    anyOf(query.items_for_modifier_list_query.modifier_list_ids, (o) =>
      (o.item_data?.modifier_list_info ?? []).map((m) => m.modifier_list_id),
    );
  }
  if (query.items_for_item_options_query) {
    anyOf(query.items_for_item_options_query.item_option_ids, (o) =>
      (o.item_data?.item_options ?? []).map((m) => m.item_option_id),
    );
  }
  if (query.item_variations_for_item_option_values_query) {
    anyOf(query.item_variations_for_item_option_values_query.item_option_value_ids, (o) =>
      (o.item_variation_data?.item_option_values ?? []).map((m) => m.item_option_value_id),
    );
  }

  const sorted = query.sorted_attribute_query;
  if (!sorted) return list.map((c) => c.row);
  const desc = sorted.sort_order === "DESC";
  const cmp = (a: string | number | boolean, b: string | number | boolean): number =>
    typeof a === "number" && typeof b === "number" ? a - b : lower(a) < lower(b) ? -1 : lower(a) > lower(b) ? 1 : 0;
  if (sorted.initial_attribute_value !== undefined) {
    const start = sorted.initial_attribute_value;
    list = list.filter((c) => {
      const v = attr(c, sorted.attribute_name);
      if (v === undefined) return false;
      const startValue = typeof v === "number" && !Number.isNaN(Number(start)) ? Number(start) : start;
      const d = cmp(v, startValue);
      return desc ? d <= 0 : d >= 0;
    });
  }
  return list
    .map((c) => ({ c, v: attr(c, sorted.attribute_name) }))
    .sort((x, y) => {
      // Objects without the attribute come last, in catalog order.
      if (x.v === undefined || y.v === undefined) {
        if (x.v === undefined && y.v === undefined) return x.c.row.seq - y.c.row.seq;
        return x.v === undefined ? 1 : -1;
      }
      const d = cmp(x.v, y.v);
      return (desc ? -d : d) || x.c.row.seq - y.c.row.seq;
    })
    .map((x) => x.c.row);
}
