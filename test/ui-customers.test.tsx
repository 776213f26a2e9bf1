// Customer lookup driven with keys through the whole app, against the in-process local service.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CustomerIndexHandle } from "../src/local/customer-index.js";
import type { Customer } from "../src/spec/generated/types.js";
import { selectedCustomer } from "../src/ui/screens/customers/commands.js";
import { type DrivenApp, KEYS, startApp } from "./helpers/app.js";
import { startService, type TestService } from "./helpers/service.js";

const VIP = "GVIP0000000000000000000001";
const CTRL_U = "\u0015";

let svc: TestService;
let app: DrivenApp | undefined;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc.close();
});
afterEach(async () => {
  await svc.raw("DELETE", "/_emulator/faults");
  await app?.close();
  app = undefined;
});

/**
 * The app on the customers screen, its customer index filled, with the first page shown.
 * `noIndex`: this machine cannot keep one (its folder is a file): the service's search answers.
 */
async function open(size: { columns?: number; rows?: number; noIndex?: boolean } = {}): Promise<DrivenApp> {
  const a = await startApp({
    shared: svc,
    columns: size.columns ?? 80,
    rows: size.rows ?? 24,
    ...(size.noIndex ? { store: { customerIndex: new CustomerIndexHandle("/dev/null/customers.db") } } : {}),
  });
  app = a;
  await a.waitFor("1 Time clock");
  await a.press("5");
  if (!size.noIndex) {
    await a.waitForStore((s) => s.customers.index.phase === "ready" && !s.customers.index.refreshing);
  }
  await a.waitFor(/everyone · [\d,]+ match(es)? · by name\s*$/m);
  // The list has the keys on arrival: the search line takes them only after `/`.
  return a;
}

async function make(body: Record<string, string>): Promise<Customer> {
  return (await svc.client.customers.createCustomer(body)).customer as Customer;
}

async function fetchCustomer(id: string): Promise<Customer | undefined> {
  return (await svc.client.customers.retrieveCustomer(id)).customer;
}

/** How many profiles the service counts for a filter. */
async function serviceCount(filter: object): Promise<number> {
  const page = await svc.client.customers.searchCustomers({ query: { filter }, limit: 1, count: true });
  return page.count ?? -1;
}

/** Types a search, then enter: the list has the keys and the first match's profile is open. */
async function find(a: DrivenApp, text: string, expect: string | RegExp) {
  await a.press("/", CTRL_U, text);
  await a.waitFor(expect);
  await a.press(KEYS.enter);
}

/** The line of the frame that holds `text`. */
const lineWith = (frame: string, text: string) => frame.split("\n").find((l) => l.includes(text)) ?? "";

