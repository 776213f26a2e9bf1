import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhook } from "./webhook-signature.js";

const url = "https://example.com/hooks/square";
const body = '{"merchant_id":"M1","type":"customer.created","event_id":"e1"}';

describe("webhook signature", () => {
  it("is base64 HMAC-SHA256 of the URL followed by the body", () => {
    const expected = createHmac("sha256", "key-1").update(`${url}${body}`).digest("base64");
    expect(signWebhook("key-1", url, body)).toBe(expected);
  });

  it("verifies its own signature", () => {
    expect(verifyWebhook("key-1", url, body, signWebhook("key-1", url, body))).toBe(true);
  });

  it("refuses another key, another URL, a changed body, and a missing signature", () => {
    const sig = signWebhook("key-1", url, body);
    expect(verifyWebhook("key-2", url, body, sig)).toBe(false);
    expect(verifyWebhook("key-1", `${url}/other`, body, sig)).toBe(false);
    expect(verifyWebhook("key-1", url, `${body} `, sig)).toBe(false);
    expect(verifyWebhook("key-1", url, body, undefined)).toBe(false);
    expect(verifyWebhook("key-1", url, body, sig.slice(1))).toBe(false);
  });
});
