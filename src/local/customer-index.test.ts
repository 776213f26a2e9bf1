import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { customerSearchOf, describeCustomerSearch } from "../domain/customer-search.js";
import type { Customer } from "../spec/generated/types.js";
import { COUNT_CAP, type CustomerIndex, customerIndexPath, openCustomerIndex } from "./customer-index.js";

const people: Customer[] = [
  {
    id: "C1",
    given_name: "Grace",
    family_name: "Hopper",
    nickname: "Amazing",
    email_address: "grace@navy.mil",
    phone_number: "+12125554881",
    reference_id: "CRM-100123",
    group_ids: ["VIP"],
    creation_source: "THIRD_PARTY",
    created_at: "2024-03-01T10:00:00Z",
    updated_at: "2024-03-01T10:00:00Z",
    version: 1,
  },
  {
    id: "C2",
    company_name: "Summit Roofing",
    email_address: "office@summitroofing.example",
    phone_number: "(845) 555-0199",
    created_at: "2025-06-01T10:00:00Z",
    updated_at: "2025-06-02T10:00:00Z",
    version: 4,
  },
  {
    id: "C3",
    given_name: "José",
    family_name: "Núñez",
    phone_number: "+1-212-555-0100",
    creation_source: "DIRECTORY",
    created_at: "2023-01-01T00:00:00Z",
    updated_at: "2023-01-01T00:00:00Z",
    version: 2,
  },
  { id: "C4", given_name: "Bo", family_name: "Li", created_at: "2022-01-01T00:00:00Z", version: 0 },
];

let index: CustomerIndex | undefined;
afterEach(() => index?.close());

async function filled(): Promise<CustomerIndex> {
  index = await openCustomerIndex(":memory:");
  index.upsert(people);
  return index;
}

const ids = (i: CustomerIndex, line: string, nameOnly = false) =>
  i
    .search(customerSearchOf(line, "US", nameOnly), {}, "name", { offset: 0, limit: 50 })
    .rows.map((c) => c.id)
    .sort();

