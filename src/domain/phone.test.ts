import { describe, expect, it } from "vitest";
import { parsePhone, phoneKey, phoneSearchDigits, showPhone } from "./phone.js";

describe("parsePhone", () => {
  it("saves one E.164 value for the same number typed four ways, and shows it the national way", () => {
    const ways = ["(212) 555-4881", "212.555.4881", "+1 212 555 4881", "1-212-555-4881"];
    for (const typed of ways) {
      expect(parsePhone(typed, "US"), typed).toEqual({ ok: true, e164: "+12125554881", national: "(212) 555-4881" });
    }
    // A number of another country, written with its code, is kept in the international format.
    expect(parsePhone("+44 20 7946 0958", "US")).toEqual({
      ok: true,
      e164: "+442079460958",
      national: "+44 20 7946 0958",
    });
    // In a British store the same number is national, trunk 0 and all.
    expect(parsePhone("020 7946 0958", "GB")).toEqual({ ok: true, e164: "+442079460958", national: "020 7946 0958" });
  });

  it("refuses a number that cannot exist, saying why", () => {
    const problem = (text: string, country: string | null = "US") => {
      const r = parsePhone(text, country ?? undefined);
      return r.ok ? "accepted" : r.problem;
    };
    expect(problem("212 555 48")).toBe("“212 555 48” is too short for a US phone number.");
    expect(problem("212 555 488 123")).toBe("“212 555 488 123” is too long for a US phone number.");
    expect(problem("call 212 555 4881")).toBe(
      "“call 212 555 4881” is not a phone number: use digits, with + ( ) - . or spaces.",
    );
    expect(problem("+999 1234 5678")).toBe("“+999 1234 5678” starts with no country's calling code.");
    expect(problem("212 555 4881", null)).toMatch(/needs its country: write it with \+ and the country code/);
    expect(problem("(999) 555-4881")).toBe("“(999) 555-4881” is not a US phone number in use.");
    expect(problem("  ")).toBe("A phone number needs digits.");
  });
});

describe("showPhone", () => {
  it("shows the store's numbers nationally, others internationally, and what it cannot read as saved", () => {
    expect(showPhone("+12125554881", "US")).toBe("(212) 555-4881");
    expect(showPhone("+1-845-555-0142", "US")).toBe("(845) 555-0142");
    expect(showPhone("+442079460958", "US")).toBe("+44 20 7946 0958");
    expect(showPhone("ext 12", "US")).toBe("ext 12");
  });
});

describe("phone search and keys", () => {
  it("looks for the national digits however the number (or its start) is typed", () => {
    for (const typed of ["+1 212 555", "1-212-555", "(212) 555", "212.555"]) {
      expect(phoneSearchDigits(typed, "US"), typed).toBe("212555");
    }
    expect(phoneSearchDigits("020 7946", "GB")).toBe("207946");
    expect(phoneSearchDigits("4881", "US")).toBe("4881");
  });

  it("gives one key per number, whatever the spelling, and none for a number too short", () => {
    expect(phoneKey("(212) 555-0198", "US")).toBe("12125550198");
    expect(phoneKey("+1 212 555 0198", "US")).toBe("12125550198");
    expect(phoneKey("020 7946 0958", "GB")).toBe("442079460958");
    expect(phoneKey("0044 20 7946 0958", "GB")).toBe("442079460958");
    expect(phoneKey("555", "US")).toBeUndefined();
    expect(phoneKey("", "US")).toBeUndefined();
  });
});
