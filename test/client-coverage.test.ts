import { MockAgent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { type OperationSpec, operations } from "../src/spec/generated/operations.js";
import { createClient, type SquareClient } from "../src/square/index.js";

const BASE = "https://square.test";

interface Recorded {
  method: string;
  path: string;
  authorization: string | undefined;
}

/** A client whose every request, to any path, is answered `{}` and recorded. */
function recordingClient(): { client: SquareClient; seen: Recorded[]; agent: MockAgent } {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const seen: Recorded[] = [];
  agent
    .get(BASE)
    .intercept({ path: () => true, method: () => true })
    .reply(200, (req) => {
      const headers = new Headers(req.headers as Record<string, string>);
      seen.push({
        method: req.method,
        path: req.path.split("?")[0] ?? "",
        authorization: headers.get("authorization") ?? undefined,
      });
      return {};
    })
    .persist();
  const client = createClient({ baseUrl: BASE, accessToken: "tok", clientSecret: "sec", dispatcher: agent });
  return { client, seen, agent };
}

const camel = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);

type Method = (...args: unknown[]) => PromiseLike<unknown>;

/** Finds the one area that has a method of this name. */
function findMethod(client: SquareClient, name: string): { area: string; fn: Method }[] {
  const found: { area: string; fn: Method }[] = [];
  for (const [area, api] of Object.entries(client)) {
    if (typeof api !== "object" || api === null || area === "transport") continue;
    const fn = (api as Record<string, unknown>)[name];
    if (typeof fn === "function") found.push({ area, fn: fn as Method });
  }
  return found;
}

/** A method takes a query/body argument after its path params when the operation has either. */
function takesInput(op: OperationSpec): boolean {
  return op.body !== null || Object.keys(op.query).some((k) => k !== "cursor" && k !== "batch_token");
}

const all = Object.values(operations) as OperationSpec[];

describe("every operation of the spec has a client method", () => {
  let agent: MockAgent | undefined;
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
  });

  it("covers 83/83 operations with the spec's method and path", async () => {
    const rec = recordingClient();
    agent = rec.agent;
    const covered: string[] = [];
    const problems: string[] = [];
    for (const op of all) {
      const methods = findMethod(rec.client, camel(op.name));
      if (methods.length !== 1) {
        problems.push(`${op.name}: ${methods.length} client methods named ${camel(op.name)}`);
        continue;
      }
      const [{ fn }] = methods as [{ area: string; fn: Method }];
      const args: unknown[] = op.pathParams.map((p) => `p-${p}`);
      if (takesInput(op)) args.push({});
      const before = rec.seen.length;
      await fn(...args);
      const sent = rec.seen.slice(before);
      const expectedPath = op.path.replace(/\{(\w+)\}/g, (_, p: string) => `p-${p}`);
      const expectedAuth = op.auth === "bearer" ? "Bearer tok" : op.auth === "client" ? "Client sec" : undefined;
      if (sent.length !== 1) problems.push(`${op.name}: sent ${sent.length} requests`);
      else if (sent[0]?.method !== op.method || sent[0]?.path !== expectedPath)
        problems.push(`${op.name}: sent ${sent[0]?.method} ${sent[0]?.path}, spec says ${op.method} ${expectedPath}`);
      else if (sent[0]?.authorization !== expectedAuth)
        problems.push(`${op.name}: authorization ${sent[0]?.authorization}, expected ${expectedAuth}`);
      else covered.push(op.name);
    }
    expect(problems).toEqual([]);
    expect(all).toHaveLength(83);
    expect(covered).toHaveLength(83);
    const seeds = all.filter((op) => op.seed).map((op) => op.name);
    expect(seeds).toHaveLength(67);
    for (const seed of seeds) expect(covered).toContain(seed);
  });

  it("has no client method that is not an operation of the spec", () => {
    const rec = recordingClient();
    agent = rec.agent;
    const { client } = rec;
    const names = new Set(all.map((op) => camel(op.name)));
    const extra: string[] = [];
    for (const [area, api] of Object.entries(client)) {
      if (typeof api !== "object" || api === null || area === "transport") continue;
      for (const name of Object.keys(api)) if (!names.has(name)) extra.push(`${area}.${name}`);
    }
    expect(extra).toEqual([]);
  });
});
