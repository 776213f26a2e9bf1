import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CUSTOMER_CSV_HEADER } from "../domain/customers.js";
import { createBody } from "../domain/customers-profile.js";
import { createService, type LocalService } from "../service/index.js";
import type { Customer } from "../spec/generated/types.js";
import { createClient, type SquareClient } from "../square/index.js";
import { runCustomersGet, runCustomersSearch } from "./customers.js";

const home = mkdtempSync(join(tmpdir(), "backroom-customers-home-"));
const env = { HOME: home, XDG_CONFIG_HOME: join(home, "config"), XDG_DATA_HOME: join(home, "data") };

let svc: LocalService;
let client: SquareClient;
let ada: Customer;
let adaTwin: Customer;
const VIP = "GVIP0000000000000000000001";

beforeAll(async () => {
  svc = createService({ seed: "demo" });
  const url = await svc.listen(0, "127.0.0.1");
  client = createClient({ baseUrl: url, accessToken: svc.accessToken, maxRetries: 0 });
  ada = (
    await client.customers.createCustomer({
      given_name: "Ada",
      family_name: "Quillfeather",
      email_address: "ada.quillfeather@example.org",
      phone_number: "+1 (917) 555-0101",
      reference_id: "QF-0001",
    })
  ).customer as Customer;
  adaTwin = (
    await client.customers.createCustomer({
      given_name: "Adeline",
      family_name: "Quillfeather",
      email_address: "adeline.quillfeather@example.org",
      phone_number: "9175550102",
    })
  ).customer as Customer;
  await client.customers.addGroupToCustomer(ada.id ?? "", VIP);
});
afterAll(async () => {
  await client.close();
  await svc.close();
});

function io() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const text = (s: PassThrough) => () => String(s.read() ?? "");
  return { io: { stdout, stderr, stdin: new PassThrough(), env }, out: text(stdout), err: text(stderr) };
}
const deps = () => ({
  open: async () => ({ client, close: async () => {} }),
  now: () => new Date("2026-05-01T12:00:00Z"),
});