describe("customers screen: search", () => {
  it("without an index here, searches the service as the manager types, and drops a late answer", async () => {
    const q = await make({
      given_name: "Quincy",
      family_name: "Larkspurr",
      email_address: "quincy.larkspurr@example.org",
    });
    const a = await open({ noIndex: true });
    await a.waitFor("The customer index cannot be kept on this machine");
    // The first search of what follows answers late; the second, sent meanwhile, answers first.
    await svc.raw("POST", "/_emulator/faults", {
      body: { operation: "SearchCustomers", status: 200, latency_ms: 700, count: 1 },
    });
    const stale = a.store.getState().customers.staleAnswers;
    await a.press("/", "l");
    await a.press("arkspurr");
    await a.waitFor("Quincy Larkspurr");
    await a.waitFor("1 match");
    await a.waitForStore((s) => s.customers.staleAnswers === stale + 1);
    // The late answer (everyone with an "l") did not replace the newer one.
    const frame = a.frame();
    expect(frame).toContain("Find: larkspurr");
    expect(frame).toContain("1 match");
    expect(a.store.getState().customers.results.rows.map((c) => c.id)).toEqual([q.id]);
  });

  it("finds a phone number in any spelling, an email fragment and a reference id", async () => {
    const p = await make({
      given_name: "Perpetua",
      family_name: "Fenwright",
      phone_number: "+1 (917) 555-0177",
      reference_id: "FW-7781",
    });
    const a = await open();
    await a.press("/");
    for (const spelling of ["(917) 555-0177", "9175550177", "+1 917 555"]) {
      await a.press(CTRL_U, spelling);
      await a.waitFor((f) => f.includes("Perpetua Fenwright") && f.includes(`Find: ${spelling}`));
    }
    await a.waitFor("phone numbers containing 917555 · 1 match");
    await a.press(CTRL_U, "ref:FW-77");
    await a.waitFor((f) => f.includes("“FW-77” in reference ids · 1 match") && f.includes("Perpetua Fenwright"));
    // A name is found too: the index holds names, which the service's search cannot look for.
    await a.press(CTRL_U, "fenwri");
    await a.waitFor(/“fenwri” in names, emails, phones, reference ids · 1 match/);
    expect(a.store.getState().customers.results.rows.map((c) => c.id)).toEqual([p.id]);
  });

  it("pages past the first page as the cursor moves down, never loading everything; one count", async () => {
    const a = await open();
    const all = (await serviceCount({})).toLocaleString("en-US");
    expect(a.store.getState().customers.results.rows).toHaveLength(50);
    // The count and the position line count to the same number.
    await a.waitFor(`everyone · ${all} matches`);
    await a.press("G");
    await a.waitFor(`–50 of ${all}`);
    await a.press("G");
    await a.waitFor(`–100 of ${all}`);
    const { rows } = a.store.getState().customers.results;
    expect(rows.length).toBe(150);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    // The cursor is on the 100th profile, from the second page.
    const lines = a.frame().split("\n");
    const position = lines.findIndex((l) => l.includes(`–100 of ${all}`));
    expect(lines[position - 1]).toMatch(/^›/);
  });

  it("help says the list comes from the index on this machine, refreshed every 30 s, and r reads now", async () => {
    const a = await open();
    await a.press("?");
    await a.waitFor(/\/\s+search: email, phone, reference id, name/);
    // The note comes after the keys: at 80×24 it is further down, whole.
    await a.press(KEYS.pageDown);
    await a.waitFor(/D\s+duplicates: shared email or phone/);
    await a.press("G");
    await a.waitFor("Found from the customer index on this machine, refreshed every 30 s (r now)");
    await a.press(KEYS.escape);
    await a.waitFor((f) => !f.includes("esc or ? closes"));
  });

  it("r keeps the cursor on its profile when the rows come back in another order", async () => {
    const made: Customer[] = [];
    for (const given of ["Albrecht", "Benedikta", "Cosima"]) {
      made.push(
        await make({ given_name: given, family_name: "Wintermere", email_address: `${given}.wintermere@example.org` }),
      );
    }
    const a = await open();
    await a.press("/", CTRL_U, "wintermere");
    await a.waitFor("3 matches");
    await a.press(KEYS.enter, "j");
    await a.waitFor((f) => lineWith(f, "›").includes("Benedikta Wintermere"));
    // Renamed on another terminal: she now sorts last of the three.
    await svc.client.customers.updateCustomer(made[1]?.id ?? "", { given_name: "Xanthe", version: 0 });
    await a.press("r");
    await a.waitFor((f) => lineWith(f, "›").includes("Xanthe Wintermere"));
    const frame = a.frame();
    expect(frame.indexOf("Cosima Wintermere")).toBeLessThan(frame.indexOf("Xanthe Wintermere"));
    expect(selectedCustomer(a.store.getState())?.id).toBe(made[1]?.id);
  });

  it("orders by creation date, newest first, and back", async () => {
    const fresh = await make({ given_name: "Newest", family_name: "Ofall" });
    const a = await open();
    await a.press("o");
    await a.waitFor("newest first");
    await a.waitForStore((s) => s.customers.results.rows[0]?.id === fresh.id);
    await a.press("o");
    await a.waitFor("by name");
  });
});

