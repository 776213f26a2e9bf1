import { describe, expect, it } from "vitest";
import {
  addressLine,
  birthdayText,
  CUSTOMER_CSV_HEADER,
  cardExpired,
  cardLabel,
  classifyQuery,
  createdRange,
  customerCsvRow,
  customerName,
  describeQuery,
  groupNames,
  lookupQuery,
  parseSources,
  phoneDigits,
  searchRequest,
  sourceLabel,
} from "./customers.js";

const NY = "America/New_York";

describe("phone numbers", () => {
  it("the digits of a number, whatever its spelling", () => {
    expect(phoneDigits("(212) 555-0198")).toBe("2125550198");
  });
});

describe("classifyQuery", () => {
  it("emails, phones, reference ids and names", () => {
    expect(classifyQuery("")).toEqual({ kind: "all" });
    expect(classifyQuery("   ")).toEqual({ kind: "all" });
    // Begun but nothing to look for yet: a phone number's "(", an email's "@".
    expect(classifyQuery("(")).toEqual({ kind: "all" });
    expect(classifyQuery("@")).toEqual({ kind: "all" });
    expect(classifyQuery("email: .")).toEqual({ kind: "all" });
    expect(classifyQuery("ada@")).toEqual({ kind: "email", text: "ada@" });
    expect(classifyQuery("gmail.com")).toEqual({ kind: "email", text: "gmail.com" });
    expect(classifyQuery("(212) 555-0198")).toEqual({ kind: "phone", digits: "2125550198" });
    // The country's calling code is not part of what is looked for: numbers saved in any spelling match.
    expect(classifyQuery("+1 212", "US")).toEqual({ kind: "phone", digits: "212" });
    expect(classifyQuery("1-212-555", "US")).toEqual({ kind: "phone", digits: "212555" });
    expect(classifyQuery("2125550198")).toEqual({ kind: "phone", digits: "2125550198" });
    expect(classifyQuery("CRM-100123")).toEqual({ kind: "reference", text: "CRM-100123" });
    expect(classifyQuery("mary smith")).toEqual({ kind: "name", text: "mary smith" });
    expect(classifyQuery("O'Brien")).toEqual({ kind: "name", text: "O'Brien" });
    expect(classifyQuery("José")).toEqual({ kind: "name", text: "José" });
    expect(classifyQuery("12")).toEqual({ kind: "phone", digits: "12" });
  });

  it("a prefix says which outright", () => {
    expect(classifyQuery("ref: 1001")).toEqual({ kind: "reference", text: "1001" });
    expect(classifyQuery("email:smith")).toEqual({ kind: "email", text: "smith" });
    expect(classifyQuery("Phone: (212) 555")).toEqual({ kind: "phone", digits: "212555" });
    expect(classifyQuery("name: j.smith")).toEqual({ kind: "name", text: "j.smith" });
    expect(classifyQuery("email:")).toEqual({ kind: "all" });
    // Not a known prefix: the colon is part of the text.
    expect(classifyQuery("note:x")).toEqual({ kind: "name", text: "note:x" });
  });

  it("says what it searches, and that names are looked for in emails", () => {
    expect(describeQuery(classifyQuery("mary"))).toContain("email addresses");
    expect(describeQuery(classifyQuery("212 555"))).toBe("phone contains 212555");
    expect(describeQuery({ kind: "all" })).toBe("everyone");
  });
});

describe("lookupQuery", () => {
  it("no query and no filter: everyone by name, so no query at all", () => {
    const q = lookupQuery({ kind: "all" }, {}, "name", NY);
    expect(q).toEqual({ ok: true, value: {} });
    expect(searchRequest({}, 50, true)).toEqual({ limit: 50, count: true });
  });

  it("newest first when sorted by creation date", () => {
    expect(lookupQuery({ kind: "all" }, {}, "created", NY)).toEqual({
      ok: true,
      value: { sort: { field: "CREATED_AT", order: "DESC" } },
    });
  });

  it("each kind of query becomes its fuzzy filter; a phone goes as its national digits", () => {
    const f = (line: string) => {
      const r = lookupQuery(classifyQuery(line, "US"), {}, "name", NY, "US");
      return r.ok ? r.value.filter : r.problem;
    };
    expect(f("ada@ex")).toEqual({ email_address: { fuzzy: "ada@ex" } });
    expect(f("mary smith")).toEqual({ email_address: { fuzzy: "mary smith" } });
    expect(f("+1 (212) 555")).toEqual({ phone_number: { fuzzy: "212555" } });
    expect(f("CRM-1001")).toEqual({ reference_id: { fuzzy: "CRM-1001" } });
    expect(f("phone: none")).toBe("A phone search needs some digits.");
  });

  it("filters combine: group, creation source include/exclude, created-at range in local days", () => {
    const r = lookupQuery(
      classifyQuery("smith"),
      {
        groupId: "G1",
        sources: { rule: "EXCLUDE", values: ["IMPORT", "LOYALTY"] },
        createdFrom: "2026-01-01",
        createdTo: "2026-01-31",
      },
      "created",
      NY,
    );
    expect(r).toEqual({
      ok: true,
      value: {
        filter: {
          email_address: { fuzzy: "smith" },
          group_ids: { any: ["G1"] },
          creation_source: { rule: "EXCLUDE", values: ["IMPORT", "LOYALTY"] },
          created_at: { start_at: "2026-01-01T05:00:00.000Z", end_at: "2026-02-01T04:59:59.999Z" },
        },
        sort: { field: "CREATED_AT", order: "DESC" },
      },
    });
  });

  it("an explicit field and the search line cannot both set the same filter", () => {
    const r = lookupQuery(classifyQuery("ada@"), { email: "bob" }, "name", NY);
    expect(r.ok).toBe(false);
    const ok = lookupQuery(classifyQuery("mary"), { phone: "(212) 555" }, "name", NY);
    expect(ok).toEqual({
      ok: true,
      value: { filter: { email_address: { fuzzy: "mary" }, phone_number: { fuzzy: "212555" } } },
    });
    expect(lookupQuery({ kind: "all" }, { phone: "abc" }, "name", NY)).toEqual({
      ok: false,
      problem: "Not a phone number: abc.",
    });
  });

  it("an empty creation-source list is no filter", () => {
    expect(lookupQuery({ kind: "all" }, { sources: { rule: "INCLUDE", values: [] } }, "name", NY)).toEqual({
      ok: true,
      value: {},
    });
  });
});

