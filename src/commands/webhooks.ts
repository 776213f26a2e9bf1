// `backroom webhooks`: the application's subscriptions, the event types of an API version, a test
// notification, and `listen`, the local receiver that verifies what the service sends.
import { isHttpUrl } from "../auth/config.js";
import { isLoopbackHost, parseApiVersion } from "../domain/webhooks.js";
import type { WebhookSubscription } from "../spec/generated/types.js";
import type { SquareClient } from "../square/index.js";
import { type ArgValues, type CommandSpec, intOption, readArgs, UsageError } from "./args.js";
import { CommandError, type CommandIo, say, untilStopped } from "./io.js";
import type { TargetDeps } from "./listing.js";
import { runCommand, serviceFailure } from "./run.js";
import { TARGET_OPTIONS, type TargetFlagValues, targetFlags, withTargetClient } from "./target.js";
import { type Receipt, startReceiver } from "./webhook-receiver.js";

/** The part of the client the webhooks commands use. */
export type WebhooksClient = Pick<
  SquareClient["webhooks"],
  "listWebhookSubscriptions" | "listWebhookEventTypes" | "retrieveWebhookSubscription" | "testWebhookSubscription"
>;

/** What the webhooks commands build on; each has a real default, tests pass their own. */
export interface WebhooksDeps extends TargetDeps<{ webhooks: WebhooksClient }> {
  /** Stops `listen` (the process's signals otherwise). */
  signal?: AbortSignal;
  /** Told the receiver's address once it listens. */
  onListening?: (url: string) => void;
}

const JSON_OPTION = { type: "boolean", help: "print JSON records, and nothing else, on stdout" } as const;

/** `backroom webhooks list`'s command line. */
export const WEBHOOKS_LIST_SPEC = {
  name: "backroom webhooks list",
  summary:
    "Lists the application's webhook subscriptions: name, notification URL, event types, API version, enabled. Disabled ones only with --include-disabled (the service leaves them out otherwise).",
  options: {
    "include-disabled": { type: "boolean", short: "a", help: "list disabled subscriptions too" },
    json: JSON_OPTION,
    ...TARGET_OPTIONS,
  },
} as const satisfies CommandSpec;

/** `backroom webhooks event-types`' command line. */
export const WEBHOOKS_EVENT_TYPES_SPEC = {
  name: "backroom webhooks event-types",
  summary: "Lists the event types one can subscribe to, with the API version that brought each.",
  options: {
    "api-version": {
      type: "string",
      value: "YYYY-MM-DD",
      help: "the types of this API version (default: the client's)",
    },
    json: JSON_OPTION,
    ...TARGET_OPTIONS,
  },
} as const satisfies CommandSpec;

/** `backroom webhooks test`'s command line. */
export const WEBHOOKS_TEST_SPEC = {
  name: "backroom webhooks test",
  summary:
    "Has the service send a test notification of one event type to the subscription's URL, and says what the receiver answered and how long it took. Exits 1 unless it answered 2xx.",
  positionals: [{ name: "SUBSCRIPTION_ID", help: "the subscription (backroom webhooks list shows them)" }],
  options: {
    event: { type: "string", value: "TYPE", help: "the event type (default: the subscription's first)" },
    json: { type: "boolean", help: "print the test result as one JSON object" },
    ...TARGET_OPTIONS,
  },
} as const satisfies CommandSpec;

/** `backroom webhooks listen`'s command line. */
export const WEBHOOKS_LISTEN_SPEC = {
  name: "backroom webhooks listen",
  summary:
    "Runs a receiver on this machine (127.0.0.1 only) and prints one line per notification: the time, the event type, the object it is about, and whether its signature (x-square-hmacsha256-signature: HMAC-SHA256 of the notification URL and the raw body, with the subscription's signature key) is verified. A body over 1 MB, or not JSON, is answered 400 and printed as refused; a notification that is not verified is answered 401 and never forwarded. Stops with ctrl+c.",
  options: {
    port: {
      type: "string",
      value: "N",
      help: "the port (default: the subscription's, when its URL is on this machine; else any free one)",
    },
    path: {
      type: "string",
      value: "/PATH",
      help: "the path notifications are posted to (default /hook, or the subscription's)",
    },
    "signature-key": {
      type: "string",
      value: "KEY",
      help: "the subscription's signature key (BACKROOM_WEBHOOK_SIGNATURE_KEY keeps it off the command line)",
    },
    subscription: { type: "string", value: "ID", help: "read the key (and the URL it signs) from this subscription" },
    url: {
      type: "string",
      value: "URL",
      help: "the URL the service signs, when it is not this listener's own address (a tunnel, localhost)",
    },
    json: { type: "boolean", help: 'one JSON object per line on stdout: the event and "verified": true|false' },
    forward: { type: "string", value: "URL", help: "pass each verified body on to this address (with its signature)" },
    ...TARGET_OPTIONS,
  },
} as const satisfies CommandSpec;

