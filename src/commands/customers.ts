import {
  addressLine,
  birthdayText,
  CUSTOMER_CSV_HEADER,
  cardLabel,
  classifyQuery,
  customerCsvRow,
  customerName,
  groupNames,
  lookupQuery,
  phoneDigits,
  searchRequest,
  sourceLabel,
} from "../domain/customers.js";
import { showPhone } from "../domain/phone.js";
import type { Customer, CustomerGroup, Location } from "../spec/generated/types.js";
import { SquareApiError, type SquareClient } from "../square/index.js";
import { type CommandSpec, intOption, type ParsedArgs, readArgs, UsageError } from "./args.js";
import { customerIndexFile } from "./customer-index-file.js";
import { findInIndex, readyIndex } from "./customers-index.js";
import { CommandError, type CommandIo, say } from "./io.js";
import type { TargetDeps } from "./listing.js";
import { type CsvColumn, FORMAT_OPTIONS, formatRecords, type OutputFormat, outputFormat } from "./output.js";
import { runCommand, serviceFailure } from "./run.js";
import { pickLocation, TARGET_OPTIONS, targetFlags, withTargetClient } from "./target.js";

/** The part of the client the customers commands use. */
export type CustomersClient = Pick<
  SquareClient["customers"],
  "listCustomers" | "searchCustomers" | "retrieveCustomer" | "listCustomerGroups"
>;

/** Most records one search prints unless `--limit` says otherwise. */
export const DEFAULT_LIMIT = 100;

/** `backroom customers search`'s command line. */
export const CUSTOMERS_SEARCH_SPEC = {
  name: "backroom customers search",
  summary:
    "Finds customer profiles by part of a given name, family name, nickname, company, email, phone number (any spelling) or reference id: QUERY is read as the app's search line reads it, every word must be found. The search runs on the store's customer index on this machine, the same one the app keeps: built on first use (progress on stderr), brought up to date before each search. With no QUERY and no filter, everyone, by name. Filters combine with AND.",
  positionals: [
    { name: "QUERY", optional: true, help: "what to look for; prefix name:, email:, phone: or ref: to say where" },
  ],
  options: {
    name: {
      type: "string",
      value: "N",
      help: "given name, family name, nickname or company contains every word of N (names alone, not emails)",
    },
    email: { type: "string", value: "E", help: "email address contains every word of E" },
    phone: { type: "string", value: "P", help: "phone number contains the digits of P (any spelling)" },
    group: { type: "string", short: "g", value: "ID|NAME", help: "only members of this customer group" },
    limit: {
      type: "string",
      short: "n",
      value: "N",
      help: `print at most N profiles (default ${DEFAULT_LIMIT}; pages are fetched as needed)`,
    },
    ...FORMAT_OPTIONS,
    ...TARGET_OPTIONS,
  },
  details:
    "Records are the index's copy of each profile: names, contact, reference id, birthday, groups, creation and version (address, note and cards come with `backroom customers get ID`, which reads the profile as it is now). Without a data folder it can write, the command asks the service's search instead, which has no name filter.",
} as const satisfies CommandSpec;

/** `backroom customers get`'s command line. */
export const CUSTOMERS_GET_SPEC = {
  name: "backroom customers get",
  summary: "Shows one customer profile as it is now: names, contact, address, groups, cards on file, version.",
  positionals: [{ name: "ID", help: "the profile's id" }],
  options: {
    json: { type: "boolean", help: "print the profile as one JSON object, and nothing else, on stdout" },
    ...TARGET_OPTIONS,
  },
} as const satisfies CommandSpec;

/** The checked options of `backroom customers search`. */
export interface CustomerSearchOptions {
  query: string | undefined;
  name: string | undefined;
  email: string | undefined;
  phone: string | undefined;
  group: string | undefined;
  limit: number;
  format: OutputFormat;
  target: { env?: string | undefined; "base-url"?: string | undefined; db?: string | undefined };
}

/** Checks `search`'s options; a bad value is a UsageError naming the flag. */
export function customerSearchOptions({
  values,
  positionals,
}: ParsedArgs<typeof CUSTOMERS_SEARCH_SPEC.options>): CustomerSearchOptions {
  const target = targetFlags(values);
  if (values.phone !== undefined && phoneDigits(values.phone) === "") {
    throw new UsageError(`--phone needs the digits of a phone number, not ${JSON.stringify(values.phone)}`);
  }
  for (const flag of ["name", "email"] as const) {
    const v = values[flag];
    if (v !== undefined && !/[\p{L}\p{N}]/u.test(v)) {
      throw new UsageError(`--${flag} needs letters or digits to look for, not ${JSON.stringify(v)}`);
    }
  }
  return {
    query: positionals[0],
    name: values.name,
    email: values.email,
    phone: values.phone,
    group: values.group,
    limit: intOption("limit", values.limit, 1, 1_000_000) ?? DEFAULT_LIMIT,
    format: outputFormat(values),
    target,
  };
}