describe("backroom customers search", () => {
  it("--json prints exactly the records, nothing else; the index is built on first use, said on stderr", async () => {
    const t = io();
    expect(await runCustomersSearch(["quillfeather", "--json"], t.io, deps())).toBe(0);
    const records = JSON.parse(t.out()) as Customer[];
    expect(records.map((c) => c.id)).toEqual([ada.id, adaTwin.id]);
    expect(records[0]).toMatchObject({ email_address: "ada.quillfeather@example.org", version: 1 });
    expect(t.err()).toBe("backroom: building the customer index on this machine (first use)…\n");
    // Built: later searches only read what changed, and say nothing.
    const again = io();
    expect(await runCustomersSearch(["quillfeather", "--json"], again.io, deps())).toBe(0);
    expect(again.err()).toBe("");
  });

  it("finds a company by its name, and --name looks in names alone", async () => {
    const summit = async (...argv: string[]) => {
      const t = io();
      expect(await runCustomersSearch([...argv, "--json"], t.io, deps())).toBe(0);
      return JSON.parse(t.out()) as Customer[];
    };
    expect((await summit("summit roofing")).map((c) => c.company_name)).toContain("Summit Roofing");
    expect((await summit("--name", "summit")).map((c) => c.company_name)).toContain("Summit Roofing");
    // An email holds "quillfeather"; --name looks at names: the two Quillfeathers by family name only.
    expect(await summit("--name", "ada.quillfeather")).toEqual([]);
    expect((await summit("--name", "quillfeather")).map((c) => c.id)).toEqual([ada.id, adaTwin.id]);
    const text = io();
    expect(await runCustomersSearch(["summit roofing"], text.io, deps())).toBe(0);
    expect(text.out().split("\n")[0]).toMatch(
      /^“summit roofing” in names, emails, phones, reference ids, from the customer index on this machine · \d+ match/,
    );
  });

  it("a phone number in any spelling, --email, --phone, --group by name, --limit", async () => {
    const ids = async (...argv: string[]) => {
      const t = io();
      expect(await runCustomersSearch([...argv, "--json"], t.io, deps())).toBe(0);
      return (JSON.parse(t.out()) as Customer[]).map((c) => c.id);
    };
    expect(await ids("(917) 555-0101")).toEqual([ada.id]);
    expect(await ids("--phone", "917.555.010")).toEqual([ada.id, adaTwin.id]);
    expect(await ids("--email", "adeline")).toEqual([adaTwin.id]);
    expect(await ids("ref:QF-0001")).toEqual([ada.id]);
    expect(await ids("quillfeather", "--group", "vip")).toEqual([ada.id]);
    expect(await ids("quillfeather", "--group", VIP)).toEqual([ada.id]);
    expect(await ids("quillfeather", "--limit", "1")).toEqual([ada.id]);
  });

  it("saves one E.164 value for a number typed four ways, and finds it by each spelling", async () => {
    const ways = ["(212) 555-4881", "212.555.4881", "+1 212 555 4881", "1-212-555-4881"];
    const bodies = ways.map((phone_number) => createBody({ given_name: "Wendell", phone_number }, "US"));
    expect(new Set(bodies.map((b) => (b.ok ? b.value.phone_number : b.problem)))).toEqual(new Set(["+12125554881"]));
    const saved = bodies[0]?.ok ? bodies[0].value : {};
    const wendell = (await client.customers.createCustomer(saved)).customer as Customer;
    // One saved long ago as typed, by another app: found by every spelling too.
    const old = (await client.customers.createCustomer({ given_name: "Odile", phone_number: "(212) 555-4881" }))
      .customer as Customer;
    for (const typed of ways) {
      const t = io();
      expect(await runCustomersSearch([typed, "--json"], t.io, deps()), typed).toBe(0);
      expect((JSON.parse(t.out()) as Customer[]).map((c) => c.id).sort(), typed).toEqual([wendell.id, old.id].sort());
    }
    const shown = io();
    expect(await runCustomersGet([wendell.id ?? ""], shown.io, deps())).toBe(0);
    expect(shown.out()).toContain("Phone         (212) 555-4881\n");
    await client.customers.deleteCustomer(wendell.id ?? "");
    await client.customers.deleteCustomer(old.id ?? "");
  });

  it("pages past the service's page of 100 up to --limit", async () => {
    const t = io();
    expect(await runCustomersSearch(["--limit", "250", "--ndjson"], t.io, deps())).toBe(0);
    const lines = t.out().trimEnd().split("\n");
    expect(lines).toHaveLength(250);
    expect(new Set(lines.map((l) => (JSON.parse(l) as Customer).id)).size).toBe(250);
  });

  it("--csv has a header and one row per profile; the text table says when there are more", async () => {
    const csv = io();
    expect(await runCustomersSearch(["quillfeather", "--csv"], csv.io, deps())).toBe(0);
    const rows = csv.out().trimEnd().split("\r\n");
    expect(rows[0]).toBe(CUSTOMER_CSV_HEADER.join(","));
    expect(rows).toHaveLength(3);
    expect(rows[1]).toContain("ada.quillfeather@example.org");

    const text = io();
    expect(await runCustomersSearch(["--limit", "5"], text.io, deps())).toBe(0);
    const [heading, header] = text.out().split("\n");
    // Where it looked, and one count: the heading's and the "showing" line's are the same number.
    const total = /· ([\d,]+) matches$/.exec(heading ?? "")?.[1];
    expect(heading).toMatch(/^everyone, from the customer index on this machine · 5\d\d matches$/);
    expect(header).toMatch(/^NAME\s+EMAIL\s+PHONE\s+ID$/);
    expect(text.err()).toBe(`showing 5 of ${total}; --limit N shows more\n`);
  });

  it("refuses bad input on stderr with a non-zero exit, and prints nothing on stdout", async () => {
    const cases: [string[], number, RegExp][] = [
      [["--limit", "0"], 2, /--limit must be a whole number/],
      [["--json", "--csv"], 2, /cannot go together/],
      [["--group", "Nobody"], 2, /no customer group "Nobody"; there are: VIP, Contractors/],
      [["--phone", "abc"], 2, /--phone needs the digits of a phone number, not "abc"/],
      [["--name", "  "], 2, /--name needs letters or digits to look for/],
      [["a", "b"], 2, /unexpected argument "b"/],
    ];
    for (const [argv, code, message] of cases) {
      const t = io();
      expect(await runCustomersSearch(argv, t.io, deps()), argv.join(" ")).toBe(code);
      expect(t.err(), argv.join(" ")).toMatch(message);
      expect(t.out(), argv.join(" ")).toBe("");
    }
  });

  it("a failure of the service is one line on stderr, exit 1", async () => {
    await fetch(`${svc.url}/_emulator/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ operation: "SearchCustomers", status: 503, code: "SERVICE_UNAVAILABLE", count: 1 }),
    });
    const t = io();
    expect(await runCustomersSearch(["ada", "--json"], t.io, deps())).toBe(1);
    expect(t.out()).toBe("");
    expect(t.err()).toMatch(/^backroom customers search: the search failed: .*\(SERVICE_UNAVAILABLE\)\n$/);
  });
});

describe("backroom customers get", () => {
  it("--json prints the profile object and nothing else", async () => {
    const t = io();
    expect(await runCustomersGet([ada.id ?? "", "--json"], t.io, deps())).toBe(0);
    expect(JSON.parse(t.out())).toMatchObject({ id: ada.id, group_ids: [VIP], version: 1 });
    expect(t.err()).toBe("");
  });

  it("for people: a field a line, groups by name", async () => {
    const t = io();
    expect(await runCustomersGet([ada.id ?? ""], t.io, deps())).toBe(0);
    const out = t.out();
    expect(out).toContain("Name          Ada Quillfeather\n");
    expect(out).toContain("Groups        VIP\n");
    expect(out).toContain("Reference id  QF-0001\n");
  });

  it("an unknown id, or none, is an error on stderr", async () => {
    const t = io();
    expect(await runCustomersGet(["NOPE", "--json"], t.io, deps())).toBe(1);
    expect(t.err()).toBe('backroom customers get: no customer with id "NOPE" (NOT_FOUND)\n');
    expect(t.out()).toBe("");
    const none = io();
    expect(await runCustomersGet([], none.io, deps())).toBe(2);
    expect(none.err()).toMatch(/missing ID/);
  });
});