/** Keeps a cell to its width. */
const cell = (text: string, width: number) =>
  (text.length > width ? `${text.slice(0, width - 1)}…` : text).padEnd(width);

/** The human table of `list`: one line per subscription, its id first (what `test` and `listen` take). */
export function subscriptionsTable(subs: readonly WebhookSubscription[]): string {
  const idWidth = Math.max(2, ...subs.map((s) => (s.id ?? "").length));
  const line = (cols: readonly string[]) =>
    [
      cell(cols[0] ?? "", idWidth),
      cell(cols[1] ?? "", 16),
      cell(cols[2] ?? "", 3),
      cell(cols[3] ?? "", 10),
      cell(cols[4] ?? "", 36),
      cols[5],
    ]
      .join("  ")
      .trimEnd();
  return [
    line(["ID", "NAME", "ON", "VERSION", "URL", "EVENT TYPES"]),
    ...subs.map((s) =>
      line([
        s.id ?? "",
        s.name || "(no name)",
        s.enabled === false ? "no" : "yes",
        s.api_version ?? "",
        s.notification_url ?? "",
        (s.event_types ?? []).join(", "),
      ]),
    ),
  ].join("\n");
}

/** `backroom webhooks list`. */
export async function runWebhooksList(argv: string[], io: CommandIo, deps: WebhooksDeps = {}): Promise<number> {
  const read = readArgs(io, WEBHOOKS_LIST_SPEC, argv, ({ values }) => ({
    all: values["include-disabled"] === true,
    json: values.json === true,
    target: targetFlags(values),
  }));
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, WEBHOOKS_LIST_SPEC.name, () =>
    withTargetClient(io, opts.target, deps.open, async ({ client }) => {
      const subs = await client.webhooks
        .listWebhookSubscriptions({ include_disabled: opts.all })
        .all()
        .catch((err: unknown) => serviceFailure(err, "listing the subscriptions failed"));
      if (opts.json) {
        io.stdout.write(`${JSON.stringify(subs, null, 2)}\n`);
        return 0;
      }
      if (subs.length === 0) {
        say(
          io.stderr,
          opts.all ? "no subscriptions" : "no enabled subscriptions (--include-disabled lists the others)",
        );
        return 0;
      }
      say(io.stdout, subscriptionsTable(subs));
      return 0;
    }),
  );
}

/** `backroom webhooks event-types`. */
export async function runWebhooksEventTypes(argv: string[], io: CommandIo, deps: WebhooksDeps = {}): Promise<number> {
  const read = readArgs(io, WEBHOOKS_EVENT_TYPES_SPEC, argv, ({ values }) => {
    let version: string | undefined;
    if (values["api-version"] !== undefined) {
      const parsed = parseApiVersion(values["api-version"]);
      if (!parsed.ok) throw new UsageError(`--api-version: ${parsed.problem}`);
      version = parsed.value;
    }
    return { version, json: values.json === true, target: targetFlags(values) };
  });
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, WEBHOOKS_EVENT_TYPES_SPEC.name, () =>
    withTargetClient(io, opts.target, deps.open, async ({ client }) => {
      const res = await client.webhooks
        .listWebhookEventTypes(opts.version ? { api_version: opts.version } : {})
        .catch((err: unknown) => serviceFailure(err, "listing the event types failed"));
      const meta = new Map((res.metadata ?? []).map((m) => [m.event_type, m]));
      const records = (res.event_types ?? []).map((type) => ({
        event_type: type,
        api_version_introduced: meta.get(type)?.api_version_introduced,
        release_status: meta.get(type)?.release_status,
      }));
      if (opts.json) {
        io.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
        return 0;
      }
      const width = Math.max(10, ...records.map((r) => r.event_type.length));
      say(io.stdout, `${"EVENT TYPE".padEnd(width)}  SINCE       STATUS`);
      for (const r of records) {
        say(
          io.stdout,
          `${r.event_type.padEnd(width)}  ${(r.api_version_introduced ?? "").padEnd(10)}  ${r.release_status ?? ""}`.trimEnd(),
        );
      }
      return 0;
    }),
  );
}