describe("customers screen: filters", () => {
  it("group, creation source include and exclude, created-at range: each counted as the service counts", async () => {
    const a = await open();
    await a.press("f");
    await a.waitFor("Filters");
    await a.press("VIP", KEYS.enter);
    const vip = await serviceCount({ group_ids: { any: [VIP] } });
    await a.waitFor(`filters: group VIP · ${vip.toLocaleString("en-US")} match`);

    await a.press("F");
    await a.waitFor(/everyone · [\d,]+ match/);
    await a.press("f", KEYS.tab, "import", KEYS.tab, CTRL_U, "exclude", KEYS.enter);
    const notImport = await serviceCount({ creation_source: { rule: "EXCLUDE", values: ["IMPORT"] } });
    await a.waitFor(`filters: not from Import · ${notImport.toLocaleString("en-US")} match`);

    await a.press("f", KEYS.tab, CTRL_U, "import, loyalty", KEYS.tab, CTRL_U, "include", KEYS.enter);
    const fromTwo = await serviceCount({ creation_source: { rule: "INCLUDE", values: ["IMPORT", "LOYALTY"] } });
    await a.waitFor(`filters: from Import/Loyalty · ${fromTwo.toLocaleString("en-US")} match`);

    await a.press("F", "f", KEYS.tab, KEYS.tab, KEYS.tab, "2025-01-01", KEYS.tab, "2025-06-30", KEYS.enter);
    // The demo store's main location is in New York: the days are its local days.
    const inRange = await serviceCount({
      created_at: { start_at: "2025-01-01T05:00:00.000Z", end_at: "2025-07-01T03:59:59.999Z" },
    });
    await a.waitFor(`created 2025-01-01–2025-06-30 · ${inRange.toLocaleString("en-US")} match`);
  });

  it("a bad filter is refused in words and nothing changes", async () => {
    const a = await open();
    await a.press("f", "Nobody", KEYS.enter);
    await a.waitFor("No group called “Nobody”; there are: VIP");
    await a.press(CTRL_U, KEYS.tab, KEYS.tab, KEYS.tab, "2025-02-30", KEYS.enter);
    await a.waitFor("is not a date");
    await a.press(KEYS.escape);
    await a.waitFor(/everyone · [\d,]+ match/);
  });

  it("a bad filter refused from another field takes the manager to it, selected: typing replaces it", async () => {
    const a = await open();
    await a.press("f", "Nobody", KEYS.tab, KEYS.enter);
    await a.waitFor("No group called “Nobody”; there are: VIP");
    await a.waitFor(/› Group: +Nobody/);
    await a.press("VIP", KEYS.tab, KEYS.tab, KEYS.tab, "2025-02-30", KEYS.tab, KEYS.enter);
    await a.waitFor("“2025-02-30” is not a date; write YYYY-MM-DD.");
    await a.waitFor(/› Created from: +2025-02-30/);
    await a.press("2025-02-01", KEYS.enter);
    await a.waitFor((f) => !f.includes("Filters (they combine"));
    expect(a.store.getState().customers.filters).toMatchObject({ createdFrom: "2025-02-01" });
    expect(a.store.getState().customers.filters.groupId).toBeTruthy();
  });
});

