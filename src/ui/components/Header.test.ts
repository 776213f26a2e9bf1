import { describe, expect, it } from "vitest";
import { connectionText } from "./Header.js";

describe("the header's connection part", () => {
  const since = new Date("2026-11-27T03:24:00Z");
  const offline = { state: "offline", since, triedAt: since, retrying: false, problem: "" } as const;

  it("says since when in the store's time once the store is known", () => {
    expect(connectionText(offline, "signed-in", "America/Los_Angeles", "Europe/Berlin").text).toBe(
      "○ offline (since 19:24)",
    );
  });

  it("says it in this machine's time while no location is known, not in UTC", () => {
    expect(connectionText(offline, "signed-in", undefined, "America/New_York")).toEqual({
      text: "○ offline (since 22:24)",
      tone: "bad",
    });
    expect(connectionText({ ...offline, retrying: true }, "signed-in", undefined, "Asia/Kolkata").text).toBe(
      "○ offline (since 08:54, retrying)",
    );
  });
});
