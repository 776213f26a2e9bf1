import { type CustomerSearch, foldText, type SearchField } from "../domain/customer-search.js";
import { phoneDigits } from "../domain/customers.js";
import type { Customer, CustomerCreationSource } from "../spec/generated/types.js";
import { type LocalDb, type Migration, openLocalDb } from "./db.js";
import { Statements } from "./statements.js";

/** A changed profile's words are indexed anew. */
const PROFILES_CHANGED_TRIGGER = `
  CREATE TRIGGER profiles_changed AFTER UPDATE ON profiles BEGIN
    INSERT INTO profile_words (profile_words, rowid, given, family, nickname, company, email, phone_digits, reference)
    VALUES ('delete', old.rowid, old.given, old.family, old.nickname, old.company, old.email, old.phone_digits, old.reference);
    INSERT INTO profile_words (rowid, given, family, nickname, company, email, phone_digits, reference)
    VALUES (new.rowid, new.given, new.family, new.nickname, new.company, new.email, new.phone_digits, new.reference);
  END;`;

/** The index's schema, step by step. */
export const CUSTOMER_INDEX_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "profiles, their words, and the fill's progress",
    up: (db) =>
      db.exec(`
        CREATE TABLE profiles (
          id TEXT NOT NULL UNIQUE,
          given TEXT NOT NULL DEFAULT '',
          family TEXT NOT NULL DEFAULT '',
          nickname TEXT NOT NULL DEFAULT '',
          company TEXT NOT NULL DEFAULT '',
          email TEXT NOT NULL DEFAULT '',
          phone TEXT NOT NULL DEFAULT '',
          phone_digits TEXT NOT NULL DEFAULT '',
          reference TEXT NOT NULL DEFAULT '',
          birthday TEXT,
          group_ids TEXT NOT NULL DEFAULT '',
          source TEXT,
          created_at TEXT,
          updated_at TEXT,
          version INTEGER,
          sort_name TEXT NOT NULL,
          -- Every searched field, folded (lower case, no accents) and joined: one look per row for
          -- words too short for the trigram table.
          haystack TEXT NOT NULL DEFAULT ''
        );
        CREATE INDEX profiles_by_name ON profiles (sort_name, id);
        CREATE INDEX profiles_by_created ON profiles (created_at, id);
        CREATE VIRTUAL TABLE profile_words USING fts5(
          given, family, nickname, company, email, phone_digits, reference,
          content = 'profiles', content_rowid = 'rowid', tokenize = 'trigram remove_diacritics 1'
        );
        CREATE TRIGGER profiles_added AFTER INSERT ON profiles BEGIN
          INSERT INTO profile_words (rowid, given, family, nickname, company, email, phone_digits, reference)
          VALUES (new.rowid, new.given, new.family, new.nickname, new.company, new.email, new.phone_digits, new.reference);
        END;
        CREATE TRIGGER profiles_removed AFTER DELETE ON profiles BEGIN
          INSERT INTO profile_words (profile_words, rowid, given, family, nickname, company, email, phone_digits, reference)
          VALUES ('delete', old.rowid, old.given, old.family, old.nickname, old.company, old.email, old.phone_digits, old.reference);
        END;
        ${PROFILES_CHANGED_TRIGGER}
        CREATE TABLE progress (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      `),
  },
  { version: 2, name: "the named first, then those known only by an email or a phone", up: reorderByName },
];

/** The filters the list's panel sets, besides the search line. */
export interface IndexFilters {
  groupId?: string;
  sources?: { rule: "INCLUDE" | "EXCLUDE"; values: readonly CustomerCreationSource[] };
  /** Created at or after / at or before these instants (RFC 3339). */
  createdFrom?: string;
  createdTo?: string;
}

/** Where the index's fill and refresh stand. */
export interface IndexProgress {
  /** Every profile has been read once (the fill is done). */
  filled: boolean;
  /** Where the fill goes on from (a page cursor), while it is not done. */
  fillCursor: string | undefined;
  /** How many profiles the service said it has when the fill began. */
  expected: number | undefined;
  /** The newest `updated_at` seen: a refresh asks for the changes since. */
  newestUpdate: string | undefined;
  /** When the index was last brought up to date (this machine's clock). */
  refreshedAt: string | undefined;
}

/** One page of an index search, and how many profiles match in all. */
export interface IndexPage {
  rows: Customer[];
  /** How many match; at most {@link COUNT_CAP} when not `exact`. */
  total: number;
  /** False when more than {@link COUNT_CAP} match: `total` is then where counting stopped. */
  exact: boolean;
}