/** The group a `--group` value names: its id, or its name without regard to case. */
export async function resolveGroup(client: CustomersClient, wanted: string): Promise<CustomerGroup> {
  const groups = await client.listCustomerGroups().all();
  const lower = wanted.trim().toLowerCase();
  const found = groups.find((g) => g.id === wanted.trim()) ?? groups.find((g) => g.name.toLowerCase() === lower);
  if (!found) {
    const names = groups.map((g) => g.name).join(", ");
    throw new CommandError(
      `no customer group ${JSON.stringify(wanted)}; ${names ? `there are: ${names}` : "there are none"}`,
      2,
    );
  }
  return found;
}

/**
 * The matching profiles, page by page, until `limit` are gathered or the service has no more,
 * and the number of matches when `count` is asked (the first page carries it). Pages ask for no
 * more than is left.
 */
export async function searchCustomerRecords(
  client: CustomersClient,
  opts: Pick<CustomerSearchOptions, "query" | "email" | "phone" | "group" | "limit">,
  count = false,
  country?: string,
): Promise<{ customers: Customer[]; count: number | undefined; more: boolean }> {
  const group = opts.group === undefined ? undefined : await resolveGroup(client, opts.group);
  const built = lookupQuery(
    classifyQuery(opts.query ?? "", country),
    {
      ...(group?.id ? { groupId: group.id } : {}),
      ...(opts.email !== undefined ? { email: opts.email } : {}),
      ...(opts.phone !== undefined ? { phone: opts.phone } : {}),
    },
    "name",
    "UTC",
    country,
  );
  if (!built.ok) throw new CommandError(built.problem, 2);
  const customers: Customer[] = [];
  let total: number | undefined;
  let cursor: string | undefined;
  do {
    const left = opts.limit - customers.length;
    const first = cursor === undefined;
    const page = await client.searchCustomers({
      ...searchRequest(built.value, Math.min(100, left), first && count),
      ...(cursor ? { cursor } : {}),
    });
    if (first) total = page.count;
    customers.push(...(page.customers ?? []).slice(0, left));
    cursor = page.cursor || undefined;
  } while (cursor && customers.length < opts.limit);
  return { customers, count: total, more: cursor !== undefined };
}

const CSV_COLUMNS: readonly CsvColumn<Customer>[] = CUSTOMER_CSV_HEADER.map((header, i) => ({
  header,
  cell: (c: Customer) => customerCsvRow(c)[i],
}));

const cell = (text: string, width: number) =>
  (text.length > width ? `${text.slice(0, width - 1)}…` : text).padEnd(width);

/** The human table of `search`: name, email, phone (in the store's national format), id. */
export function customersTable(customers: readonly Customer[], country?: string): string {
  const line = (name: string, email: string, phone: string, id: string) =>
    `${cell(name, 28)}  ${cell(email, 34)}  ${cell(phone, 17)}  ${id}`.trimEnd();
  return [
    line("NAME", "EMAIL", "PHONE", "ID"),
    ...customers.map((c) =>
      line(
        customerName(c, country),
        c.email_address ?? "",
        c.phone_number ? showPhone(c.phone_number, country) : "",
        c.id ?? "",
      ),
    ),
  ].join("\n");
}

/** One profile for people, a field a line; empty fields left out; the phone in the store's national format. */
export function customerText(c: Customer, groups: readonly CustomerGroup[], now: Date, country?: string): string {
  const rows: [string, string | undefined][] = [
    ["Name", customerName(c, country)],
    ["Nickname", c.nickname],
    ["Company", c.company_name],
    ["Email", c.email_address],
    ["Phone", c.phone_number ? showPhone(c.phone_number, country) : undefined],
    ["Address", addressLine(c)],
    ["Birthday", birthdayText(c.birthday)],
    ["Reference id", c.reference_id],
    ["Note", c.note],
    ["Groups", groupNames(c.group_ids, groups).join(", ")],
    ["Created by", sourceLabel(c.creation_source)],
    ["Created", c.created_at],
    ["Updated", c.updated_at],
    ["Cards on file", (c.cards ?? []).map((card) => cardLabel(card, now)).join("; ")],
    ["Version", c.version === undefined ? undefined : String(c.version)],
    ["Id", c.id],
  ];
  return rows
    .filter(([, v]) => v !== undefined && v !== "")
    .map(([k, v]) => `${k.padEnd(14)}${v}`)
    .join("\n");
}

/** What the customers commands build on: how to open a client on the target, and the clock. */
export interface CustomersDeps
  extends TargetDeps<{ customers: CustomersClient; locations: Pick<SquareClient["locations"], "listLocations"> }> {
  /** The customer index file; by default the target's in the data folder. */
  indexPath?: string;
}

/** The store a command works on: its locations, its country, and its customer index file. */
interface StoreInfo {
  locations(): Promise<Location[]>;
  /** Phone numbers are read and shown as numbers of the default location's country. */
  country(): Promise<string | undefined>;
  indexPath: string;
}

