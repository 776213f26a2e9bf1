import { describe, expect, it } from "vitest";
import { parseBreakTypeInput } from "./break-types-slice.js";

describe("parseBreakTypeInput", () => {
  it("reads a name, whole minutes and y or n", () => {
    expect(parseBreakTypeInput({ name: " Tea ", minutes: "10", paid: "Y" })).toEqual({
      ok: true,
      value: { break_name: "Tea", expected_duration: "PT10M", is_paid: true },
    });
  });

  it("names the field each problem is about, so the form can go there", () => {
    expect(parseBreakTypeInput({ name: " ", minutes: "10", paid: "n" })).toEqual({
      ok: false,
      problem: "A break type needs a name.",
      field: "name",
    });
    expect(parseBreakTypeInput({ name: "Tea", minutes: "1o", paid: "n" })).toMatchObject({ field: "minutes" });
    expect(parseBreakTypeInput({ name: "Tea", minutes: "1441", paid: "n" })).toMatchObject({ field: "minutes" });
    expect(parseBreakTypeInput({ name: "Tea", minutes: "10", paid: "maybe" })).toEqual({
      ok: false,
      problem: "Paid is y or n.",
      field: "paid",
    });
  });
});
