import { describe, expect, it } from "vitest";
import {
  checkEventTypes,
  DEFAULT_API_VERSION,
  filterEventTypes,
  isLoopbackHost,
  matchesWords,
  parseApiVersion,
  parseNotificationUrl,
  parseSubscriptionName,
  readNotification,
} from "./webhooks.js";

const problem = (r: { ok: boolean; problem?: string }) => (r.ok ? undefined : r.problem);

describe("parseNotificationUrl", () => {
  it("takes https anywhere, kept exactly as typed (trimmed)", () => {
    expect(parseNotificationUrl("  https://hooks.example.com/square?x=1 ")).toEqual({
      ok: true,
      value: "https://hooks.example.com/square?x=1",
    });
  });

  it("takes plain http only to this machine", () => {
    for (const u of [
      "http://127.0.0.1:8123/hook",
      "http://localhost:9000/",
      "http://[::1]:8080/h",
      "http://127.5.0.9/",
    ]) {
      expect(parseNotificationUrl(u)).toEqual({ ok: true, value: u });
    }
    expect(problem(parseNotificationUrl("http://hooks.example.com/square"))).toMatch(
      /unencrypted to hooks\.example\.com: use https, or http only for a receiver on this machine/,
    );
    expect(problem(parseNotificationUrl("http://192.168.1.5/hook"))).toMatch(/unencrypted/);
    expect(problem(parseNotificationUrl("http://127.0.0.1.example.com/hook"))).toMatch(/unencrypted/);
  });

  it("refuses what is not a web address, other schemes, credentials and fragments, each with its reason", () => {
    expect(problem(parseNotificationUrl(""))).toMatch(/A notification URL is needed/);
    expect(problem(parseNotificationUrl("not-an-address"))).toMatch(/is not a web address/);
    expect(problem(parseNotificationUrl("ftp://example.com/x"))).toMatch(/not ftp:\/\//);
    expect(problem(parseNotificationUrl("https://me:pw@example.com/x"))).toMatch(/user name and password/);
    expect(problem(parseNotificationUrl("https://example.com/x#top"))).toMatch(/#part/);
  });

  it("names the address to type when the scheme was left off, host:port included", () => {
    // new URL() reads "localhost:" as a scheme: the manager saw "not localhost://."
    expect(problem(parseNotificationUrl("  localhost:47123/square "))).toBe(
      'Start the address with http:// for a receiver on this machine: "http://localhost:47123/square".',
    );
    expect(problem(parseNotificationUrl("127.0.0.1:8123/hook"))).toBe(
      'Start the address with http:// for a receiver on this machine: "http://127.0.0.1:8123/hook".',
    );
    expect(problem(parseNotificationUrl("hooks.example.com:8443/square"))).toBe(
      'Start the address with https://: "https://hooks.example.com:8443/square".',
    );
    expect(problem(parseNotificationUrl("hooks.example.com/square"))).toBe(
      'Start the address with https://: "https://hooks.example.com/square".',
    );
    expect(problem(parseNotificationUrl("mailto:me@example.com"))).toMatch(/not mailto:/);
  });

  it("refuses a space inside the address, which the receiver would never see as registered", () => {
    expect(problem(parseNotificationUrl("https://hooks.example.com/my hook"))).toBe(
      'A web address has no spaces; this one has one after "https://hooks.example.com/my".',
    );
  });
});

describe("isLoopbackHost", () => {
  it("knows this machine's names and no other", () => {
    expect(isLoopbackHost("LOCALHOST")).toBe(true);
    expect(isLoopbackHost("api.localhost")).toBe(true);
    expect(isLoopbackHost("127.255.0.1")).toBe(true);
    expect(isLoopbackHost("127.0.0.256")).toBe(false);
    expect(isLoopbackHost("128.0.0.1")).toBe(false);
    expect(isLoopbackHost("localhost.example.com")).toBe(false);
  });
});

describe("parseApiVersion", () => {
  it("is a real day in YYYY-MM-DD; empty is the client's version", () => {
    expect(parseApiVersion("")).toEqual({ ok: true, value: DEFAULT_API_VERSION });
    expect(parseApiVersion(" 2021-02-26 ")).toEqual({ ok: true, value: "2021-02-26" });
    expect(problem(parseApiVersion("2021-2-26"))).toMatch(/YYYY-MM-DD/);
    expect(problem(parseApiVersion("latest"))).toMatch(/YYYY-MM-DD/);
    expect(problem(parseApiVersion("2021-02-30"))).toBe("2021-02-30 is not a day of the calendar.");
  });

  it("refuses a date after today", () => {
    const today = new Date("2026-03-01T12:00:00Z");
    expect(parseApiVersion("2026-03-01", today).ok).toBe(true);
    expect(problem(parseApiVersion("2026-03-02", today))).toMatch(/in the future/);
  });
});

describe("parseSubscriptionName", () => {
  it("is optional and at most 64 characters", () => {
    expect(parseSubscriptionName("  ")).toEqual({ ok: true, value: undefined });
    expect(parseSubscriptionName(" Till events ")).toEqual({ ok: true, value: "Till events" });
    expect(problem(parseSubscriptionName("x".repeat(65)))).toMatch(/at most 64 characters \(this one has 65\)/);
  });
});

describe("filterEventTypes", () => {
  const types = [
    "customer.created",
    "customer.deleted",
    "labor.shift.created",
    "labor.shift.updated",
    "gift_card.activity.created",
    "gift_card.updated",
  ];

  it("matches every typed word at the start of a word of the type, in any order", () => {
    expect(filterEventTypes(types, "shift created")).toEqual(["labor.shift.created"]);
    expect(filterEventTypes(types, "created shift")).toEqual(["labor.shift.created"]);
    expect(filterEventTypes(types, "gift act")).toEqual(["gift_card.activity.created"]);
    expect(filterEventTypes(types, "cust del")).toEqual(["customer.deleted"]);
    expect(filterEventTypes(types, "CARD")).toEqual(["gift_card.activity.created", "gift_card.updated"]);
  });

  it("reads the words of an address too", () => {
    expect(matchesWords("Till events http://127.0.0.1:8123/hook", "hook till")).toBe(true);
    expect(matchesWords("https://hooks.example.com/square", "example square")).toBe(true);
    expect(matchesWords("https://hooks.example.com/square", "ample")).toBe(false);
  });

  it("keeps the list for an empty filter and finds nothing for a word in the middle of one", () => {
    expect(filterEventTypes(types, "  ")).toEqual(types);
    expect(filterEventTypes(types, "hift")).toEqual([]);
  });
});

describe("checkEventTypes", () => {
  it("needs one, and only types the version offers", () => {
    expect(checkEventTypes([], ["a.b"], "2024-01-18")).toMatch(/at least one/);
    expect(checkEventTypes(["a.b"], ["a.b"], "2024-01-18")).toBeUndefined();
    expect(checkEventTypes(["a.b", "labor.shift.created"], ["a.b"], "2020-01-21")).toBe(
      "API version 2020-01-21 does not offer labor.shift.created: unmark it, or pick a later version.",
    );
  });
});

describe("readNotification", () => {
  const bytes = (s: string) => new TextEncoder().encode(s);

  it("reads the event type, event id and the object it is about", () => {
    const body = {
      merchant_id: "M1",
      type: "labor.shift.created",
      event_id: "e1",
      created_at: "2026-01-01T09:00:00Z",
      data: { type: "shift", id: "SH1", object: { shift: { id: "SH1" } } },
    };
    const r = readNotification(bytes(JSON.stringify(body)));
    expect(r).toEqual({
      ok: true,
      value: {
        eventType: "labor.shift.created",
        eventId: "e1",
        objectId: "SH1",
        objectType: "shift",
        merchantId: "M1",
        createdAt: "2026-01-01T09:00:00Z",
        event: body,
      },
    });
  });

  it("refuses what is not a JSON object, saying which", () => {
    expect(problem(readNotification(bytes("hello")))).toBe("the body is not JSON");
    expect(problem(readNotification(bytes("[1,2]")))).toBe("the body is JSON but not an object");
    expect(problem(readNotification(new Uint8Array([0x7b, 0xff, 0x7d])))).toBe("the body is not UTF-8 text");
  });

  it("still reads an object of another shape, as an unknown event", () => {
    const r = readNotification(bytes('{"hello":"there"}'));
    expect(r.ok && r.value.eventType).toBe("unknown");
    expect(r.ok && r.value.objectId).toBeUndefined();
  });
});
