import { describe, expect, it } from "vitest";
import type { WebhookSubscription } from "../spec/generated/types.js";
import {
  checkForm,
  initialWebhooks,
  shownTypes,
  unofferedTypes,
  type WebhooksEvent,
  type WebhooksState,
  webhooksReducer,
} from "./webhooks-machine.js";

const sub = (id: string, over: Partial<WebhookSubscription> = {}): WebhookSubscription => ({
  id,
  name: `Sub ${id}`,
  enabled: true,
  event_types: ["customer.created"],
  notification_url: `https://example.com/${id}`,
  api_version: "2024-01-18",
  ...over,
});

const run = (events: WebhooksEvent[], from: WebhooksState = initialWebhooks) => events.reduce(webhooksReducer, from);
const TYPES = [
  "customer.created",
  "customer.updated",
  "labor.shift.created",
  "labor.shift.updated",
  "gift_card.updated",
];
const listed: WebhooksEvent = { type: "listed", items: [sub("a"), sub("b"), sub("c")], includeDisabled: false };

describe("the list", () => {
  it("a subscription disabled while disabled ones are hidden leaves the list, as the service would", () => {
    let s = run([listed]);
    s = run([{ type: "changed", subscription: sub("b", { enabled: false }) }], s);
    expect(s.items.map((i) => i.id)).toEqual(["a", "c"]);
    s = run([{ type: "listed", items: [sub("a"), sub("b", { enabled: false })], includeDisabled: true }], s);
    s = run([{ type: "changed", subscription: sub("a", { enabled: false }) }], s);
    expect(s.items.map((i) => [i.id, i.enabled])).toEqual([
      ["a", false],
      ["b", false],
    ]);
  });

  it("a saved subscription joins the list, or replaces its old self; a deleted one takes its test result along", () => {
    let s = run([
      listed,
      { type: "saved", subscription: sub("d") },
      { type: "saved", subscription: sub("a", { name: "A2" }) },
    ]);
    expect(s.items.map((i) => i.name)).toEqual(["A2", "Sub b", "Sub c", "Sub d"]);
    s = run(
      [
        { type: "test-result", id: "b", outcome: { eventType: "x", statusCode: 200, tookMs: 3, at: "t" } },
        { type: "deleted", id: "b" },
      ],
      s,
    );
    expect(s.items.map((i) => i.id)).toEqual(["a", "c", "d"]);
    expect(s.tests).toEqual({});
  });
});

describe("the create form", () => {
  const opened = run([listed, { type: "open-create" }]);

  it("opens on the client's API version, and refuses bad fields with the reason before the types", () => {
    expect(opened.form).toMatchObject({ id: undefined, apiVersion: "2024-01-18", step: "fields", picked: [] });
    const s = run(
      [{ type: "edit-field", field: "url", value: "http://hooks.example.com/x" }, { type: "to-events" }],
      opened,
    );
    expect(s.form?.step).toBe("fields");
    expect(s.form?.problem).toMatch(/unencrypted/);
    // About the URL: the form goes there.
    expect(s.form?.problemField).toBe("url");
    const typed = run([{ type: "edit-field", field: "url", value: "http://127.0.0.1:9000/hook" }], s);
    expect(typed.form?.problem).toBeUndefined();
    expect(run([{ type: "to-events" }], typed).form?.step).toBe("events");
  });

  it("picks event types from the version's list, with a filter, one by one or all shown", () => {
    let s = run(
      [
        { type: "edit-field", field: "url", value: "https://example.com/h" },
        { type: "to-events" },
        { type: "types-loading", version: "2024-01-18" },
        { type: "types-loaded", version: "2024-01-18", types: TYPES },
      ],
      opened,
    );
    s = run([{ type: "filter", text: "shift" }], s);
    expect(s.form && shownTypes(s.form)).toEqual(["labor.shift.created", "labor.shift.updated"]);
    s = run([{ type: "toggle-type", eventType: "labor.shift.updated" }], s);
    expect(s.form?.picked).toEqual(["labor.shift.updated"]);
    s = run([{ type: "toggle-shown" }], s);
    expect(s.form?.picked).toEqual(["labor.shift.updated", "labor.shift.created"]);
    s = run([{ type: "toggle-shown" }], s);
    expect(s.form?.picked).toEqual([]);
    expect(s.form && checkForm(s.form)).toMatch(/at least one/);
    s = run(
      [
        { type: "filter", text: "" },
        { type: "toggle-type", eventType: "gift_card.updated" },
      ],
      s,
    );
    expect(s.form && checkForm(s.form)).toBeUndefined();
  });

  it("ignores the types of a version the form has moved away from", () => {
    const s = run(
      [
        { type: "types-loading", version: "2021-01-01" },
        { type: "types-loading", version: "2024-01-18" },
        { type: "types-loaded", version: "2021-01-01", types: ["old.type"] },
      ],
      opened,
    );
    expect(s.form?.offered).toEqual({ state: "loading", version: "2024-01-18" });
  });
});

describe("the edit form", () => {
  it("starts from the subscription and finds the types an older version does not offer", () => {
    let s = run([
      {
        type: "listed",
        items: [sub("a", { event_types: ["labor.shift.created", "customer.created"] })],
        includeDisabled: false,
      },
      { type: "open-edit", id: "a" },
    ]);
    expect(s.form).toMatchObject({
      id: "a",
      name: "Sub a",
      url: "https://example.com/a",
      picked: ["labor.shift.created", "customer.created"],
    });
    s = run(
      [
        { type: "edit-field", field: "apiVersion", value: "2020-01-21" },
        { type: "to-events" },
        { type: "types-loading", version: "2020-01-21" },
        { type: "types-loaded", version: "2020-01-21", types: ["customer.created"] },
      ],
      s,
    );
    expect(s.form && checkForm(s.form)).toBe(
      "API version 2020-01-21 does not offer labor.shift.created: unmark it, or pick a later version.",
    );
    expect(s.form && unofferedTypes(s.form)).toEqual(["labor.shift.created"]);
    s = run([{ type: "drop-unoffered" }], s);
    expect(s.form?.picked).toEqual(["customer.created"]);
    expect(s.form && checkForm(s.form)).toBeUndefined();
  });
});

describe("the signature key and tests", () => {
  it("shows a replaced key once, and hides it at the next step", () => {
    let s = run([listed, { type: "key-replaced", id: "a", key: "new-key" }]);
    expect(s.revealed).toEqual({ subscriptionId: "a", key: "new-key" });
    s = run([{ type: "hide-key" }], s);
    expect(s.revealed).toBeUndefined();
    s = run([{ type: "key-replaced", id: "a", key: "newer" }, listed], s);
    expect(s.revealed).toBeUndefined();
  });

  it("picks the event type to test among the subscription's, and keeps what the receiver answered", () => {
    let s = run([
      {
        type: "listed",
        items: [sub("a", { event_types: ["customer.created", "customer.updated"] })],
        includeDisabled: false,
      },
      { type: "open-test", id: "a" },
    ]);
    expect(s.testPick).toEqual({ subscriptionId: "a", types: ["customer.created", "customer.updated"] });
    s = run([{ type: "test-sending", id: "a" }], s);
    expect(s).toMatchObject({ testPick: undefined, testing: "a" });
    s = run(
      [
        {
          type: "test-result",
          id: "a",
          outcome: { eventType: "customer.updated", statusCode: 401, tookMs: 12, at: "t" },
        },
      ],
      s,
    );
    expect(s.testing).toBeUndefined();
    expect(s.tests.a?.statusCode).toBe(401);
  });
});
