import { describe, expect, it } from "vitest";
import type { Customer } from "../spec/generated/types.js";
import { duplicateGroups, duplicateKeys, duplicateMarks, markText } from "./customers-duplicates.js";

const people: Customer[] = [
  { id: "A", given_name: "Ann", family_name: "Lee", email_address: "ann@x.co", phone_number: "(212) 555-0198" },
  { id: "B", given_name: "Annie", family_name: "Lee", email_address: "ANN@x.co " },
  { id: "C", given_name: "Bob", phone_number: "+1 212 555 0198" },
  { id: "D", given_name: "Cy", phone_number: "212.555.0111", email_address: "cy@x.co" },
  { id: "E", company_name: "Acme", phone_number: "2125550111" },
  { id: "F", given_name: "Dee", phone_number: "555" },
];

describe("duplicateGroups", () => {
  it("groups shared emails (any case) and shared phone numbers (any spelling)", () => {
    const groups = duplicateGroups(people, "US");
    expect(groups.map((g) => [g.reason, g.key, g.customers.map((c) => c.id)])).toEqual([
      ["email", "ann@x.co", ["A", "B"]],
      ["phone", "12125550198", ["A", "C"]],
      ["phone", "12125550111", ["D", "E"]],
    ]);
    expect(groups[1]?.value).toBe("(212) 555-0198");
  });

  it("a profile met twice counts once; too short a phone is no key", () => {
    expect(duplicateGroups([people[0]!, people[0]!], "US")).toEqual([]);
    expect(duplicateKeys({ phone_number: "555" }, "US")).toEqual([]);
  });

  it("marks say why", () => {
    const marks = duplicateMarks(duplicateGroups(people, "US"));
    expect(marks.get("A")).toEqual(["email", "phone"]);
    expect(marks.get("C")).toEqual(["phone"]);
    expect(marks.has("F")).toBe(false);
    expect(markText(marks.get("A"))).toBe("same email and phone");
    expect(markText(undefined)).toBe("");
  });
});
