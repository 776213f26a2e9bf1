import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { storeWithMerchant } from "../../../test/helpers/service-db.js";
import type { CustomerFilter } from "../../spec/generated/types.js";
import { migrate } from "../db.js";
import { seededIds } from "../ids.js";
import { migrations } from "../migrations/index.js";
import { rng } from "../seed/random.js";
import { deleteCustomer, saveCustomer } from "./repo.js";
import { emailKey, nameKey, phoneDigits, type StoredCustomer } from "./rules.js";
import {
  type CustomerSortKey,
  compileQuery,
  countMatching,
  findPage,
  MAX_FUZZY_LENGTH,
  type Position,
  recordId,
} from "./search.js";
import { seedCustomers } from "./seed.js";

const M = "MERCHANT";
const GIVEN = [
  "José",
  "Zoë",
  "Renée",
  "Łukasz",
  "Ana",
  "Bob",
  "Chloé",
  "Dmitri",
  "Émile",
  "Ngozi",
  "Ana-María",
  "Sørina",
];
const FAMILY = ["García", "Müller", "Smith", "Nguyễn", "O'Brien", "Dupont", "Kowalski", "Okafor", "Smithson"];
const DOMAINS = ["example.com", "exemple.fr", "mail.de", "gmail.com"];
/** SQLite's text order (BINARY: UTF-8 bytes), which JavaScript's own `<` is not above U+FFFF. */
const compareCodePoints = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
const strip = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}.]/gu, "");

/** A store of profiles written one by one in random order, as the service writes them. */
function store(count: number) {
  const db = storeWithMerchant(M);
  const r = rng(42);
  const all = new Map<string, StoredCustomer>();
  for (let i = 0; i < count; i++) {
    const given = r.pick(GIVEN);
    const family = r.pick(FAMILY);
    const c: StoredCustomer = {
      id: `C${String(r.int(0, 1e9)).padStart(9, "0")}${i}`,
      created_at: new Date(Date.UTC(2023, 0, 1) + r.int(0, 1e10)).toISOString(),
      updated_at: "2025-01-01T00:00:00.000Z",
      version: 0,
      creation_source: r.chance(0.5) ? "DIRECTORY" : "THIRD_PARTY",
      ...(r.chance(0.9) ? { given_name: given } : {}),
      ...(r.chance(0.9) ? { family_name: family } : {}),
      ...(r.chance(0.9) ? { email_address: `${strip(given)}.${strip(family)}${r.int(0, 99)}@${r.pick(DOMAINS)}` } : {}),
      ...(r.chance(0.8)
        ? {
            phone_number: r.chance(0.5)
              ? `+1 (415) 555-${String(r.int(0, 9999)).padStart(4, "0")}`
              : `+1-212-555-${String(r.int(0, 9999)).padStart(4, "0")}`,
          }
        : {}),
      ...(r.chance(0.3) ? { reference_id: `${r.chance(0.5) ? "CRM" : "crm"}-${r.int(0, 5000)}` } : {}),
    };
    saveCustomer(db, M, c);
    all.set(c.id, c);
  }
  return { db, all, r };
}

/** The contract's fuzzy match, written out plainly: every word somewhere in the field's text. */
function reference(
  all: Map<string, StoredCustomer>,
  filter: CustomerFilter,
  sort: CustomerSortKey,
  order: "ASC" | "DESC",
) {
  const words = (q: string) =>
    q
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w !== "");
  const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const ok = (c: StoredCustomer) =>
    (!filter.email_address?.fuzzy ||
      words(filter.email_address.fuzzy).every(
        (w) => emailKey(c.email_address ?? "").includes(w) && !!c.email_address,
      )) &&
    (!filter.phone_number?.fuzzy ||
      (!!c.phone_number && phoneDigits(c.phone_number).includes(phoneDigits(filter.phone_number.fuzzy)))) &&
    (!filter.reference_id?.fuzzy ||
      words(filter.reference_id.fuzzy).every((w) => !!c.reference_id && asciiLower(c.reference_id).includes(w))) &&
    (!filter.created_at?.start_at || c.created_at >= new Date(filter.created_at.start_at).toISOString()) &&
    (!filter.creation_source?.values || filter.creation_source.values.includes(c.creation_source));
  const key = (c: StoredCustomer) => (sort === "DEFAULT" ? nameKey(c) : c.created_at);
  const sorted = [...all.values()]
    .filter(ok)
    .sort((a, b) => compareCodePoints(key(a), key(b)) || compareCodePoints(a.id, b.id));
  return (order === "ASC" ? sorted : sorted.reverse()).map((c) => c.id);
}

