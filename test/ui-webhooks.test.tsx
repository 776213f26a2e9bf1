// The webhooks screen as a developer or manager uses it, driven by keys against the local service,
// with `backroom webhooks listen` as the receiver: create a subscription to it with event types
// picked from the version's list, send a test, disable and list with and without disabled ones,
// replace the key and watch the old one refused.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { runWebhooksListen } from "../src/commands/webhooks.js";
import { type DrivenApp, KEYS, startApp } from "./helpers/app.js";
import { startService, type TestService } from "./helpers/service.js";

let service: TestService;
let app: DrivenApp | undefined;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** `backroom webhooks listen --subscription ID` in the background, reading the key through the interface. */
async function listen(id: string) {
  const out: string[] = [];
  const stdout = new PassThrough();
  stdout.on("data", (c: Buffer) => out.push(c.toString()));
  const ctl = new AbortController();
  let url = "";
  const done = runWebhooksListen(
    ["--subscription", id],
    { stdout, stderr: new PassThrough(), stdin: new PassThrough(), env: {} },
    {
      open: async () => ({ client: service.client, close: async () => {} }),
      signal: ctl.signal,
      onListening: (u) => (url = u),
    },
  );
  await vi.waitFor(() => {
    if (!url) throw new Error("not listening yet");
  });
  return {
    url,
    lines: () => out.join("").trim().split("\n").slice(1),
    stop: async () => {
      ctl.abort();
      await done;
    },
  };
}

/** The app on the webhooks screen (reached by tab: it has no number key). */
async function open(columns = 80, rows = 24): Promise<DrivenApp> {
  const a = await startApp({ shared: service, columns, rows });
  app = a;
  await a.waitFor("1 Time clock");
  await a.press("0");
  await a.waitForStore((s) => s.screen.kind === "account");
  await a.press(KEYS.tab);
  await a.waitFor(/Webhooks · \d+ subscriptions?/);
  return a;
}