/** Matches are counted exactly up to this many; past it a search says "10,000+". */
export const COUNT_CAP = 10_000;

/** Up to this many matches are sorted in memory; past it the order's index is walked instead. */
const SORT_IN_MEMORY = 2_000;

export { CustomerIndexHandle, customerIndexPath } from "./handles.js";

const COLUMNS = [
  "given",
  "family",
  "nickname",
  "company",
  "email",
  "phone",
  "phone_digits",
  "reference",
  "birthday",
  "group_ids",
  "source",
  "created_at",
  "updated_at",
  "version",
  "sort_name",
  "haystack",
] as const;

/** Columns read back into a profile (the haystack is only searched). */
const READ = COLUMNS.filter((c) => c !== "haystack");

/** The columns each kind of search looks in. */
const FIELD_COLUMNS: Record<SearchField, readonly string[]> = {
  any: ["given", "family", "nickname", "company", "email", "phone_digits", "reference"],
  name: ["given", "family", "nickname", "company"],
  email: ["email"],
  phone: ["phone_digits"],
  reference: ["reference"],
};

/** The trigram tokenizer needs three characters to look anything up. */
const TRIGRAM = 3;

type Row = Record<(typeof COLUMNS)[number] | "id", string | number | null>;

/** The fields a search looks in, folded and joined, for {@link FIELD_COLUMNS}'s `any`. */
function haystackOf(c: Customer): string {
  const fields = [
    c.given_name,
    c.family_name,
    c.nickname,
    c.company_name,
    c.email_address,
    c.phone_number ? phoneDigits(c.phone_number) : "",
    c.reference_id,
  ];
  return foldText(fields.filter(Boolean).join("\u0001"));
}

/**
 * How a profile is ordered by name: as the list names it (names, else company, email, phone), the
 * named and the companies first, then those known only by an email, then only by a phone — so
 * that "+1 310…" does not come before "Aisha" — and last those with nothing to go by.
 */
function sortName(
  c: Pick<Customer, "given_name" | "family_name" | "company_name" | "email_address" | "phone_number">,
): string {
  const name = [c.given_name, c.family_name].filter((s) => s && s.trim() !== "").join(" ");
  const [rank, text] = name
    ? ["0", name]
    : c.company_name
      ? ["0", c.company_name]
      : c.email_address
        ? ["1", c.email_address]
        : c.phone_number
          ? ["2", c.phone_number]
          : ["3", ""];
  return `${rank}${text.toLowerCase()}`;
}

/** Version 2 orders by name anew (see sortName); the profiles' words are not touched. */
function reorderByName(db: LocalDb): void {
  const rows = db.prepare("SELECT rowid, given, family, company, email, phone FROM profiles").all() as {
    rowid: number;
    given: string;
    family: string;
    company: string;
    email: string;
    phone: string;
  }[];
  // Only the order changes: the trigger that re-indexes a changed profile's words is not needed.
  db.exec("DROP TRIGGER profiles_changed");
  const update = db.prepare("UPDATE profiles SET sort_name = ? WHERE rowid = ?");
  for (const r of rows) {
    const name = sortName({
      given_name: r.given,
      family_name: r.family,
      company_name: r.company,
      email_address: r.email,
      phone_number: r.phone,
    });
    update.run(name, r.rowid);
  }
  db.exec(PROFILES_CHANGED_TRIGGER);
}

function rowOf(c: Customer): unknown[] {
  return [
    c.id,
    c.given_name ?? "",
    c.family_name ?? "",
    c.nickname ?? "",
    c.company_name ?? "",
    c.email_address ?? "",
    c.phone_number ?? "",
    c.phone_number ? phoneDigits(c.phone_number) : "",
    c.reference_id ?? "",
    c.birthday ?? null,
    (c.group_ids ?? []).map((g) => `,${g},`).join(""),
    c.creation_source ?? null,
    c.created_at ?? null,
    c.updated_at ?? null,
    c.version ?? null,
    sortName(c),
    haystackOf(c),
  ];
}

