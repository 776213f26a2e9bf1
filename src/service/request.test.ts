import { describe, expect, it } from "vitest";
import { ServiceError } from "./errors.js";
import { requestTarget } from "./request.js";

/** The path a target is read as, or the refusal's code. */
const read = (target: string): string => {
  try {
    return requestTarget(target).path;
  } catch (err) {
    return err instanceof ServiceError ? `refused ${err.status} ${err.errors[0]?.code}` : String(err);
  }
};

describe("requestTarget", () => {
  it("refuses every spelling of a dot segment and every empty segment, wherever it is", () => {
    for (const target of [
      "/v2/gift-cards/.",
      "/v2/gift-cards/..",
      "/v2/gift-cards/%2E",
      "/v2/gift-cards/%2e%2E",
      "/v2/gift-cards/.%2e/x",
      "/./v2/customers",
      "//v2/customers",
      "/v2//customers",
      "/v2/customers/",
      "http://host/v2/./customers",
      "v2/customers",
      "*",
    ]) {
      expect(read(target), target).toBe("refused 404 NOT_FOUND");
    }
  });

  it("takes dots, percent signs and encoded slashes inside a segment as they are", () => {
    for (const path of [
      "/",
      "/v2/customers",
      "/v2/customers/a.b",
      "/v2/customers/...x",
      "/v2/customers/a%2Fb",
      "/v2/x%2E1",
    ]) {
      expect(read(path), path).toBe(path);
    }
  });

  it("reads an absolute-form target for its path, and the query apart from it", () => {
    expect(read("http://127.0.0.1:8080/v2/locations")).toBe("/v2/locations");
    expect(read("HTTPS://example.com")).toBe("/");
    const { path, search } = requestTarget("/v2/customers?limit=5&cursor=a%2Fb#frag");
    expect([path, search.get("limit"), search.get("cursor")]).toEqual(["/v2/customers", "5", "a/b"]);
  });
});