describe("customers screen: changes", () => {
  it("create: the form says the rule before submit, refuses without it, then adds and shows the profile at once", async () => {
    const a = await open();
    await a.press("n");
    await a.waitFor("New customer profile");
    expect(a.frame()).toContain("Needs at least a name, company, email or phone.");
    await a.press(KEYS.enter);
    await a.waitFor("! Needs at least a name, company, email or phone.");
    await a.press("Ottoline", KEYS.tab, "Brassfield", KEYS.tab, KEYS.tab, KEYS.tab, KEYS.tab, "(718) 555-0142");
    // The focused field shows all that was typed, with its hint after it (the hint is what is cut).
    await a.waitFor((f) => /\(718\) 555-0142\s+any spelling/.test(lineWith(f, "› Phone:")));
    await a.press(KEYS.enter);
    await a.waitFor("Added Ottoline Brassfield.");
    await a.waitFor((f) => lineWith(f, "›").includes("Ottoline Brassfield"));
    const id = selectedCustomer(a.store.getState())?.id ?? "";
    // Saved in E.164, shown in the store's national format.
    expect(await fetchCustomer(id)).toMatchObject({ given_name: "Ottoline", phone_number: "+17185550142" });
    await a.waitFor((f) => f.includes("(718) 555-0142"));
  });

  it("a long note being typed at 60 columns goes on under the field, its end in sight, and is saved whole", async () => {
    const a = await open({ columns: 60, rows: 24 });
    await a.press("n");
    await a.waitFor("New customer profile");
    const note = "Pays cash; collects the paint order on Fridays, calls ahead from the van.";
    await a.press("Ottilie", KEYS.shiftTab, note);
    // The note's end is on the line under it, and the form's last line is still drawn.
    await a.waitFor((f) => f.includes("calls ahead from the van.") && f.includes("field 15 of 15"));
    await a.press(KEYS.enter);
    await a.waitFor("Added Ottilie.");
    const id = selectedCustomer(a.store.getState())?.id ?? "";
    expect(await fetchCustomer(id)).toMatchObject({ note });
  });

  it("create: a bad email refused from another field takes the manager back to the email, typing replaces it", async () => {
    const a = await open();
    await a.press("n");
    await a.waitFor("New customer profile");
    await a.press("Ottilie", KEYS.tab, KEYS.tab, KEYS.tab, KEYS.tab, "ottilie@example");
    // Back past the first field to the note (the last), then save.
    await a.press(KEYS.shiftTab, KEYS.shiftTab, KEYS.shiftTab, KEYS.shiftTab, KEYS.shiftTab, "Pays cash.");
    await a.waitFor((f) => lineWith(f, "› Note:").includes("Pays cash."));
    await a.press(KEYS.enter);
    await a.waitFor("! “ottilie@example” is not an email address.");
    await a.waitFor((f) => lineWith(f, "›").includes("Email:"));
    await a.press("ottilie@example.org");
    await a.waitFor((f) => /› Email:\s+ottilie@example\.org /.test(lineWith(f, "› Email:")));
    await a.press(KEYS.enter);
    await a.waitFor("Added Ottilie.");
    const id = selectedCustomer(a.store.getState())?.id ?? "";
    expect(await fetchCustomer(id)).toMatchObject({ email_address: "ottilie@example.org", note: "Pays cash." });
  });

  it("edit: an emptied field is removed on the service", async () => {
    const c = await make({
      given_name: "Wilhelmina",
      family_name: "Thornquist",
      nickname: "Mina",
      email_address: "w.thornquist@example.org",
      note: "Pays cash.",
    });
    const a = await open();
    await find(a, "thornquist", "Wilhelmina Thornquist");
    await a.press("e");
    await a.waitFor("Edit Wilhelmina Thornquist (version 0)");
    // Nickname is the fourth field; Note the last.
    await a.press(
      KEYS.tab,
      KEYS.tab,
      KEYS.tab,
      CTRL_U,
      KEYS.shiftTab,
      KEYS.shiftTab,
      KEYS.shiftTab,
      KEYS.shiftTab,
      CTRL_U,
      "Pays by card.",
      KEYS.enter,
    );
    await a.waitFor("Saved Wilhelmina Thornquist.");
    const now = await fetchCustomer(c.id ?? "");
    expect(now?.nickname).toBeUndefined();
    expect(now?.note).toBe("Pays by card.");
    expect(now?.version).toBe(1);
    // The profile pane shows the change at once.
    await a.waitFor("Pays by card.");
  });

  it("delete: asks first (enter is no), sends the version, and a stale one is refused", async () => {
    const c = await make({ given_name: "Barnaby", family_name: "Quelch", email_address: "barnaby.quelch@example.org" });
    const a = await open();
    await find(a, "barnaby.quelch@", "Barnaby Quelch");
    await a.press("x");
    await a.waitFor("Delete the profile of Barnaby Quelch (version 0)?");
    await a.press(KEYS.enter);
    await a.waitFor((f) => !f.includes("Delete the profile"));
    expect(await fetchCustomer(c.id ?? "")).toBeDefined();

    // Someone changes it elsewhere: the version this terminal holds is now stale.
    await svc.client.customers.updateCustomer(c.id ?? "", { note: "changed elsewhere" });
    await a.press("x");
    await a.waitFor("(version 0)?");
    await a.press("y");
    await a.waitFor("Barnaby Quelch was changed elsewhere since it was read; nothing was deleted.");
    expect((await fetchCustomer(c.id ?? ""))?.note).toBe("changed elsewhere");

    await a.press("x");
    await a.waitFor("Delete the profile of Barnaby Quelch (version 1)?");
    await a.press("y");
    await a.waitFor("Deleted Barnaby Quelch.");
    await a.waitFor((f) => !f.includes("Barnaby Quelch") || f.includes("Deleted Barnaby Quelch"));
    await expect(svc.client.customers.retrieveCustomer(c.id ?? "")).rejects.toMatchObject({ status: 404 });
  });

  it("a version conflict is shown side by side and the manager's change is re-applied on the new version", async () => {
    const c = await make({
      given_name: "Cornelius",
      family_name: "Ashdown",
      email_address: "c.ashdown@example.org",
      note: "Net 30.",
    });
    const a = await open();
    await find(a, "ashdown", "Cornelius Ashdown");
    await a.press("e");
    await a.waitFor("Edit Cornelius Ashdown (version 0)");
    // A colleague changes the nickname and the note while the form is open.
    await svc.client.customers.updateCustomer(c.id ?? "", { nickname: "Neil", note: "Net 15." });
    // Family name is the second field; Note the last, two back from there.
    await a.press(KEYS.tab, CTRL_U, "Ashdown-Pryce", KEYS.shiftTab, KEYS.shiftTab, CTRL_U, "Net 45.", KEYS.enter);
    await a.waitFor("Someone else changed Cornelius Ashdown first: version 0 → 1.");
    const frame = a.frame();
    expect(lineWith(frame, "Family name")).toMatch(/\[x\].*Ashdown-Pryce/);
    expect(lineWith(frame, "Nickname")).toContain("Neil");
    // The manager left the empty nickname alone: not "(removed)" on their side.
    expect(lineWith(frame, "Nickname")).toMatch(/Nickname\s+—\s+—\s+Neil/);
    expect(lineWith(frame, "Note")).toMatch(/\[x\].*Net 45\..*Net 15\./);
    // Keep their note, re-apply my family name.
    await a.press(KEYS.down, KEYS.down, " ");
    await a.waitFor((f) => /\[ \]/.test(lineWith(f, "Note")));
    await a.press(KEYS.enter);
    await a.waitFor("Saved Cornelius Ashdown-Pryce.");
    expect(await fetchCustomer(c.id ?? "")).toMatchObject({
      family_name: "Ashdown-Pryce",
      nickname: "Neil",
      note: "Net 15.",
      version: 2,
    });
  });

  it("adds to and removes from a group picked from the service's groups", async () => {
    const c = await make({
      given_name: "Gwendolyn",
      family_name: "Marchbanks",
      email_address: "g.marchbanks@example.org",
    });
    const a = await open();
    await find(a, "marchbanks", "Gwendolyn Marchbanks");
    await a.press("m");
    await a.waitFor("Groups of Gwendolyn Marchbanks");
    await a.waitFor("Contractors");
    await a.press(" ");
    await a.waitFor("Gwendolyn Marchbanks is in VIP.");
    await a.waitFor((f) => lineWith(f, "VIP").includes("[x]"));
    expect((await fetchCustomer(c.id ?? ""))?.group_ids).toEqual([VIP]);
    await a.press(" ");
    await a.waitFor("Gwendolyn Marchbanks is no longer in VIP.");
    expect((await fetchCustomer(c.id ?? ""))?.group_ids).toBeUndefined();
    await a.press(KEYS.escape);
    await a.waitFor(/Groups\s+none/);
  });

  it("names a profile known only by its phone as the list does, in its groups and messages", async () => {
    const c = await make({ phone_number: "+1-646-555-0177" });
    const a = await open();
    await find(a, "646 555 0177", "(646) 555-0177");
    await a.press("m");
    await a.waitFor("Groups of (646) 555-0177");
    await a.press(" ");
    await a.waitFor("(646) 555-0177 is in VIP.");
    expect((await fetchCustomer(c.id ?? ""))?.group_ids).toEqual([VIP]);
    expect(a.frame()).not.toContain("+1");
  });

  it("cards on file: listed, removed after a question, and adding one is explained", async () => {
    const c = await make({ given_name: "Cardew", family_name: "Pennyfeather", email_address: "cardew.p@example.org" });
    await svc.client.customers.createCustomerCard(c.id ?? "", {
      card_nonce: "cnon:card-nonce-ok-1",
      cardholder_name: "C P",
    });
    const a = await open();
    await find(a, "cardew.p@", "Cardew Pennyfeather");
    await a.press("c");
    await a.waitFor("Cards on file for Cardew Pennyfeather");
    await a.waitFor(/(Visa|Mastercard|American Express|Discover) ending \d{4}, expires \d\d\/\d{4}/);
    await a.press("a");
    await a.waitFor("card nonce");
    await a.press("x");
    await a.waitFor(/Remove .* from Cardew Pennyfeather\?/);
    await a.press("y");
    await a.waitFor("The card is no longer on file for Cardew Pennyfeather.");
    await a.waitFor("No card on file.");
    expect((await fetchCustomer(c.id ?? ""))?.cards).toBeUndefined();
  });
});

