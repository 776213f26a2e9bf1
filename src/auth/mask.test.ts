import { describe, expect, it } from "vitest";
import { maskToken, redact } from "./mask.js";

describe("maskToken", () => {
  it("keeps only the last four characters of a long token", () => {
    expect(maskToken("EAAAl1234567890abcdWXYZ")).toBe("…WXYZ");
  });
  it("hides short values entirely and names a missing one", () => {
    expect(maskToken("abc123")).toBe("****");
    expect(maskToken(undefined)).toBe("(none)");
  });
});

describe("redact", () => {
  it("masks every occurrence of each secret", () => {
    const secret = "sq0atp-secret-value-9876";
    expect(redact(`bad ${secret} and ${secret}`, [secret, undefined])).toBe("bad …9876 and …9876");
  });
});