/** `backroom webhooks test SUBSCRIPTION_ID --event TYPE`. */
export async function runWebhooksTest(argv: string[], io: CommandIo, deps: WebhooksDeps = {}): Promise<number> {
  const read = readArgs(io, WEBHOOKS_TEST_SPEC, argv, ({ values, positionals }) => ({
    id: positionals[0] ?? "",
    event: values.event,
    json: values.json === true,
    target: targetFlags(values),
  }));
  if ("exit" in read) return read.exit;
  const opts = read.value;
  const now = deps.now ?? (() => new Date());
  return runCommand(io, WEBHOOKS_TEST_SPEC.name, () =>
    withTargetClient(io, opts.target, deps.open, async ({ client }) => {
      const started = now().getTime();
      const res = await client.webhooks
        .testWebhookSubscription(opts.id, opts.event ? { event_type: opts.event } : {})
        .catch((err: unknown) => serviceFailure(err, "the test was not sent"));
      const tookMs = now().getTime() - started;
      const result = res.subscription_test_result;
      const status = result?.status_code;
      if (opts.json) {
        io.stdout.write(`${JSON.stringify({ ...result, took_ms: tookMs }, null, 2)}\n`);
      } else {
        const type = eventTypeOf(result?.payload) ?? opts.event ?? "the test event";
        say(
          io.stdout,
          status === undefined
            ? `Sent ${type}: the receiver did not answer (${tookMs} ms).`
            : `Sent ${type}: the receiver answered ${status} in ${tookMs} ms.`,
        );
      }
      return status !== undefined && status >= 200 && status < 300 ? 0 : 1;
    }),
  );
}

function eventTypeOf(payload: string | undefined): string | undefined {
  try {
    const type = (JSON.parse(payload ?? "") as { type?: unknown }).type;
    return typeof type === "string" ? type : undefined;
  } catch {
    return undefined;
  }
}

/** The checked options of `listen`. */
interface ListenOptions {
  port: number | undefined;
  path: string | undefined;
  key: string | undefined;
  subscription: string | undefined;
  url: string | undefined;
  forward: string | undefined;
  json: boolean;
  target: TargetFlagValues;
}