/** Every page of a query, followed with its keyset positions. */
function pages(
  db: ReturnType<typeof store>["db"],
  filter: CustomerFilter,
  sort: CustomerSortKey,
  order: "ASC" | "DESC",
  limit: number,
) {
  const q = compileQuery(filter, sort, order);
  const ids: string[] = [];
  let after: Position | undefined;
  for (let n = 0; n < 10_000; n++) {
    const page = findPage(db, M, q, after, limit);
    ids.push(...page.customers.map((c) => c.id));
    if (!page.next) break;
    after = page.next;
  }
  return { ids, count: countMatching(db, M, q) };
}

/** `customer_pages` holds each ranked profile's stored JSON and merchant by its rank, and nothing else. */
function expectPagesInStep(db: ReturnType<typeof store>["db"]) {
  const copy = db.prepare("SELECT name_rank, merchant_id, data FROM customer_pages ORDER BY name_rank").all();
  const profiles = db
    .prepare("SELECT name_rank, merchant_id, data FROM customers WHERE name_rank IS NOT NULL ORDER BY name_rank")
    .all();
  expect(copy.length).toBeGreaterThan(0);
  expect(copy).toEqual(profiles);
}

const FILTERS: CustomerFilter[] = [
  { email_address: { fuzzy: "garcía" } }, // an accented name inside the address
  { email_address: { fuzzy: "ía.d" } }, // across the dot: "ía" is shorter than the index serves, "d" too
  { email_address: { fuzzy: "zoë" } },
  { email_address: { fuzzy: "NGUYỄN" } }, // upper case, with its accent
  { email_address: { fuzzy: "smith" } }, // also inside "smithson"
  { email_address: { fuzzy: "example" } }, // dense: a quarter of the store
  { email_address: { fuzzy: "e" } }, // one character: no index can serve it
  { email_address: { fuzzy: "ren ée" } },
  { email_address: { fuzzy: "mile.okafo 42" } },
  { email_address: { fuzzy: "zzqx" } }, // nobody
  { phone_number: { fuzzy: "(415) 555-01" } }, // another format than the stored one
  { phone_number: { fuzzy: "415.555" } },
  { phone_number: { fuzzy: "55" } },
  { reference_id: { fuzzy: "CRM-12" } },
  { reference_id: { fuzzy: "cR" } }, // too short for the index, in either case: "CRM-…" and "crm-…" alike
  { email_address: { fuzzy: "gmail" }, phone_number: { fuzzy: "212" } },
  { email_address: { fuzzy: "ana" }, created_at: { start_at: "2023-06-01T00:00:00Z" } },
  { email_address: { fuzzy: "example" }, creation_source: { values: ["DIRECTORY"] } },
];

