import { describe, expect, it } from "vitest";
import type { Customer } from "../spec/generated/types.js";
import {
  checkProfile,
  conflictDiff,
  conflictSide,
  createBody,
  defaultReapply,
  IDENTIFYING_RULE,
  interfaceBirthday,
  normalizeBirthday,
  profileProblem,
  profileValues,
  reapplyValues,
  updateBody,
} from "./customers-profile.js";

const grace: Customer = {
  id: "C1",
  given_name: "Grace",
  family_name: "Hopper",
  nickname: "Amazing",
  email_address: "grace@navy.mil",
  phone_number: "+1-212-555-0198",
  address: {
    address_line_1: "1 Navy Way",
    locality: "Arlington",
    administrative_district_level_1: "VA",
    country: "US",
  },
  birthday: "0000-12-09",
  note: "Prefers a call.",
  version: 3,
};

describe("the rule of a new profile", () => {
  it("needs one of given name, family name, company, email, phone — said before anything is sent", () => {
    expect(checkProfile({ note: "who?", nickname: "x" })).toBe(IDENTIFYING_RULE);
    expect(checkProfile({ given_name: "   " })).toBe(IDENTIFYING_RULE);
    for (const f of ["given_name", "family_name", "company_name", "email_address"] as const) {
      expect(checkProfile({ [f]: f === "email_address" ? "a@b.co" : "X" }), f).toBeUndefined();
    }
    expect(checkProfile({ phone_number: "212 555 0198" }, "US")).toBeUndefined();
    expect(createBody({ note: "n" })).toEqual({ ok: false, problem: IDENTIFYING_RULE });
  });

  it("checks email, phone, birthday, country and lengths", () => {
    expect(checkProfile({ given_name: "A", email_address: "nope" })).toContain("not an email address");
    expect(checkProfile({ given_name: "A", phone_number: "555-01" }, "US")).toBe(
      "“555-01” is too short for a US phone number.",
    );
    expect(checkProfile({ given_name: "A", phone_number: "call me" }, "US")).toContain("not a phone number");
    expect(checkProfile({ given_name: "A", birthday: "1990-02-30" })).toContain("not a birthday");
    expect(checkProfile({ given_name: "A", birthday: "02-29" })).toBeUndefined();
    expect(checkProfile({ given_name: "A", country: "XX" })).toContain("not a country");
    expect(checkProfile({ given_name: "A", country: "us" })).toBeUndefined();
    expect(checkProfile({ given_name: "A", nickname: "n".repeat(101) })).toBe(
      "Nickname is too long: at most 100 characters.",
    );
  });

  it("names the field each problem is about, so the form can go there; the identifying rule names none", () => {
    const field = (v: Parameters<typeof profileProblem>[0]) => {
      const p = profileProblem(v, "US");
      return typeof p === "object" ? p.field : p;
    };
    expect(field({ given_name: "A", email_address: "nope" })).toBe("email_address");
    expect(field({ given_name: "A", phone_number: "555-01" })).toBe("phone_number");
    expect(field({ given_name: "A", birthday: "1990-02-30" })).toBe("birthday");
    expect(field({ given_name: "A", country: "XX" })).toBe("country");
    expect(field({ given_name: "A", nickname: "n".repeat(101) })).toBe("nickname");
    expect(field({ note: "who?" })).toBe(IDENTIFYING_RULE);
    expect(createBody({ given_name: "A", email_address: "nope" })).toEqual({
      ok: false,
      problem: "“nope” is not an email address.",
      field: "email_address",
    });
    expect(updateBody(grace, { ...profileValues(grace), birthday: "13/45" })).toMatchObject({ field: "birthday" });
  });

  it("birthdays are stored with year 0000 when left out, month and day written with - or /", () => {
    expect(normalizeBirthday("07-04")).toBe("0000-07-04");
    expect(normalizeBirthday("1990-07-04")).toBe("1990-07-04");
    expect(normalizeBirthday("03/15")).toBe("0000-03-15");
    expect(normalizeBirthday("03-15")).toBe("0000-03-15");
    expect(normalizeBirthday("3/5")).toBe("0000-03-05");
    expect(normalizeBirthday("03/15/1990")).toBe("1990-03-15");
    expect(normalizeBirthday("1990/03/15")).toBe("1990-03-15");
    expect(normalizeBirthday("13-01")).toBeUndefined();
    expect(normalizeBirthday("15/03")).toBeUndefined();
    expect(normalizeBirthday("02/30/1990")).toBeUndefined();
    // The interface itself (and the local service) takes only YYYY-MM-DD and MM-DD: the form sends those.
    expect(interfaceBirthday("1990-03-15")).toBe("1990-03-15");
    expect(interfaceBirthday("03-15")).toBe("0000-03-15");
    expect(interfaceBirthday("2024/01/10")).toBeUndefined();
    expect(interfaceBirthday("03/15")).toBeUndefined();
    expect(checkProfile({ given_name: "A", birthday: "31.12" })).toBe(
      "“31.12” is not a birthday: write MM/DD or MM-DD, with the year MM/DD/YYYY or YYYY-MM-DD.",
    );
  });

  it("saves a phone number in E.164 however it was typed", () => {
    for (const typed of ["(212) 555-4881", "212.555.4881", "+1 212 555 4881", "1-212-555-4881"]) {
      expect(createBody({ given_name: "Ada", phone_number: typed }, "US"), typed).toEqual({
        ok: true,
        value: { given_name: "Ada", phone_number: "+12125554881" },
      });
    }
  });

  it("the create body leaves empty fields out, trims, and gathers the address", () => {
    expect(
      createBody({ given_name: " Ada ", email_address: "", locality: "London", country: "gb", birthday: "12-10" }),
    ).toEqual({
      ok: true,
      value: { given_name: "Ada", birthday: "0000-12-10", address: { locality: "London", country: "GB" } },
    });
  });
});