function customerOf(r: Row): Customer {
  const c: Customer = { id: String(r.id) };
  const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
  const set = <K extends keyof Customer>(key: K, value: Customer[K] | undefined) => {
    if (value !== undefined) c[key] = value;
  };
  set("given_name", text(r.given));
  set("family_name", text(r.family));
  set("nickname", text(r.nickname));
  set("company_name", text(r.company));
  set("email_address", text(r.email));
  set("phone_number", text(r.phone));
  set("reference_id", text(r.reference));
  set("birthday", text(r.birthday));
  const groups = text(r.group_ids);
  if (groups) c.group_ids = groups.split(",").filter(Boolean);
  set("creation_source", text(r.source) as CustomerCreationSource | undefined);
  set("created_at", text(r.created_at));
  set("updated_at", text(r.updated_at));
  if (typeof r.version === "number") c.version = r.version;
  return c;
}

/**
 * The WHERE clause of a search: terms of three characters or more through the trigram table,
 * shorter ones looked for in the folded haystack (or, for one kind of field, in its columns),
 * then the filters.
 */
function whereOf(searches: readonly CustomerSearch[], filters: IndexFilters): { clause: string; args: unknown[] } {
  const where: string[] = [];
  const args: unknown[] = [];
  const match: string[] = [];
  for (const search of searches) {
    const columns = FIELD_COLUMNS[search.field];
    const scope = search.field === "any" ? "" : `{${columns.join(" ")}} : `;
    for (const term of search.terms) {
      if ([...term].length >= TRIGRAM) match.push(`${scope}${quoted(term)}`);
      else if (search.field === "any") {
        where.push("instr(haystack, ?) > 0");
        args.push(term);
      } else {
        where.push(`(${columns.map((c) => `${c} LIKE ? ESCAPE '\\'`).join(" OR ")})`);
        for (const _ of columns) args.push(likePattern(term));
      }
    }
  }
  if (match.length > 0) {
    where.unshift("rowid IN (SELECT rowid FROM profile_words WHERE profile_words MATCH ?)");
    args.unshift(match.join(" AND "));
  }
  if (filters.groupId) {
    where.push("instr(group_ids, ?) > 0");
    args.push(`,${filters.groupId},`);
  }
  if (filters.sources && filters.sources.values.length > 0) {
    const marks = filters.sources.values.map(() => "?").join(", ");
    where.push(
      filters.sources.rule === "INCLUDE" ? `source IN (${marks})` : `(source IS NULL OR source NOT IN (${marks}))`,
    );
    args.push(...filters.sources.values);
  }
  if (filters.createdFrom) {
    where.push("created_at >= ?");
    args.push(filters.createdFrom);
  }
  if (filters.createdTo) {
    where.push("created_at <= ?");
    args.push(filters.createdTo);
  }
  return { clause: where.length ? `WHERE ${where.join(" AND ")}` : "", args };
}

/** A term as an FTS5 string (quoted: no operator inside a name is read as one). */
const quoted = (term: string) => `"${term.replaceAll('"', '""')}"`;
/** A term as a LIKE pattern, `%` and `_` taken literally. */
const likePattern = (term: string) => `%${term.replaceAll(/[\\%_]/g, (m) => `\\${m}`)}%`;

/** The index of one store's customer profiles. */
export class CustomerIndex {
  readonly path: string;
  readonly #s: Statements;
  readonly #db: LocalDb;

  constructor(db: LocalDb, path: string) {
    this.#db = db;
    this.#s = new Statements(db);
    this.path = path;
  }