describe("customers screen: duplicates", () => {
  it("marks profiles that share an email or a phone, and lists the groups read-only", async () => {
    await make({
      given_name: "Dorothea",
      family_name: "Vintry",
      email_address: "d.vintry@example.org",
      phone_number: "(646) 555-0190",
    });
    await make({ given_name: "Dot", family_name: "Vintry", email_address: "D.Vintry@example.org" });
    await make({
      given_name: "Theo",
      family_name: "Vintry",
      email_address: "theo.vintry@example.org",
      phone_number: "+1 646 555 0190",
    });
    const a = await open();
    await find(a, "vintry", /3 matches/);
    const marked = a
      .frame()
      .split("\n")
      .filter((l) => /^. ≡/.test(l));
    expect(marked).toHaveLength(3);
    await a.press("D");
    await a.waitFor(/2 groups among 3 profiles/);
    const frame = a.frame();
    expect(lineWith(frame, "d.vintry@example.org")).toMatch(/email .*2 .*Dorothea Vintry, Dot Vintry/);
    expect(lineWith(frame, "(646) 555-0190")).toMatch(/phone .*2 .*Dorothea Vintry, Theo Vintry/);
    expect(frame).toContain("Read-only: the interface has no merge");
    await a.press(KEYS.escape);
    await a.waitFor("3 matches");
  });
});