describe("updateBody", () => {
  it("shows the phone number in the national format; unchanged it is not sent, changed it goes in E.164", () => {
    expect(profileValues(grace, "US").phone_number).toBe("(212) 555-0198");
    expect(updateBody(grace, profileValues(grace, "US"), "US")).toEqual({ ok: false, problem: "Nothing changed." });
    expect(updateBody(grace, { ...profileValues(grace, "US"), phone_number: "212.555.0199" }, "US")).toEqual({
      ok: true,
      value: { phone_number: "+12125550199", version: 3 },
    });
    expect(updateBody(grace, { ...profileValues(grace, "US"), phone_number: "212 555" }, "US")).toEqual({
      ok: false,
      problem: "“212 555” is too short for a US phone number.",
      field: "phone_number",
    });
  });

  it("sends only what changed, removes a cleared field with null, and carries the version", () => {
    const v = { ...profileValues(grace), family_name: "Murray Hopper", nickname: "" };
    expect(updateBody(grace, v)).toEqual({
      ok: true,
      value: { family_name: "Murray Hopper", nickname: null, version: 3 },
    });
  });

  it("an address changes part by part; cleared entirely it is removed", () => {
    const moved = { ...profileValues(grace), locality: "Washington", administrative_district_level_1: "" };
    expect(updateBody(grace, moved)).toEqual({
      ok: true,
      value: { address: { locality: "Washington", administrative_district_level_1: null }, version: 3 },
    });
    const gone = {
      ...profileValues(grace),
      address_line_1: "",
      locality: "",
      administrative_district_level_1: "",
      country: "",
    };
    expect(updateBody(grace, gone)).toEqual({ ok: true, value: { address: null, version: 3 } });
  });

  it("nothing changed, or the rule broken, sends nothing", () => {
    expect(updateBody(grace, profileValues(grace))).toEqual({ ok: false, problem: "Nothing changed." });
    // An unchanged birthday without a year reads MM-DD in the form and is not sent again.
    expect(updateBody(grace, { ...profileValues(grace), note: "x" })).toEqual({
      ok: true,
      value: { note: "x", version: 3 },
    });
    const blank = { ...profileValues(), note: "x" };
    expect(updateBody({ id: "C2", given_name: "A", version: 0 }, blank)).toEqual({
      ok: false,
      problem: IDENTIFYING_RULE,
    });
  });
});

describe("a version conflict", () => {
  const base = grace;
  const theirs: Customer = { ...grace, nickname: "Grandma COBOL", note: "Call after 5.", version: 4 };
  const mine = { ...profileValues(grace), family_name: "Murray Hopper", note: "Email only." };

  it("shows every field someone changed, and who", () => {
    const diff = conflictDiff(base, mine, theirs);
    expect(diff.map((d) => [d.field, d.change])).toEqual([
      ["family_name", "mine"],
      ["nickname", "theirs"],
      ["note", "both"],
    ]);
    expect(diff[2]).toMatchObject({ base: "Prefers a call.", mine: "Email only.", theirs: "Call after 5." });
  });

  it("re-applies the picked fields of mine on their version, leaving their other changes alone", () => {
    const diff = conflictDiff(base, mine, theirs);
    const picked = defaultReapply(diff);
    expect(picked).toEqual(["family_name", "note"]);
    const values = reapplyValues(theirs, mine, ["family_name"]);
    expect(updateBody(theirs, values)).toEqual({ ok: true, value: { family_name: "Murray Hopper", version: 4 } });
    const both = reapplyValues(theirs, mine, picked);
    expect(updateBody(theirs, both)).toEqual({
      ok: true,
      value: { family_name: "Murray Hopper", note: "Email only.", version: 4 },
    });
  });

  it("says a side removed a field only when it had a value, and shows a field left empty as empty", () => {
    // A profile with a phone alone: the manager adds a given name while a colleague adds a family name.
    const bare: Customer = { id: "C3", phone_number: "+1-310-555-2986", version: 2 };
    const diff = conflictDiff(
      bare,
      { ...profileValues(bare), given_name: "Ada" },
      { ...bare, family_name: "Lovelace" },
    );
    const cells = diff.map((d) => [d.field, conflictSide(d, "mine"), conflictSide(d, "theirs")]);
    expect(cells).toEqual([
      ["given_name", "Ada", "—"],
      ["family_name", "—", "Lovelace"],
    ]);
    // A value taken out is "(removed)" on the side that took it out.
    const removed = conflictDiff(base, { ...mine, nickname: "" }, { ...theirs, nickname: "Amazing", note: "" });
    expect(removed.find((d) => d.field === "nickname")).toMatchObject({ change: "mine" });
    expect(removed.map((d) => [d.field, conflictSide(d, "mine"), conflictSide(d, "theirs")])).toEqual([
      ["family_name", "Murray Hopper", "Hopper"],
      ["nickname", "(removed)", "Amazing"],
      ["note", "Email only.", "(removed)"],
    ]);
  });

  it("a change both made alike is not offered again", () => {
    const same = { ...theirs, family_name: "Murray Hopper" };
    const diff = conflictDiff(base, mine, same);
    expect(diff.find((d) => d.field === "family_name")?.change).toBe("both-same");
    expect(defaultReapply(diff)).toEqual(["note"]);
  });
});
