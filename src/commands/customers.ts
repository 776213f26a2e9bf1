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
  searchRequest,
  sourceLabel,
} from "../domain/customers.js";
import type { Customer, CustomerGroup } from "../spec/generated/types.js";
import { SquareApiError, type SquareClient } from "../square/index.js";
import { type CommandSpec, intOption, type ParsedArgs, readArgs } from "./args.js";
import { CommandError, type CommandIo, say } from "./io.js";
import { type CsvColumn, FORMAT_OPTIONS, formatRecords, type OutputFormat, outputFormat } from "./output.js";
import { runCommand, serviceFailure } from "./run.js";
import { checkTargetFlags, type OpenedClient, TARGET_OPTIONS, type Target, withTargetClient } from "./target.js";

/** The part of the client the customers commands use. */
export type CustomersClient = Pick<
  SquareClient["customers"],
  "searchCustomers" | "retrieveCustomer" | "listCustomerGroups"
>;

/** Most records one search prints unless `--limit` says otherwise. */
export const DEFAULT_LIMIT = 100;

/** `backroom customers search`'s command line. */
export const CUSTOMERS_SEARCH_SPEC = {
  name: "backroom customers search",
  summary:
    "Finds customer profiles: QUERY is read as the app's search line reads it — an email fragment, a phone number in any spelling, a reference id, or a name (looked for in email addresses: the interface has no name filter). With no QUERY and no filter, everyone, by name. Filters combine with AND.",
  positionals: [
    { name: "QUERY", optional: true, help: "what to look for; prefix email:, phone:, ref: or name: to say which" },
  ],
  options: {
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
    "The service's search can lag up to a minute behind changes made elsewhere; `backroom customers get ID` always reads the profile as it is now.",
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
  const target = { env: values.env, "base-url": values["base-url"], db: values.db };
  checkTargetFlags(target);
  return {
    query: positionals[0],
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
): Promise<{ customers: Customer[]; count: number | undefined; more: boolean }> {
  const group = opts.group === undefined ? undefined : await resolveGroup(client, opts.group);
  const built = lookupQuery(
    classifyQuery(opts.query ?? ""),
    {
      ...(group?.id ? { groupId: group.id } : {}),
      ...(opts.email !== undefined ? { email: opts.email } : {}),
      ...(opts.phone !== undefined ? { phone: opts.phone } : {}),
    },
    "name",
    "UTC",
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

/** The human table of `search`: name, email, phone, id. */
export function customersTable(customers: readonly Customer[]): string {
  const line = (name: string, email: string, phone: string, id: string) =>
    `${cell(name, 28)}  ${cell(email, 34)}  ${cell(phone, 17)}  ${id}`.trimEnd();
  return [
    line("NAME", "EMAIL", "PHONE", "ID"),
    ...customers.map((c) => line(customerName(c), c.email_address ?? "", c.phone_number ?? "", c.id ?? "")),
  ].join("\n");
}

/** One profile for people, a field a line; empty fields left out. */
export function customerText(c: Customer, groups: readonly CustomerGroup[], now: Date): string {
  const rows: [string, string | undefined][] = [
    ["Name", customerName(c)],
    ["Nickname", c.nickname],
    ["Company", c.company_name],
    ["Email", c.email_address],
    ["Phone", c.phone_number],
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
export interface CustomersDeps {
  open?: (target: Target) => Promise<Pick<OpenedClient, "close"> & { client: { customers: CustomersClient } }>;
  now?: () => Date;
}

async function withClient<T>(
  io: CommandIo,
  flags: CustomerSearchOptions["target"],
  deps: CustomersDeps,
  body: (client: CustomersClient) => Promise<T>,
): Promise<T> {
  return withTargetClient(io, flags, deps.open, (opened) => body(opened.client.customers));
}

/** `backroom customers search`: the matching profiles on stdout. */
export async function runCustomersSearch(argv: string[], io: CommandIo, deps: CustomersDeps = {}): Promise<number> {
  const read = readArgs(io, CUSTOMERS_SEARCH_SPEC, argv, customerSearchOptions);
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, CUSTOMERS_SEARCH_SPEC.name, () =>
    withClient(io, opts.target, deps, async (client) => {
      const text = opts.format === "text";
      const found = await searchCustomerRecords(client, opts, text).catch((err) =>
        serviceFailure(err, "the search failed"),
      );
      if (opts.format !== "text") {
        io.stdout.write(formatRecords(opts.format, found.customers, CSV_COLUMNS));
        return 0;
      }
      if (found.customers.length === 0) {
        say(io.stderr, "no customer matches");
        return 0;
      }
      say(io.stdout, customersTable(found.customers));
      if (found.more) {
        const of = found.count === undefined ? "" : ` of ${found.count.toLocaleString("en-US")}`;
        say(io.stderr, `showing ${found.customers.length}${of}; --limit N shows more`);
      }
      return 0;
    }),
  );
}

/** `backroom customers get ID`: one profile, for people or as JSON. */
export async function runCustomersGet(argv: string[], io: CommandIo, deps: CustomersDeps = {}): Promise<number> {
  const read = readArgs(io, CUSTOMERS_GET_SPEC, argv, ({ values, positionals }) => {
    const target = { env: values.env, "base-url": values["base-url"], db: values.db };
    checkTargetFlags(target);
    return { id: positionals[0] ?? "", json: values.json === true, target };
  });
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, CUSTOMERS_GET_SPEC.name, () =>
    withClient(io, opts.target, deps, async (client) => {
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
      say(io.stdout, customerText(customer, groups, deps.now?.() ?? new Date()));
      return 0;
    }),
  );
}