/** The customers client, and what the command needs to know of the store. */
async function withClient<T>(
  io: CommandIo,
  flags: CustomerSearchOptions["target"],
  deps: CustomersDeps,
  body: (client: CustomersClient, store: StoreInfo) => Promise<T>,
): Promise<T> {
  return withTargetClient(io, flags, deps.open, (opened, resolved) => {
    let read: Promise<Location[]> | undefined;
    const locations = () => {
      read ??= opened.client.locations.listLocations().then((r) => r.locations ?? []);
      return read;
    };
    return body(opened.client.customers, {
      locations,
      country: async () => {
        const all = await locations();
        const home = all.length ? pickLocation(all, undefined, resolved.target.defaultLocationId) : undefined;
        return home?.country ?? all.find((l) => l.country)?.country;
      },
      indexPath: deps.indexPath ?? customerIndexFile(resolved.target, io.env),
    });
  });
}

/** What a search found, how many match in all when known, and where it looked. */
interface Found {
  customers: Customer[];
  count: number | undefined;
  /** More match than `count` (the index stops counting at 10,000). */
  atLeast?: boolean;
  more: boolean;
  heading: string;
}

/**
 * The search on the store's customer index (filled or refreshed first); on the service's search
 * when this machine cannot keep an index, which has no name filter.
 */
async function findCustomers(
  client: CustomersClient,
  store: StoreInfo,
  opts: CustomerSearchOptions,
  stderr: NodeJS.WritableStream,
): Promise<Found> {
  const country = await store.country();
  const group = opts.group === undefined ? undefined : await resolveGroup(client, opts.group);
  const index = await readyIndex({ customers: client }, store.indexPath, await store.locations(), stderr);
  if (index) {
    try {
      const ask = { ...opts, groupId: group?.id };
      const a = findInIndex(index, ask, country, group?.name);
      const more = !a.exact || a.total > a.customers.length;
      return { customers: a.customers, count: a.total, atLeast: !a.exact, more, heading: a.heading };
    } finally {
      index.close();
    }
  }
  if (opts.name !== undefined) {
    throw new CommandError("--name needs the customer index, which cannot be kept on this machine", 2);
  }
  const found = await searchCustomerRecords(client, opts, opts.format === "text", country);
  return { ...found, heading: "from the service's search (names are looked for in email addresses)" };
}

/** `backroom customers search`: the matching profiles on stdout. */
export async function runCustomersSearch(argv: string[], io: CommandIo, deps: CustomersDeps = {}): Promise<number> {
  const read = readArgs(io, CUSTOMERS_SEARCH_SPEC, argv, customerSearchOptions);
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, CUSTOMERS_SEARCH_SPEC.name, () =>
    withClient(io, opts.target, deps, async (client, store) => {
      const found = await findCustomers(client, store, opts, io.stderr).catch((err) =>
        serviceFailure(err, "the search failed"),
      );
      if (opts.format !== "text") {
        io.stdout.write(formatRecords(opts.format, found.customers, CSV_COLUMNS));
        return 0;
      }
      if (found.customers.length === 0) {
        say(io.stderr, `no customer matches: ${found.heading}`);
        return 0;
      }
      // One number for the heading and the "showing" line.
      const n = found.count === undefined ? "" : `${found.count.toLocaleString("en-US")}${found.atLeast ? "+" : ""}`;
      say(io.stdout, `${found.heading}${n === "" ? "" : ` · ${n} match${n === "1" ? "" : "es"}`}`);
      say(io.stdout, customersTable(found.customers, await store.country()));
      if (found.more) {
        const of = n === "" ? "" : ` of ${n}`;
        say(io.stderr, `showing ${found.customers.length}${of}; --limit N shows more`);
      }
      return 0;
    }),
  );
}

/** `backroom customers get ID`: one profile, for people or as JSON. */
export async function runCustomersGet(argv: string[], io: CommandIo, deps: CustomersDeps = {}): Promise<number> {
  const read = readArgs(io, CUSTOMERS_GET_SPEC, argv, ({ values, positionals }) => {
    const target = targetFlags(values);
    return { id: positionals[0] ?? "", json: values.json === true, target };
  });
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, CUSTOMERS_GET_SPEC.name, () =>
    withClient(io, opts.target, deps, async (client, { country }) => {
      let customer: Customer | undefined;
      try {
        customer = (await client.retrieveCustomer(opts.id)).customer;
      } catch (err) {
        if (err instanceof SquareApiError && err.status === 404) {
          throw new CommandError(`no customer with id ${JSON.stringify(opts.id)} (${err.code})`);
        }
        serviceFailure(err, "reading the profile failed");
      }
      if (!customer) throw new CommandError(`no customer with id ${JSON.stringify(opts.id)}`);
      if (opts.json) {
        io.stdout.write(`${JSON.stringify(customer, null, 2)}\n`);
        return 0;
      }
      const groups = customer.group_ids?.length ? await client.listCustomerGroups().all() : [];
      say(io.stdout, customerText(customer, groups, deps.now?.() ?? new Date(), await country()));
      return 0;
    }),
  );
}
