import { type OperationSpec, operations } from "../../src/spec/generated/operations.js";
import { enums } from "../../src/spec/generated/schemas.js";
import { asCurl, type FuzzCase, type FuzzContext, generateCases, type IdKind, type IdPool } from "./fuzz-cases.js";
import { isEnvelope, NoAnswer, type RawResponse, send } from "./http.js";

/** A case that broke a rule of the run, with the command that repeats it. */
export interface FuzzFailure {
  kind: "5xx" | "hang" | "dropped" | "not-envelope" | "bad-category" | "accepted-invalid";
  n: number;
  op: string;
  mutation: string;
  status?: number;
  detail: string;
  curl: string;
}

/** What a fuzz run measured. */
export interface FuzzReport {
  seed: number;
  cases: number;
  routes: number;
  byStatus: Record<string, number>;
  /** Cases meant to be refused, by mutation, and how many of those were accepted. */
  invalid: number;
  acceptedInvalid: number;
  serverErrors: number;
  hangs: number;
  dropped: number;
  badEnvelopes: number;
  failures: FuzzFailure[];
  rssWarmMb?: number;
  rssEndMb?: number;
  seconds: number;
}

/** How to run the fuzzer against a service that is already listening. */
export interface FuzzOptions {
  url: string;
  token: string;
  clientId: string;
  clientSecret: string;
  seed: number;
  cases: number;
  /** The service's resident memory in bytes, when it runs in a process of its own. */
  rss?: () => number | undefined;
  /** Whether the service process is still alive (a crash ends the run). */
  alive?: () => boolean;
  timeoutMs?: number;
  /** How many requests are in flight at once; 1 keeps the run exactly reproducible. */
  concurrency?: number;
  onProgress?: (done: number) => void;
}

const CATEGORIES = new Set(enums.ErrorCategory ?? []);
const CODES = new Set(enums.ErrorCode ?? []);

/** The statuses that go with each error category. */
function statusFits(category: string, status: number): boolean {
  switch (category) {
    case "AUTHENTICATION_ERROR":
      return status === 401 || status === 403;
    case "RATE_LIMIT_ERROR":
      return status === 429;
    case "INVALID_REQUEST_ERROR":
      return [400, 404, 405, 408, 409, 410, 413, 415, 422, 431].includes(status);
    case "API_ERROR":
      return status >= 500;
    default:
      return status >= 400 && status < 500;
  }
}

const get = (url: string, token: string, path: string) =>
  send(url, { method: "GET", path, headers: { authorization: `Bearer ${token}` } });