describe("customers screen: layout", () => {
  it("at 80×24 and at 60 columns the profile sits below the list; on a short terminal enter shows it alone", async () => {
    await make({ given_name: "Lavinia", family_name: "Ormsby", email_address: "lavinia.ormsby@example.org" });
    for (const columns of [80, 60]) {
      const a = await open({ columns, rows: 24 });
      await find(a, "ormsby", "Lavinia Ormsby");
      const frame = a.frame();
      expect(frame).toContain("── profile");
      expect(frame).toMatch(/Email\s+lavinia\.ormsby@example\.org/);
      expect(frame.split("\n").every((l) => l.length <= columns)).toBe(true);
      await app?.close();
      app = undefined;
    }
    // Too short for a pane: enter shows the profile alone, esc goes back to the list.
    const a = await open({ columns: 60, rows: 16 });
    await find(a, "ormsby", "Lavinia Ormsby");
    await a.waitFor(/Email\s+lavinia\.ormsby@example\.org/);
    expect(a.frame()).not.toContain("── profile");
    await a.press(KEYS.escape);
    await a.waitFor((f) => !/Email\s+lavinia/.test(f) && f.includes("Lavinia Ormsby"));
    await a.press(KEYS.enter);
    await a.waitFor(/Email\s+lavinia\.ormsby@example\.org/);
  });

  it("wide terminals put the profile beside the list", async () => {
    await make({ given_name: "Peregrine", family_name: "Saltmarsh", email_address: "p.saltmarsh@example.org" });
    const a = await open({ columns: 120, rows: 30 });
    await find(a, "saltmarsh", "Peregrine Saltmarsh");
    // The profile's name sits on the list's header line: the pane is beside the list.
    await a.waitFor((f) => /Email\s+Phone.*Name\s+Peregrine Saltmarsh/.test(f));
  });
});
