import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The signature of a webhook notification: base64(HMAC-SHA256(key = the subscription's signature
 * key, message = notification URL + raw body)), sent as `x-square-hmacsha256-signature`.
 */
export function signWebhook(signatureKey: string, notificationUrl: string, rawBody: string | Uint8Array): string {
  const hmac = createHmac("sha256", signatureKey).update(notificationUrl, "utf8");
  // The bytes as received: a receiver must not decode and re-encode the body before checking it.
  return (typeof rawBody === "string" ? hmac.update(rawBody, "utf8") : hmac.update(rawBody)).digest("base64");
}

/**
 * Whether `signature` is the notification's true signature under `signatureKey`. The URL must be
 * the one the subscription names, exactly as registered; the body must be the raw bytes received.
 */
export function verifyWebhook(
  signatureKey: string,
  notificationUrl: string,
  rawBody: string | Uint8Array,
  signature: string | undefined,
): boolean {
  if (!signature) return false;
  const expected = Buffer.from(signWebhook(signatureKey, notificationUrl, rawBody), "utf8");
  const given = Buffer.from(signature, "utf8");
  // Constant-time comparison, so the check leaks nothing about how much of a forgery matched.
  return expected.length === given.length && timingSafeEqual(expected, given);
}