describe("fuzzy search over the trigram index", () => {
  const s = store(3000);

  it("gives the same profiles in the same order as the plain definition, page after page, in both orders", () => {
    for (const filter of FILTERS) {
      for (const sort of ["DEFAULT", "CREATED_AT"] as const) {
        for (const order of ["ASC", "DESC"] as const) {
          const want = reference(s.all, filter, sort, order);
          const got = pages(s.db, filter, sort, order, want.length > 200 ? 100 : 7);
          expect({ filter, sort, order, ids: got.ids }).toEqual({ filter, sort, order, ids: want });
          expect(got.count).toBe(want.length);
        }
      }
    }
  });

  it("follows renames, new addresses and deletions", () => {
    const ids = [...s.all.keys()];
    for (let i = 0; i < 400; i++) {
      const id = ids[s.r.int(0, ids.length - 1)] as string;
      const c = s.all.get(id);
      if (!c) continue;
      if (i % 4 === 3) {
        deleteCustomer(s.db, M, id);
        s.all.delete(id);
        continue;
      }
      // One change in four keeps the name and the address: only the stored JSON changes.
      const next: StoredCustomer =
        i % 4 === 2
          ? { ...c, note: `changed ${i}`, version: c.version + 1 }
          : {
              ...c,
              given_name: s.r.pick(GIVEN),
              email_address: `${strip(s.r.pick(GIVEN))}.${s.r.int(100, 999)}@${s.r.pick(DOMAINS)}`,
            };
      saveCustomer(s.db, M, next);
      s.all.set(id, next);
    }
    for (const filter of FILTERS) {
      const want = reference(s.all, filter, "DEFAULT", "ASC");
      expect({ filter, ids: pages(s.db, filter, "DEFAULT", "ASC", 100).ids }).toEqual({ filter, ids: want });
    }
    expectPagesInStep(s.db);
    // A page answers each profile as stored now, not as it was when it was first indexed.
    const page = findPage(
      s.db,
      M,
      compileQuery({ email_address: { fuzzy: "example" } }, "DEFAULT", "ASC"),
      undefined,
      100,
    );
    const stored = s.db.prepare("SELECT data FROM customers WHERE id = ?").pluck();
    expect(page.records).toEqual(page.customers.map((c) => stored.get(c.id)));
    expect(page.customers.map((c) => c.note).filter((n) => n?.startsWith("changed"))).not.toEqual([]);
  });

  it("leaves its copy of the profiles as it was when a change rolls back", () => {
    const t = store(50);
    const before = t.db.prepare("SELECT * FROM customer_pages ORDER BY name_rank").all();
    const [first] = t.all.values();
    expect(() =>
      t.db.transaction(() => {
        saveCustomer(t.db, M, { ...(first as StoredCustomer), given_name: "Zygmunt", note: "gone" });
        deleteCustomer(t.db, M, [...t.all.keys()][1] as string);
        throw new Error("refused");
      })(),
    ).toThrow("refused");
    expect(t.db.prepare("SELECT * FROM customer_pages ORDER BY name_rank").all()).toEqual(before);
    expectPagesInStep(t.db);
    // Whatever writes the profile, not only saveCustomer (which also sets the rank).
    t.db.prepare("UPDATE customers SET data = json_set(data, '$.note', 'by hand') WHERE id = ?").run(first?.id);
    expectPagesInStep(t.db);
  });

  it("finds only the merchant's own profiles, however many of another merchant's match", () => {
    const t = store(30);
    t.db
      .prepare(
        "INSERT INTO merchants (id, business_name, country, language_code, currency, created_at) VALUES ('OTHER', 'y', 'US', 'en-US', 'USD', '2020-01-01T00:00:00Z')",
      )
      .run();
    for (let i = 0; i < 60; i++) {
      const c = { ...([...t.all.values()][i % 30] as StoredCustomer), id: `OTHER${i}` };
      saveCustomer(t.db, "OTHER", { ...c, given_name: `${c.given_name ?? ""}${i % 3}` });
    }
    expectPagesInStep(t.db);
    for (const filter of FILTERS) {
      for (const order of ["ASC", "DESC"] as const) {
        const want = reference(t.all, filter, "DEFAULT", order);
        expect({ filter, order, ids: pages(t.db, filter, "DEFAULT", order, 4).ids }).toEqual({
          filter,
          order,
          ids: want,
        });
      }
    }
  });

  it("keeps its order when many profiles land between the same two neighbours", () => {
    const t = store(20);
    // 200 profiles with one name and ever smaller ids: each lands right before the previous one.
    for (let i = 200; i > 0; i--) {
      const c: StoredCustomer = {
        id: `B${String(i).padStart(4, "0")}`,
        created_at: "2024-01-01T00:00:00.000Z",
        updated_at: "2024-01-01T00:00:00.000Z",
        version: 0,
        creation_source: "THIRD_PARTY",
        given_name: "Bob",
        family_name: "Smith",
        email_address: `bob.smith.twin${i}@example.com`,
      };
      saveCustomer(t.db, M, c);
      t.all.set(c.id, c);
    }
    const filter = { email_address: { fuzzy: "smith" } };
    expect(pages(t.db, filter, "DEFAULT", "ASC", 9).ids).toEqual(reference(t.all, filter, "DEFAULT", "ASC"));
    const ranks = t.db.prepare("SELECT name_rank AS r FROM customers ORDER BY name_key, id").all() as { r: number }[];
    expect(ranks.every((x, i) => i === 0 || (ranks[i - 1] as { r: number }).r < x.r)).toBe(true);
    expectPagesInStep(t.db);
  });

  it("refuses fuzzy text longer than the limit, in words SQLite could not take", () => {
    const long = "a ".repeat(MAX_FUZZY_LENGTH);
    expect(() => compileQuery({ email_address: { fuzzy: long } }, "DEFAULT", "ASC")).toThrow(/at most 320/);
    const words = Array.from({ length: 70 }, (_, i) => `w${i}`).join(" ");
    expect(words.length).toBeLessThanOrEqual(MAX_FUZZY_LENGTH);
    expect(pages(s.db, { email_address: { fuzzy: words } }, "DEFAULT", "ASC", 10)).toEqual({ ids: [], count: 0 });
  });
});