  /** Puts profiles in (or replaces them), in one transaction; the newest `updated_at` is remembered. */
  upsert(customers: readonly Customer[]): void {
    const put = this.#s.get(
      `INSERT INTO profiles (id, ${COLUMNS.join(", ")}) VALUES (${["id", ...COLUMNS].map(() => "?").join(", ")})
       ON CONFLICT (id) DO UPDATE SET ${COLUMNS.map((c) => `${c} = excluded.${c}`).join(", ")}
       WHERE excluded.version IS NULL OR profiles.version IS NULL OR excluded.version >= profiles.version`,
    );
    this.#s.transaction(() => {
      let newest = this.progress().newestUpdate ?? "";
      for (const c of customers) {
        if (!c.id) continue;
        put.run(...rowOf(c));
        if (c.updated_at && c.updated_at > newest) newest = c.updated_at;
      }
      if (newest !== "") this.#set("newest_update", newest);
    });
  }

  /** Takes profiles out (deleted here, or found deleted at the service). */
  remove(ids: readonly string[]): void {
    const del = this.#s.get("DELETE FROM profiles WHERE id = ?");
    this.#s.transaction(() => {
      for (const id of ids) del.run(id);
    });
  }

  /** One profile as the index holds it. */
  get(id: string): Customer | undefined {
    const r = this.#s.get(`SELECT id, ${READ.join(", ")} FROM profiles WHERE id = ?`).get(id) as Row | undefined;
    return r ? customerOf(r) : undefined;
  }

  /** How many profiles the index holds. */
  size(): number {
    return (this.#s.get("SELECT count(*) AS n FROM profiles").get() as { n: number }).n;
  }

  /**
   * One page of the profiles that hold every term of each search (in its fields: a search line
   * and the command line's `--name`, `--email`, `--phone` together) and pass the filters, by name
   * (or newest first), and how many match in all — counted exactly up to {@link COUNT_CAP}, and
   * said to be more beyond it (`exact: false`), so that a first key matching nearly everyone
   * answers at once.
   */
  search(
    searches: CustomerSearch | readonly CustomerSearch[],
    filters: IndexFilters,
    sort: "name" | "created",
    page: { offset: number; limit: number },
  ): IndexPage {
    const { clause, args } = whereOf("field" in searches ? [searches] : searches, filters);
    let total: number;
    let exact = true;
    if (clause === "") total = this.size();
    else {
      const sql = `SELECT count(*) AS n FROM (SELECT 1 FROM profiles ${clause} LIMIT ${COUNT_CAP + 1})`;
      const n = (this.#s.get(sql).get(...args) as { n: number }).n;
      exact = n <= COUNT_CAP;
      total = Math.min(n, COUNT_CAP);
    }
    // Many matches: walk the order's index and stop at the page's end, rather than sort them all.
    const index = sort === "created" ? "profiles_by_created" : "profiles_by_name";
    const walk = total > SORT_IN_MEMORY ? `INDEXED BY ${index}` : "";
    const order = sort === "created" ? "created_at DESC, id DESC" : "sort_name, id";
    const rows = this.#s
      .get(`SELECT id, ${READ.join(", ")} FROM profiles ${walk} ${clause} ORDER BY ${order} LIMIT ? OFFSET ?`)
      .all(...args, page.limit, page.offset) as Row[];
    return { rows: rows.map(customerOf), total, exact };
  }

  /** Where the fill and the refresh stand. */
  progress(): IndexProgress {
    const all = new Map(
      (this.#s.get("SELECT key, value FROM progress").all() as { key: string; value: string }[]).map((r) => [
        r.key,
        r.value,
      ]),
    );
    const expected = all.get("expected");
    return {
      filled: all.get("filled") === "yes",
      fillCursor: all.get("fill_cursor"),
      expected: expected === undefined ? undefined : Number(expected),
      newestUpdate: all.get("newest_update"),
      refreshedAt: all.get("refreshed_at"),
    };
  }

  /** Records how far the fill got: the next page's cursor (none: the fill is done). */
  fillReached(cursor: string | undefined, expected: number | undefined): void {
    this.#s.transaction(() => {
      if (expected !== undefined) this.#set("expected", String(expected));
      if (cursor === undefined) {
        this.#s.get("DELETE FROM progress WHERE key = 'fill_cursor'").run();
        this.#set("filled", "yes");
      } else this.#set("fill_cursor", cursor);
    });
  }

  /**
   * Makes the index the given seller's: an index holding another seller's profiles (the same
   * address signed in as someone else) is emptied first. Returns whether it was.
   */
  claim(merchantId: string): boolean {
    return this.#s.transaction(() => {
      const row = this.#s.get("SELECT value FROM progress WHERE key = 'merchant'").get() as
        | { value: string }
        | undefined;
      const other = row !== undefined && row.value !== merchantId;
      if (other) {
        this.#s.get("DELETE FROM profiles").run();
        this.#s.get("DELETE FROM progress").run();
      }
      this.#set("merchant", merchantId);
      return other;
    });
  }

  /** Records that the index was brought up to date at `at`. */
  refreshed(at: Date): void {
    this.#set("refreshed_at", at.toISOString());
  }

  /** Empties the index (a fill starts over). */
  clear(): void {
    this.#s.transaction(() => {
      this.#s.get("DELETE FROM profiles").run();
      this.#s.get("DELETE FROM progress").run();
    });
  }

  close(): void {
    this.#db.close();
  }

  #set(key: string, value: string): void {
    this.#s
      .get("INSERT INTO progress (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
      .run(key, value);
  }
}

/** Opens (or makes) a store's customer index. */
export async function openCustomerIndex(path: string): Promise<CustomerIndex> {
  const db = await openLocalDb(path, { label: "the customer index", migrations: CUSTOMER_INDEX_MIGRATIONS });
  return new CustomerIndex(db, path);
}