function listenOptions(values: ArgValues<typeof WEBHOOKS_LISTEN_SPEC.options>, env: CommandIo["env"]): ListenOptions {
  const key = values["signature-key"] ?? (env.BACKROOM_WEBHOOK_SIGNATURE_KEY || undefined);
  if (key !== undefined && values.subscription !== undefined) {
    throw new UsageError("give --signature-key or --subscription, not both");
  }
  if (key === undefined && values.subscription === undefined) {
    throw new UsageError(
      "give the subscription's signature key (--signature-key KEY, or BACKROOM_WEBHOOK_SIGNATURE_KEY) or --subscription ID: without it no notification can be verified",
    );
  }
  const path = values.path;
  if (path !== undefined && !/^\/[^\s?#]*$/.test(path)) {
    throw new UsageError(`--path is a path such as /hook, not ${JSON.stringify(path)}`);
  }
  for (const flag of ["url", "forward"] as const) {
    const v = values[flag];
    if (v !== undefined && !isHttpUrl(v)) {
      throw new UsageError(`--${flag} is an http(s) address, not ${JSON.stringify(v)}`);
    }
  }
  return {
    port: intOption("port", values.port, 0, 65_535),
    path,
    key,
    subscription: values.subscription,
    url: values.url,
    forward: values.forward,
    json: values.json === true,
    target: targetFlags(values),
  };
}

/** The key and the URL it signs, from the subscription when one is named. */
async function keyAndUrl(
  io: CommandIo,
  opts: ListenOptions,
  deps: WebhooksDeps,
): Promise<{ key: string; sub?: WebhookSubscription }> {
  if (opts.key !== undefined) return { key: opts.key };
  const id = opts.subscription ?? "";
  const sub = await withTargetClient(io, opts.target, deps.open, async ({ client }) =>
    client.webhooks
      .retrieveWebhookSubscription(id)
      .then((r) => r.subscription)
      .catch((err: unknown) => serviceFailure(err, `reading subscription ${id} failed`)),
  );
  if (!sub?.signature_key) {
    throw new CommandError(
      `the service did not hand out the signature key of ${id}; pass it with --signature-key (it is shown when the subscription is made or its key replaced)`,
    );
  }
  if (sub.enabled === false)
    say(io.stderr, `backroom: subscription ${id} is disabled; the service sends it nothing until it is enabled`);
  return { key: sub.signature_key, sub };
}

/** Where to listen: the flags, else the subscription's own loopback address, else any port on /hook. */
function address(opts: ListenOptions, sub: WebhookSubscription | undefined): { port: number; path: string } {
  let own: URL | undefined;
  try {
    own = sub?.notification_url ? new URL(sub.notification_url) : undefined;
  } catch {
    own = undefined;
  }
  const local = own && own.protocol === "http:" && isLoopbackHost(own.hostname) ? own : undefined;
  return {
    port: opts.port ?? (local ? Number(local.port || 80) : 0),
    path: opts.path ?? (local ? local.pathname : "/hook"),
  };
}

/** One receipt as a line for people, or as a JSON record. */
export function receiptLine(r: Receipt, json: boolean): string {
  if (json) {
    if (r.kind === "refused") {
      return JSON.stringify({
        at: r.at.toISOString(),
        refused: r.reason,
        status: r.status,
        method: r.method,
        path: r.path,
      });
    }
    return JSON.stringify({
      at: r.at.toISOString(),
      verified: r.verified,
      status: r.status,
      ...(r.why ? { why: r.why } : {}),
      ...(r.forwarded ? { forwarded: r.forwarded } : {}),
      event: r.summary.event,
    });
  }
  const time = r.at.toTimeString().slice(0, 8);
  if (r.kind === "refused") return `${time}  refused ${r.status}  ${r.method} ${r.path}: ${r.reason}`;
  const s = r.summary;
  const verdict = r.verified ? "verified" : `NOT verified (${r.why})`;
  const fwd = r.forwarded
    ? r.forwarded.status !== undefined
      ? `  → forwarded, answered ${r.forwarded.status}`
      : `  → forward failed (${r.forwarded.error})`
    : "";
  return `${time}  ${s.eventType}  ${s.objectId ?? "-"}  ${verdict}${fwd}`;
}

/** `backroom webhooks listen`: the local receiver, until ctrl+c. */
export async function runWebhooksListen(argv: string[], io: CommandIo, deps: WebhooksDeps = {}): Promise<number> {
  const read = readArgs(io, WEBHOOKS_LISTEN_SPEC, argv, ({ values }) => listenOptions(values, io.env));
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, WEBHOOKS_LISTEN_SPEC.name, async () => {
    const { key, sub } = await keyAndUrl(io, opts, deps);
    const where = address(opts, sub);
    const signedUrl = opts.url ?? sub?.notification_url;
    const counts = { verified: 0, unverified: 0, refused: 0 };
    let explained = false;
    const receiver = await startReceiver({
      port: where.port,
      path: where.path,
      signatureKey: key,
      ...(signedUrl ? { signedUrl } : {}),
      ...(opts.forward ? { forward: opts.forward } : {}),
      ...(deps.now ? { clock: deps.now } : {}),
      onReceipt: (r) => {
        if (r.kind === "refused") counts.refused++;
        else if (r.verified) counts.verified++;
        else counts.unverified++;
        say(io.stdout, receiptLine(r, opts.json));
        if (r.kind === "notification" && r.why === "signature does not match" && !explained) {
          explained = true;
          say(
            io.stderr,
            `backroom: a signature that does not match was made with another key, over another body, or for another URL than ${r.signedUrl} (--url names the one the service signs)`,
          );
        }
      },
    }).catch((err: unknown) => {
      const code = (err as { code?: string }).code;
      throw new CommandError(
        code === "EADDRINUSE"
          ? `port ${where.port} is already in use; pick another with --port`
          : `could not listen: ${String(err)}`,
      );
    });
    // With --json, stdout carries only the records.
    const info = opts.json ? io.stderr : io.stdout;
    say(info, `listening on ${receiver.url}`);
    if (signedUrl && signedUrl !== receiver.url) say(info, `checking signatures made for ${signedUrl}`);
    if (opts.forward) say(info, `passing verified notifications on to ${opts.forward}`);
    deps.onListening?.(receiver.url);
    await untilStopped(process, deps.signal);
    await receiver.close();
    say(
      io.stderr,
      `stopped: ${counts.verified} verified, ${counts.unverified} not verified, ${counts.refused} refused`,
    );
    return 0;
  });
}