describe("the demo seed's ranks", () => {
  it("follow the default order, so that the search index yields pages in it", () => {
    const db = storeWithMerchant(M);
    const random = rng(7);
    seedCustomers({
      db,
      rng: random,
      ids: seededIds(random),
      now: new Date("2026-01-01T00:00:00Z"),
      scale: 2,
      merchantId: M,
    });
    const byName = db.prepare("SELECT name_rank AS r FROM customers ORDER BY merchant_id, name_key, id").all() as {
      r: number;
    }[];
    expect(byName).toHaveLength(1000);
    expect(byName.every((x, i) => i === 0 || (byName[i - 1] as { r: number }).r < x.r)).toBe(true);
    const page = findPage(db, M, compileQuery({ email_address: { fuzzy: "smith" } }, "DEFAULT", "ASC"), undefined, 100);
    const want = db
      .prepare("SELECT id FROM customers WHERE email_key LIKE '%smith%' ORDER BY name_key, id LIMIT 100")
      .all()
      .map((r) => (r as { id: string }).id);
    expect(page.customers.map((c) => c.id)).toEqual(want);
    expectPagesInStep(db);
  });
});

describe("customer_pages on a store made before it", () => {
  it("is filled from the profiles already there when the store is brought up to date", () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
    for (const m of migrations.filter((m) => m.name !== "customer-pages")) {
      db.exec(m.sql);
      db.prepare("INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, 'then')").run(m.id, m.name);
    }
    db.prepare(
      "INSERT INTO merchants (id, business_name, country, language_code, currency, created_at) VALUES (?, 'x', 'US', 'en-US', 'USD', '2020-01-01T00:00:00Z')",
    ).run(M);
    const made = store(60);
    for (const c of made.all.values()) saveCustomer(db, M, c);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'customer_pages'").get()).toBeUndefined();
    expect(migrate(db)).toBe(1);
    expectPagesInStep(db);
    for (const filter of FILTERS) {
      const want = reference(made.all, filter, "DEFAULT", "ASC");
      expect({ filter, ids: pages(db, filter, "DEFAULT", "ASC", 5).ids }).toEqual({ filter, ids: want });
    }
    db.close();
  });
});

describe("a stored profile's id", () => {
  it("is read off the front of its JSON, and parsed out of any other text", () => {
    expect(recordId('{"id":"7AF2BMKE4ISK0YU9","given_name":"Ana"}')).toBe("7AF2BMKE4ISK0YU9");
    expect(recordId('{"given_name":"Ana","id":"LATER"}')).toBe("LATER");
    expect(recordId(JSON.stringify({ id: 'A"B\\C', note: "x" }))).toBe('A"B\\C');
    expect(recordId(JSON.stringify({ id: "Zoë-ü", address: { id: "not this" } }))).toBe("Zoë-ü");
  });
});

describe("the search index across a reset", () => {
  it("forgets profiles made since, and finds the seeded ones again", async () => {
    const { createService } = await import("../index.js");
    const svc = createService({ events: { publish() {} } });
    try {
      const q = compileQuery({ email_address: { fuzzy: "smith" } }, "DEFAULT", "ASC");
      const before = countMatching(svc.db, svc.merchantId, q);
      expect(before).toBeGreaterThan(0);
      saveCustomer(svc.db, svc.merchantId, {
        id: "NEWSMITH",
        created_at: "2025-01-01T00:00:00.000Z",
        updated_at: "2025-01-01T00:00:00.000Z",
        version: 0,
        creation_source: "THIRD_PARTY",
        email_address: "zz.smith@example.com",
      });
      expect(countMatching(svc.db, svc.merchantId, q)).toBe(before + 1);
      svc.reset();
      expect(countMatching(svc.db, svc.merchantId, q)).toBe(before);
      const page = findPage(svc.db, svc.merchantId, q, undefined, 100).customers.map((c) => c.id);
      expect(page).not.toContain("NEWSMITH");
      expect(page).toHaveLength(Math.min(before, 100));
      expectPagesInStep(svc.db);
    } finally {
      await svc.close();
    }
  });
});