describe("the webhooks screen", () => {
  it("creates a subscription to a loopback receiver with types from the list, tests it, disables it, and replaces its key", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/hook`;
    const a = await open();

    // The fields first: a plain-http URL elsewhere is refused with the reason.
    await a.press("n");
    await a.waitFor("New webhook subscription");
    await a.press("Till events");
    await a.press(KEYS.tab, "http://hooks.example.com/x");
    await a.press(KEYS.enter);
    await a.waitFor("unencrypted to hooks.example.com");
    await a.press("\u0015"); // ctrl+u clears the field
    await a.press(url);
    // A date that is no released version: said in the form, the cursor still on the version.
    await a.press(KEYS.tab, "\u0015", "2019-01-01", KEYS.enter);
    await a.waitFor("! 2019-01-01 is not an API version the service has released; leave it");
    expect(a.frame()).toMatch(/› API version: +2019-01-01/);
    await a.press("\u0015", KEYS.enter);
    await a.waitFor("New: event types of API version 2024-01-18");
    expect(a.frame()).not.toContain("is not an API version");
    await a.waitFor("[ ] inventory.count.updated");

    // Picked from the version's list, narrowed with the filter.
    await a.press("/", "shift cre");
    await a.waitFor((f) => f.includes("[ ] labor.shift.created") && !f.includes("customer.created"));
    await a.press(KEYS.enter, " ");
    await a.waitFor("[x] labor.shift.created");
    await a.press(KEYS.escape); // clears the filter
    await a.waitFor((f) => f.includes("[ ] inventory.count.updated") && f.includes("[x] labor.shift.created"));
    await a.press("/", "cust cre");
    await a.press(KEYS.enter, " ");
    await a.waitFor("Marked: labor.shift.created, customer.created");
    await a.press(KEYS.enter);
    await a.waitFor(/Saved "Till events": 2 event types to http:\/\/127\.0\.0\.1/);
    const frame = a.frame();
    expect(frame).toMatch(/› Till events +yes +http:\/\/127\.0\.0\.1:\d+\/hook/);
    expect(frame).toContain("not tested yet");
    const sub = a.store.getState().webhooks.items.find((i) => i.name === "Till events");
    expect(sub?.event_types).toEqual(["labor.shift.created", "customer.created"]);
    const id = sub?.id ?? "";

    // A test, received and verified by `webhooks listen`.
    const receiver = await listen(id);
    expect(receiver.url).toBe(url);
    try {
      await a.press("t");
      await a.waitFor('Send a test event to "Till events"');
      await a.press(KEYS.down, KEYS.enter);
      await a.waitFor(/Test +\d\d:\d\d customer\.created → answered 200 in \d+ ms/);
      await vi.waitFor(() => expect(receiver.lines().at(-1)).toMatch(/ {2}customer\.created {2}\S+ {2}verified$/));

      // A new key is shown once; the receiver still holds the old one, so it refuses the next test.
      await a.press("K");
      await a.waitFor('Replace the signature key of "Till events"?');
      await a.press("y");
      await a.waitFor("Copy it now");
      const key = a.store.getState().webhooks.revealed?.key ?? "";
      expect(key.length).toBeGreaterThan(10);
      expect(a.frame()).toContain(key);
      await a.press(KEYS.escape);
      await a.waitFor((f) => !f.includes(key) && f.includes("•••••••• (shown once"));
      await a.press("t", KEYS.enter);
      await a.waitFor(/labor\.shift\.created → answered 401 in \d+ ms/);
      await vi.waitFor(() =>
        expect(receiver.lines().at(-1)).toMatch(
          / {2}labor\.shift\.created {2}\S+ {2}NOT verified \(signature does not match\)$/,
        ),
      );
    } finally {
      await receiver.stop();
    }

    // Disabled: gone from the list the service gives by default; d lists it again, marked.
    await a.press("e");
    await a.waitFor('Disabled "Till events"; disabled subscriptions are hidden (d shows them).');
    await a.waitFor((f) => !/Till events +yes/.test(f));
    await a.press("d");
    await a.waitFor(/Till events +no +http/);
    expect(a.frame()).toMatch(/\d+ disabled shown; d hides them/);
    await a.press("d");
    await a.waitFor("disabled hidden (d shows them)");
    expect(a.frame()).not.toMatch(/Till events +(yes|no)/);
  });

  it("a bad URL refused from the version field takes the manager back to the URL, typing replaces it", async () => {
    const port = await freePort();
    const a = await open();
    await a.press("n");
    await a.waitFor("New webhook subscription");
    await a.press("Till events", KEYS.tab, "http://hooks.example.com/x", KEYS.tab, KEYS.enter);
    await a.waitFor("unencrypted to hooks.example.com");
    await a.waitFor(/› Notification URL: +http:\/\/hooks\.example\.com\/x/);
    await a.press(`http://127.0.0.1:${port}/hook`);
    await a.waitFor(new RegExp(`› Notification URL: +http://127\\.0\\.0\\.1:${port}/hook `));
    await a.press(KEYS.enter);
    await a.waitFor("New: event types of API version 2024-01-18");
  });

  it("a slow refusal of the version does not pull the focus from where the manager moved meanwhile", async () => {
    const port = await freePort();
    const a = await open();
    await a.service.raw("POST", "/_emulator/faults", {
      body: { operation: "ListWebhookEventTypes", latency_ms: 1200 },
    });
    try {
      await a.press("n");
      await a.waitFor("New webhook subscription");
      await a.press("Slow", KEYS.tab, `http://127.0.0.1:${port}/hook`, KEYS.tab, "\u0015", "2019-01-01", KEYS.enter);
      // The service is slow: the manager goes back up to the name while it answers.
      await a.press(KEYS.up, KEYS.up);
      await a.waitFor(/› Name: +Slow/);
      await a.waitFor("! 2019-01-01 is not an API version the service has released");
      expect(a.frame()).toMatch(/› Name: +Slow/);
      // Not moved this time: the answer takes the manager to the version, selected.
      await a.press(KEYS.enter);
      await a.waitFor(/› API version: +2019-01-01/);
      await a.press("2024-01-18", KEYS.enter);
      await a.waitFor("New: event types of API version 2024-01-18", 10_000);
      // Closed while the service is slow: the answer is said, and the list keeps the keys.
      await a.press(KEYS.escape, KEYS.escape);
      await a.waitFor(/Webhooks · \d+ subscriptions?/);
      await a.press("n");
      await a.waitFor("New webhook subscription");
      await a.press("Gone", KEYS.tab, `http://127.0.0.1:${port}/hook`, KEYS.tab, "\u0015", "2019-01-01", KEYS.enter);
      await a.press(KEYS.escape);
      await a.waitFor((f) => !f.includes("New webhook subscription"));
      await a.waitFor("2019-01-01 is not an API version the service has released");
      expect(a.frame()).not.toContain("API version:");
      await a.press("5");
      await a.waitForStore((st) => st.screen.kind === "customers");
    } finally {
      await a.service.raw("DELETE", "/_emulator/faults");
    }
  });

  it("says why a key does nothing, and edits and deletes with the one confirmation", async () => {
    const made = await service.client.webhooks.createWebhookSubscription({
      subscription: {
        name: "Old hook",
        event_types: ["customer.updated"],
        notification_url: "https://example.com/old",
      },
    });
    const a = await open(60, 24);
    await a.press("/", "old hook");
    await a.press(KEYS.enter);
    await a.waitFor(/› Old hook/);
    await a.press(" ");
    await a.waitFor("Types are marked in the form (n, or enter to edit).");

    await a.press(KEYS.enter);
    await a.waitFor('Edit "Old hook"');
    await a.press(KEYS.tab, KEYS.tab, "\u0015", "2020-06-25", KEYS.enter);
    await a.waitFor("event types of API version 2020-06-25");
    await a.waitFor("Not offered by 2020-06-25: customer.updated (u unmarks)");
    await a.press(KEYS.enter);
    await a.waitFor(/API version 2020-06-25 does not offer customer\.updated:\s+unmark it, or pick a later version\./);
    await a.press("u", " ");
    await a.waitFor("Marked: inventory.count.updated");
    await a.press(KEYS.enter);
    await a.waitFor(/Saved "Old hook"/);
    const edited = await service.client.webhooks.retrieveWebhookSubscription(made.subscription?.id ?? "");
    expect(edited.subscription?.api_version).toBe("2020-06-25");

    await a.press("x");
    await a.waitFor('Delete "Old hook"?');
    await a.press(KEYS.enter); // risky: enter answers no
    await a.waitFor((f) => !f.includes('Delete "Old hook"?'));
    expect(a.store.getState().webhooks.items.some((i) => i.name === "Old hook")).toBe(true);
    await a.press("x", "y");
    await a.waitFor('Deleted "Old hook"');
    await a.waitFor(/No subscription matches "old hook"/);
    for (const line of a.frame().split("\n")) expect(line.length).toBeLessThanOrEqual(60);
  });
});