describe("createdRange", () => {
  it("one open end, both, none; refuses bad dates and a backwards range", () => {
    expect(createdRange("2026-03-08", undefined, NY)).toEqual({
      ok: true,
      value: { start_at: "2026-03-08T05:00:00.000Z" },
    });
    // The day after the spring change starts at 04:00Z.
    expect(createdRange(undefined, "2026-03-08", NY)).toEqual({
      ok: true,
      value: { end_at: "2026-03-09T03:59:59.999Z" },
    });
    expect(createdRange("", " ", NY)).toEqual({ ok: true, value: undefined });
    expect(createdRange("2026-02-30", "", NY).ok).toBe(false);
    expect(createdRange("2026-03-02", "2026-03-01", NY)).toEqual({
      ok: false,
      problem: "The range starts (2026-03-02) after it ends (2026-03-01).",
    });
  });
});

describe("creation sources", () => {
  it("in words, and parsed by code or words", () => {
    expect(sourceLabel("INSTANT_PROFILE")).toBe("Instant profile");
    expect(parseSources("import, instant profile,LOYALTY")).toEqual({
      ok: true,
      value: ["IMPORT", "INSTANT_PROFILE", "LOYALTY"],
    });
    expect(parseSources("")).toEqual({ ok: true, value: [] });
    const bad = parseSources("import, walk in");
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.problem).toMatch(
      /^Not a creation source: walk in\. They are: Other, Appointments, .*Instant profile/,
    );
  });
});

describe("display", () => {
  it("a profile's name falls back to company, email, phone", () => {
    expect(customerName({ given_name: "Ada", family_name: "Byron" }, "US")).toBe("Ada Byron");
    expect(customerName({ family_name: "Byron" }, "US")).toBe("Byron");
    expect(customerName({ company_name: "Acme" }, "US")).toBe("Acme");
    expect(customerName({ email_address: "a@b.co" }, "US")).toBe("a@b.co");
    // A phone stands in for the name as the phone column shows it.
    expect(customerName({ phone_number: "+1-310-555-2986" }, "US")).toBe("(310) 555-2986");
    expect(customerName({ phone_number: "+44 20 7946 0958" }, "US")).toBe("+44 20 7946 0958");
    expect(customerName({ phone_number: "ask at desk" }, "US")).toBe("ask at desk");
    expect(customerName({ phone_number: "555" }, undefined)).toBe("555");
    expect(customerName({}, "US")).toBe("(no name)");
  });

  it("address on one line; birthday without a year", () => {
    expect(
      addressLine({
        address: {
          address_line_1: "1 Main St",
          locality: "Brooklyn",
          administrative_district_level_1: "NY",
          postal_code: "11201",
          country: "US",
        },
      }),
    ).toBe("1 Main St, Brooklyn, NY 11201, US");
    expect(addressLine({})).toBe("");
    expect(birthdayText("0000-07-04")).toBe("07-04");
    expect(birthdayText("1990-07-04")).toBe("1990-07-04");
  });

  it("group names in the groups' order; unknown ids kept", () => {
    const groups = [
      { id: "G1", name: "VIP" },
      { id: "G2", name: "Contractors" },
    ];
    expect(groupNames(["G2", "G1", "GX"], groups)).toEqual(["VIP", "Contractors", "GX"]);
    expect(groupNames(undefined, groups)).toEqual([]);
  });

  it("cards on file: brand, last 4, expiry, and whether it has expired", () => {
    const now = new Date("2026-05-15T12:00:00Z");
    expect(cardLabel({ card_brand: "VISA", last_4: "1234", exp_month: 4, exp_year: 2027 }, now)).toBe(
      "Visa ending 1234, expires 04/2027",
    );
    expect(cardLabel({ card_brand: "AMERICAN_EXPRESS", last_4: "0005", exp_month: 4, exp_year: 2026 }, now)).toBe(
      "American Express ending 0005, expired 04/2026",
    );
    expect(cardExpired({ exp_month: 5, exp_year: 2026 }, now)).toBe(false);
    expect(cardLabel({ card_brand: "OTHER_BRAND" }, now)).toBe("Other brand");
  });
});

describe("customerCsvRow", () => {
  it("one row per profile in the header's order", () => {
    const row = customerCsvRow({
      id: "C1",
      given_name: "Ada",
      email_address: "ada@x.co",
      address: { locality: "London", country: "GB" },
      group_ids: ["G1", "G2"],
      version: 2,
    });
    expect(row).toHaveLength(CUSTOMER_CSV_HEADER.length);
    expect(row[CUSTOMER_CSV_HEADER.indexOf("address")]).toBe("London, GB");
    expect(row[CUSTOMER_CSV_HEADER.indexOf("group_ids")]).toBe("G1;G2");
    expect(row[CUSTOMER_CSV_HEADER.indexOf("version")]).toBe("2");
    expect(row[CUSTOMER_CSV_HEADER.indexOf("family_name")]).toBe("");
  });
});