describe("the customer index", () => {
  it("finds a profile by part of any name, company, nickname, email, phone or reference id", async () => {
    const i = await filled();
    expect(ids(i, "summit")).toEqual(["C2"]);
    expect(ids(i, "summit roofing")).toEqual(["C2"]);
    expect(ids(i, "ROOF")).toEqual(["C2"]);
    expect(ids(i, "hopp")).toEqual(["C1"]);
    expect(ids(i, "amaz")).toEqual(["C1"]);
    expect(ids(i, "navy.mil")).toEqual(["C1"]);
    expect(ids(i, "100123")).toEqual(["C1"]);
    expect(ids(i, "crm-1001")).toEqual(["C1"]);
    // Accents and case aside, and words of one or two letters too.
    expect(ids(i, "jose nunez")).toEqual(["C3"]);
    expect(ids(i, "Li")).toEqual(["C4"]);
    expect(ids(i, "bo li")).toEqual(["C4"]);
    expect(ids(i, "grace nobody")).toEqual([]);
    expect(ids(i, "")).toEqual(["C1", "C2", "C3", "C4"]);
  });

  it("finds a phone number by any spelling, whether saved as E.164 or as typed", async () => {
    const i = await filled();
    for (const typed of ["(212) 555-4881", "212.555.4881", "+1 212 555 4881", "1-212-555-4881", "555-488"]) {
      expect(ids(i, typed), typed).toEqual(["C1"]);
    }
    for (const typed of ["+1 845 555 0199", "845-555-0199", "(845) 555"]) expect(ids(i, typed), typed).toEqual(["C2"]);
    expect(ids(i, "+1 212 555")).toEqual(["C1", "C3"]);
  });

  it("keeps to names with --name (name:), and says where it looked", async () => {
    const i = await filled();
    expect(ids(i, "summit", true)).toEqual(["C2"]);
    expect(ids(i, "navy", true)).toEqual([]);
    expect(ids(i, "name: navy")).toEqual([]);
    expect(ids(i, "email: navy")).toEqual(["C1"]);
    expect(describeCustomerSearch(customerSearchOf("summit roofing", "US"))).toBe(
      "“summit roofing” in names, emails, phones, reference ids",
    );
    expect(describeCustomerSearch(customerSearchOf("summit", "US", true))).toBe("“summit” in names and companies");
    expect(describeCustomerSearch(customerSearchOf("+1 212 555", "US"))).toBe("phone numbers containing 212555");
    expect(describeCustomerSearch(customerSearchOf("Summit  Roofing", "US"))).toBe(
      "“Summit Roofing” in names, emails, phones, reference ids",
    );
    expect(describeCustomerSearch(customerSearchOf("", "US"))).toBe("everyone");
  });

  it("filters by group, creation source and creation time, by name or newest first, with the total", async () => {
    const i = await filled();
    const all = { offset: 0, limit: 50 };
    const everyone = customerSearchOf("", "US");
    expect(i.search(everyone, { groupId: "VIP" }, "name", all).rows.map((c) => c.id)).toEqual(["C1"]);
    const third = { rule: "INCLUDE" as const, values: ["THIRD_PARTY" as const] };
    expect(i.search(everyone, { sources: third }, "name", all).rows.map((c) => c.id)).toEqual(["C1"]);
    expect(i.search(everyone, { sources: { ...third, rule: "EXCLUDE" } }, "name", all).rows.map((c) => c.id)).toEqual([
      "C4",
      "C3",
      "C2",
    ]);
    expect(
      i.search(everyone, { createdFrom: "2023-06-01T00:00:00Z", createdTo: "2025-01-01T00:00:00Z" }, "name", all).rows,
    ).toMatchObject([{ id: "C1" }]);
    // By name: Bo Li, Grace Hopper, José Núñez, then the company.
    expect(i.search(everyone, {}, "name", all).rows.map((c) => c.id)).toEqual(["C4", "C1", "C3", "C2"]);
    expect(i.search(everyone, {}, "created", all).rows.map((c) => c.id)).toEqual(["C2", "C1", "C3", "C4"]);
    const page = i.search(everyone, {}, "name", { offset: 1, limit: 2 });
    expect(page).toMatchObject({ total: 4, rows: [{ id: "C1" }, { id: "C3" }] });
  });

  it("gives back the profile as listed, keeps the newer version, and forgets a removed one", async () => {
    const i = await filled();
    expect(i.get("C1")).toEqual(people[0]);
    i.upsert([
      { ...people[1], company_name: "Summit Roofing & Gutters", version: 5, updated_at: "2025-07-01T00:00:00Z" },
    ]);
    expect(ids(i, "gutters")).toEqual(["C2"]);
    // An older copy read later (a lagging search) does not win over the newer one.
    i.upsert([{ ...people[1], version: 3 }]);
    expect(i.get("C2")?.company_name).toBe("Summit Roofing & Gutters");
    expect(i.progress().newestUpdate).toBe("2025-07-01T00:00:00Z");
    i.remove(["C2"]);
    expect(ids(i, "summit")).toEqual([]);
    expect(i.size()).toBe(3);
  });

  it("remembers how far the fill got, and when it is done", async () => {
    const i = await filled();
    expect(i.progress()).toMatchObject({ filled: false, fillCursor: undefined, expected: undefined });
    i.fillReached("page-2", 1000);
    expect(i.progress()).toMatchObject({ filled: false, fillCursor: "page-2", expected: 1000 });
    i.fillReached(undefined, undefined);
    expect(i.progress()).toMatchObject({ filled: true, fillCursor: undefined, expected: 1000 });
    i.clear();
    expect(i.progress().filled).toBe(false);
    expect(i.size()).toBe(0);
  });

  it("counts matches exactly up to 10,000, says when there are more, and pages by name either way", async () => {
    index = await openCustomerIndex(":memory:");
    const many: Customer[] = Array.from({ length: COUNT_CAP + 50 }, (_, i) => ({
      id: `M${String(i).padStart(6, "0")}`,
      given_name: `Anna${String(i).padStart(6, "0")}`,
      family_name: i % 2 ? "Odd" : "Even",
    }));
    index.upsert(many);
    const page = { offset: 0, limit: 3 };
    // A first key that matches everyone: counting stops at the cap, the first page is the first by name.
    const broad = index.search(customerSearchOf("a", "US"), {}, "name", page);
    expect(broad).toMatchObject({ total: COUNT_CAP, exact: false });
    expect(broad.rows.map((c) => c.id)).toEqual(["M000000", "M000001", "M000002"]);
    const odd = index.search(customerSearchOf("odd", "US"), {}, "name", { offset: 10, limit: 2 });
    expect(odd).toMatchObject({ total: (COUNT_CAP + 50) / 2, exact: true });
    expect(odd.rows.map((c) => c.id)).toEqual(["M000021", "M000023"]);
    expect(index.search(customerSearchOf("", "US"), {}, "name", page)).toMatchObject({
      total: COUNT_CAP + 50,
      exact: true,
    });
  });

  it("belongs to one seller: another's profiles are dropped when a new seller claims it", async () => {
    const i = await filled();
    expect(i.claim("M1")).toBe(false);
    expect(i.claim("M1")).toBe(false);
    expect(i.size()).toBe(4);
    expect(i.claim("M2")).toBe(true);
    expect(i.size()).toBe(0);
    expect(i.progress().filled).toBe(false);
  });

  it("is a file only its owner can read, named after its store", async () => {
    const dir = mkdtempSync(join(tmpdir(), "backroom-index-"));
    const path = customerIndexPath(dir, "demo-3f2a");
    expect(path).toBe(join(dir, "customers-demo-3f2a.db"));
    index = await openCustomerIndex(path);
    index.upsert(people);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("lists the named and companies first, then those known only by an email, then only by a phone", async () => {
    const i = await filled();
    i.upsert([
      { id: "P1", phone_number: "+13105552986", created_at: "2024-01-01T00:00:00Z", version: 1 },
      { id: "E1", email_address: "ann@example.com", created_at: "2024-01-01T00:00:00Z", version: 1 },
      { id: "N1", given_name: "Zoe", created_at: "2024-01-01T00:00:00Z", version: 1 },
    ]);
    const everyone = customerSearchOf("", "US");
    const order = i.search(everyone, {}, "name", { offset: 0, limit: 50 }).rows.map((c) => c.id);
    expect(order).toEqual(["C4", "C1", "C3", "C2", "N1", "E1", "P1"]);
  });

  it("orders an index written before by the same rule, once opened", async () => {
    const dir = mkdtempSync(join(tmpdir(), "backroom-index-"));
    const path = customerIndexPath(dir, "demo-3f2a");
    const first = await openCustomerIndex(path);
    first.upsert([
      { id: "P1", phone_number: "+13105552986", version: 1 },
      { id: "N1", given_name: "Aisha", version: 1 },
    ]);
    first.close();
    // As version 1 wrote it: the phone's own text, which sorts before any letter.
    const old = new Database(path);
    old.prepare("UPDATE profiles SET sort_name = lower(coalesce(nullif(given, ''), phone))").run();
    old.pragma("user_version = 1");
    old.close();
    index = await openCustomerIndex(path);
    const everyone = customerSearchOf("", "US");
    expect(index.search(everyone, {}, "name", { offset: 0, limit: 50 }).rows.map((c) => c.id)).toEqual(["N1", "P1"]);
    // Words are still found after the reorder: the trigger that indexes a changed profile is back.
    index.upsert([{ id: "N1", given_name: "Beatrice", version: 2 }]);
    expect(ids(index, "beatr")).toEqual(["N1"]);
  });
});