const post = (url: string, token: string, path: string, body: unknown) =>
  send(url, {
    method: "POST",
    path,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const idsOf = (list: unknown, key = "id"): string[] =>
  Array.isArray(list)
    ? list.map((x) => (x as Record<string, unknown>)[key]).filter((v): v is string => typeof v === "string")
    : [];

/**
 * Finds ids that exist (so generated requests reach the rules, not only the 404s) and one real
 * cursor per listing (for the tampered and foreign cursor mutations).
 */
export async function discover(url: string, token: string): Promise<Pick<FuzzContext, "ids" | "cursors" | "now">> {
  const ids: IdPool = {};
  const add = (kind: IdKind, values: string[]) => {
    ids[kind] = [...new Set([...(ids[kind] ?? []), ...values])].slice(0, 60);
  };
  const j = async (p: Promise<RawResponse>) => ((await p).json ?? {}) as Record<string, unknown>;
  const health = await j(send(url, { method: "GET", path: "/_emulator/health" }));
  const now = typeof health.now === "string" ? new Date(health.now) : new Date();
  add("location", idsOf((await j(get(url, token, "/v2/locations"))).locations));
  const main = ids.location?.[0] ?? "main";
  add("team_member", idsOf((await j(post(url, token, "/v2/team-members/search", { limit: 200 }))).team_members));
  add("break_type", idsOf((await j(get(url, token, "/v2/labor/break-types"))).break_types));
  add("shift", idsOf((await j(post(url, token, "/v2/labor/shifts/search", { limit: 60 }))).shifts));
  add("wage", idsOf((await j(get(url, token, "/v2/labor/team-member-wages?limit=60"))).team_member_wages));
  add("workweek", idsOf((await j(get(url, token, "/v2/labor/workweek-configs"))).workweek_configs));
  const customers = (await j(get(url, token, "/v2/customers?limit=60"))).customers;
  add("customer", idsOf(customers));
  add("card", Array.isArray(customers) ? customers.flatMap((c) => idsOf((c as { cards?: unknown }).cards)) : []);
  add("group", idsOf((await j(get(url, token, "/v2/customers/groups"))).groups));
  const variations = (await j(get(url, token, "/v2/catalog/list?types=ITEM_VARIATION"))).objects;
  add("variation", idsOf(variations));
  add("catalog_object", idsOf((await j(get(url, token, "/v2/catalog/list"))).objects));
  add("category", idsOf((await j(get(url, token, "/v2/catalog/list?types=CATEGORY"))).objects));
  for (const [type, kind, sub] of [
    ["ADJUSTMENT", "adjustment", "adjustment"],
    ["PHYSICAL_COUNT", "physical_count", "physical_count"],
    ["TRANSFER", "transfer", "transfer"],
  ] as const) {
    const changes = (await j(post(url, token, "/v2/inventory/changes/batch-retrieve", { types: [type], limit: 30 })))
      .changes;
    add(kind, Array.isArray(changes) ? changes.flatMap((c) => idsOf([(c as Record<string, unknown>)[sub]])) : []);
  }
  add(
    "cash_drawer_shift",
    idsOf((await j(get(url, token, `/v2/cash-drawers/shifts?location_id=${main}`))).cash_drawer_shifts),
  );
  add("payout", idsOf((await j(get(url, token, "/v2/payouts"))).payouts));
  const cards = (await j(get(url, token, "/v2/gift-cards?limit=60"))).gift_cards;
  add("gift_card", idsOf(cards));
  add("gift_card_gan", idsOf(cards, "gan"));
  add("subscription", idsOf((await j(get(url, token, "/v2/webhooks/subscriptions"))).subscriptions));
  add("v1_payment", idsOf((await get(url, token, "/v1/me/payments?limit=60")).json));
  add("v1_order", idsOf((await get(url, token, `/v1/${main}/orders?limit=60`)).json));
  add("v1_settlement", idsOf((await get(url, token, "/v1/me/settlements?limit=60")).json));

  // One real cursor per listing that pages: its first page of one.
  const cursors: FuzzContext["cursors"] = {};
  const fill = (p: string) =>
    p.replace(/\{(\w+)\}/g, (_, name: string) => {
      const pick: Record<string, string | undefined> = {
        location_id: name === "location_id" ? main : undefined,
        shift_id: ids.cash_drawer_shift?.[0],
        payout_id: ids.payout?.[0],
        catalog_object_id: ids.variation?.[0],
      };
      return encodeURIComponent(pick[name] ?? "x");
    });
  for (const op of Object.values(operations) as OperationSpec[]) {
    const hasLimit = "limit" in op.query;
    if (op.method === "GET" && ("cursor" in op.query || "batch_token" in op.query)) {
      const extra = op.query.location_id?.required ? `&location_id=${main}` : "";
      const r = await get(url, token, `${fill(op.path)}?${hasLimit ? "limit=1" : ""}${extra}`);
      const body = r.json as { cursor?: string } | undefined;
      const link = typeof r.headers.link === "string" ? /batch_token=([^&>]+)/.exec(r.headers.link)?.[1] : undefined;
      const cursor = body && !Array.isArray(body) ? body.cursor : link ? decodeURIComponent(link) : undefined;
      if (cursor) cursors[op.name as keyof typeof cursors] = cursor;
    } else if (op.method === "POST" && op.body && /Search|BatchRetrieveInventory/.test(op.name)) {
      const r = await post(url, token, op.path, { limit: 1 });
      const cursor = (r.json as { cursor?: string } | undefined)?.cursor;
      if (cursor) cursors[op.name as keyof typeof cursors] = cursor;
    }
  }
  return { ids, cursors, now };
}

/** Judges one answer against what its case expected. */
function judge(c: FuzzCase, r: RawResponse): FuzzFailure["kind"] | undefined {
  if (r.status >= 500) return "5xx";
  if (r.status >= 400) {
    if (!isEnvelope(r.json)) return "not-envelope";
    for (const e of r.json.errors) {
      if (!CATEGORIES.has(e.category) || !CODES.has(e.code) || !statusFits(e.category, r.status)) return "bad-category";
    }
    return undefined;
  }
  if (c.expect === "refuse") return "accepted-invalid";
  if (r.status >= 200 && r.status < 300 && r.json === undefined && r.text !== "") return "not-envelope";
  return undefined;
}

/**
 * Runs `cases` generated requests against the service and checks every answer: no 5xx, no hang,
 * no dropped connection, every refusal in the envelope with a known category and code that fit
 * its status, and no request that should be refused accepted. Memory is read after a warm-up
 * (a tenth of the run) and at the end.
 */
export async function runFuzz(o: FuzzOptions): Promise<FuzzReport> {
  const started = performance.now();
  const found = await discover(o.url, o.token);
  const ctx: FuzzContext = { token: o.token, clientId: o.clientId, clientSecret: o.clientSecret, ...found };
  const report: FuzzReport = {
    seed: o.seed,
    cases: 0,
    routes: 0,
    byStatus: {},
    invalid: 0,
    acceptedInvalid: 0,
    serverErrors: 0,
    hangs: 0,
    dropped: 0,
    badEnvelopes: 0,
    failures: [],
    seconds: 0,
  };
  const routes = new Set<string>();
  const warmAt = Math.floor(o.cases / 10);
  const fail = (c: FuzzCase, kind: FuzzFailure["kind"], detail: string, status?: number) => {
    if (kind === "5xx") report.serverErrors++;
    else if (kind === "hang") report.hangs++;
    else if (kind === "dropped") report.dropped++;
    else if (kind === "accepted-invalid") report.acceptedInvalid++;
    else report.badEnvelopes++;
    if (report.failures.length < 200) {
      report.failures.push({
        kind,
        n: c.n,
        op: c.op,
        mutation: c.mutation,
        ...(status === undefined ? {} : { status }),
        detail: detail.slice(0, 300),
        curl: asCurl(o.url, c),
      });
    }
  };

  const one = async (c: FuzzCase) => {
    routes.add(c.op);
    if (c.expect === "refuse") report.invalid++;
    try {
      const r = await send(o.url, {
        method: c.method,
        path: c.path,
        headers: c.headers,
        ...(c.body === undefined ? {} : { body: c.body }),
        timeoutMs: o.timeoutMs ?? 15_000,
      });
      report.byStatus[r.status] = (report.byStatus[r.status] ?? 0) + 1;
      const kind = judge(c, r);
      if (kind) fail(c, kind, r.text, r.status);
    } catch (err) {
      if (err instanceof NoAnswer) fail(c, "hang", err.message);
      else
        fail(
          c,
          "dropped",
          err instanceof Error ? `${(err as NodeJS.ErrnoException).code ?? ""} ${err.message}` : String(err),
        );
    }
  };

  const queue = generateCases(o.seed, o.cases, ctx);
  const width = o.concurrency ?? 1;
  let done = 0;
  let crashed = false;
  const worker = async () => {
    for (let next = queue.next(); !next.done; next = queue.next()) {
      if (o.alive && !o.alive()) {
        crashed = true;
        return;
      }
      await one(next.value);
      done++;
      report.cases = done;
      if (done === warmAt) {
        const rss = o.rss?.();
        if (rss !== undefined) report.rssWarmMb = rss / 2 ** 20;
      }
      if (done % 1000 === 0) o.onProgress?.(done);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  if (crashed) report.dropped += o.cases - done;
  const rss = o.rss?.();
  if (rss !== undefined) report.rssEndMb = rss / 2 ** 20;
  report.routes = routes.size;
  report.seconds = (performance.now() - started) / 1000;
  return report;
}
