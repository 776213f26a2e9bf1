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

describe("webhook signature over raw bytes", () => {
  it("signs the bytes as received, the same as their UTF-8 text", () => {
    const bytes = Buffer.from(body, "utf8");
    expect(signWebhook("key-1", url, bytes)).toBe(signWebhook("key-1", url, body));
    expect(verifyWebhook("key-1", url, bytes, signWebhook("key-1", url, body))).toBe(true);
  });

  it("tells bytes that are not UTF-8 apart from their decoded text", () => {
    const bytes = Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]); // {"\xff"}
    const decoded = bytes.toString("utf8"); // \xff becomes U+FFFD
    expect(verifyWebhook("key-1", url, bytes, signWebhook("key-1", url, decoded))).toBe(false);
  });
});
