import type { Address, CustomerCreationSource } from "../../spec/generated/types.js";
import { bulkLoad, type SeedContext } from "../seed/context.js";
import { customerInsertSql, customerRow, rankAllCustomers } from "./repo.js";
import { ordered, type StoredCustomer } from "./rules.js";
import { indexAllCustomers } from "./search.js";

/** How many customer profiles the demo store has at scale 1. */
export const DEMO_CUSTOMERS = 500;

const GIVEN = [
  "James",
  "Mary",
  "Robert",
  "Patricia",
  "John",
  "Jennifer",
  "Michael",
  "Linda",
  "David",
  "Elizabeth",
  "William",
  "Barbara",
  "Richard",
  "Susan",
  "Joseph",
  "Jessica",
  "Thomas",
  "Sarah",
  "Carlos",
  "Karen",
  "Daniel",
  "Lisa",
  "Matthew",
  "Nancy",
  "Anthony",
  "Betty",
  "Mark",
  "Sandra",
  "Donald",
  "Ashley",
  "Steven",
  "Kimberly",
  "Andrew",
  "Emily",
  "Paul",
  "Donna",
  "Joshua",
  "Michelle",
  "Kenneth",
  "Carol",
  "Kevin",
  "Amanda",
  "Brian",
  "Melissa",
  "Wei",
  "Deborah",
  "Timothy",
  "Stephanie",
  "Ronald",
  "Rebecca",
  "Jason",
  "Laura",
  "Jeffrey",
  "Sharon",
  "Ryan",
  "Cynthia",
  "Jacob",
  "Kathleen",
  "Gary",
  "Amy",
  "Nicholas",
  "Angela",
  "Eric",
  "Priya",
  "Jonathan",
  "Anna",
  "Luis",
  "Rosa",
  "Hiroshi",
  "Aisha",
] as const;

const FAMILY = [
  "Smith",
  "Johnson",
  "Williams",
  "Brown",
  "Jones",
  "Garcia",
  "Miller",
  "Davis",
  "Rodriguez",
  "Martinez",
  "Hernandez",
  "Lopez",
  "Gonzalez",
  "Wilson",
  "Anderson",
  "Thomas",
  "Taylor",
  "Moore",
  "Jackson",
  "Martin",
  "Lee",
  "Perez",
  "Thompson",
  "White",
  "Harris",
  "Sanchez",
  "Clark",
  "Ramirez",
  "Lewis",
  "Robinson",
  "Walker",
  "Young",
  "Allen",
  "King",
  "Wright",
  "Scott",
  "Torres",
  "Nguyen",
  "Hill",
  "Flores",
  "Green",
  "Adams",
  "Nelson",
  "Baker",
  "Hall",
  "Rivera",
  "Campbell",
  "Mitchell",
  "Carter",
  "Roberts",
  "O'Brien",
  "Kowalski",
  "Patel",
  "Chen",
  "Tanaka",
  "Okafor",
  "Schmidt",
  "Rossi",
  "Murphy",
  "Cohen",
] as const;

const COMPANIES = [
  "Bayside Builders",
  "Keystone Renovations",
  "Harbor Electric",
  "Summit Roofing",
  "Oak & Iron Carpentry",
  "Blue Line Plumbing",
  "Greenway Landscaping",
  "Cornerstone Masonry",
  "Brightside Painting",
  "Northgate Property Mgmt",
  "Riverbend HVAC",
  "Pioneer Fencing",
  "Maple Street Handyman",
  "Tidewater Decks",
  "Granite State Tile",
] as const;

const MAIL_DOMAINS = [
  "gmail.com",
  "yahoo.com",
  "outlook.com",
  "icloud.com",
  "hotmail.com",
  "aol.com",
  "proton.me",
] as const;

const STREETS = [
  "Main St",
  "Oak Ave",
  "Maple Dr",
  "Cedar Ln",
  "Elm St",
  "Pine St",
  "Washington Ave",
  "Lake Rd",
  "Hill St",
  "Park Ave",
  "Church St",
  "River Rd",
  "Sunset Blvd",
  "Highland Ave",
  "Mill St",
  "Water St",
  "Broad St",
] as const;

/** Cities near the two demo locations (New York area and the Los Angeles harbour). */
const CITIES = [
  { city: "Brooklyn", state: "NY", zip: 112, area: ["718", "347"] },
  { city: "Jersey City", state: "NJ", zip: 73, area: ["201"] },
  { city: "Hoboken", state: "NJ", zip: 70, area: ["201", "551"] },
  { city: "Yonkers", state: "NY", zip: 107, area: ["914"] },
  { city: "New York", state: "NY", zip: 100, area: ["212", "646"] },
  { city: "Long Beach", state: "CA", zip: 908, area: ["562"] },
  { city: "San Pedro", state: "CA", zip: 907, area: ["310", "424"] },
  { city: "Torrance", state: "CA", zip: 905, area: ["310"] },
] as const;

/** How profiles came to be, weighted as a hardware shop sees it. */
const SOURCES: readonly [CustomerCreationSource, number][] = [
  ["DIRECTORY", 30],
  ["THIRD_PARTY", 18],
  ["INSTANT_PROFILE", 16],
  ["IMPORT", 10],
  ["ONLINE_STORE", 8],
  ["LOYALTY", 7],
  ["EGIFTING", 4],
  ["EMAIL_COLLECTION", 3],
  ["INVOICES", 2],
  ["OTHER", 2],
];
const SOURCE_TOTAL = SOURCES.reduce((n, [, w]) => n + w, 0);

const NOTES = [
  "Prefers a call before special orders arrive.",
  "Tax-exempt certificate on file.",
  "Regular Saturday customer; likes the paint counter.",
  "Asked to be told when the cordless drills are back in stock.",
  "Pays by invoice, net 30.",
  "Bulk lumber orders for job sites.",
] as const;

/** The demo's customer groups; ids are fixed so that links and tests can name them. */
export const DEMO_GROUPS = [
  { id: "GVIP0000000000000000000001", name: "VIP", share: 0.06 },
  { id: "GCONTRACTORS00000000000002", name: "Contractors", share: 0.15 },
  { id: "GNEWSLETTER00000000000003", name: "Newsletter", share: 0.4 },
  { id: "GWHOLESALE000000000000004", name: "Wholesale", share: 0.04 },
] as const;

const DAY_MS = 86_400_000;
const YEARS_3_MS = 3 * 365 * DAY_MS;

/** A made-up customer profile, the i-th of the seed, created after `start`, and the groups it is in. */
function makeCustomer(s: SeedContext, i: number, start: number): { customer: StoredCustomer; groups: string[] } {
  const { rng, now } = s;
  const given = rng.pick(GIVEN);
  const family = rng.pick(FAMILY);
  const place = rng.pick(CITIES);
  const isContractor = rng.chance(0.15);
  const createdMs = start + Math.floor(rng() * YEARS_3_MS);
  const edits = rng.chance(0.35) ? rng.int(1, 6) : 0;
  const updatedMs = edits > 0 ? createdMs + Math.floor(rng() * (now.getTime() - createdMs)) : createdMs;
  let pickSource = rng() * SOURCE_TOTAL;
  let source: CustomerCreationSource = "OTHER";
  for (const [name, weight] of SOURCES) {
    pickSource -= weight;
    if (pickSource < 0) {
      source = name;
      break;
    }
  }
  const c: StoredCustomer = {
    id: s.ids.next(),
    created_at: new Date(createdMs).toISOString(),
    updated_at: new Date(updatedMs).toISOString(),
    version: edits,
    creation_source: source,
  };
  // A few walk-in profiles carry only a phone number or an email, as instant profiles do.
  const anonymous = source === "INSTANT_PROFILE" && rng.chance(0.2);
  if (!anonymous) {
    c.given_name = given;
    c.family_name = family;
  }
  if (isContractor) c.company_name = rng.pick(COMPANIES);
  const handle = `${given}.${family}`.toLowerCase().replace(/[^a-z.]/g, "");
  if (!anonymous || rng.chance(0.5)) {
    c.email_address = rng.chance(0.3)
      ? `${handle}${rng.int(1, 99)}@${rng.pick(MAIL_DOMAINS)}`
      : `${handle}@${rng.pick(MAIL_DOMAINS)}`;
  }
  if (!c.email_address || rng.chance(0.8)) {
    c.phone_number = `+1-${rng.pick(place.area)}-555-${String(rng.int(100, 9999)).padStart(4, "0")}`;
  }
  if (rng.chance(0.7)) {
    const address: Address = {
      address_line_1: `${rng.int(1, 2999)} ${rng.pick(STREETS)}`,
      locality: place.city,
      administrative_district_level_1: place.state,
      postal_code: String(place.zip * 100 + rng.int(1, 99)).padStart(5, "0"),
      country: "US",
    };
    if (rng.chance(0.15)) address.address_line_2 = `Apt ${rng.int(1, 40)}${rng.pick(["A", "B", "C", ""])}`;
    c.address = address;
  }
  if (rng.chance(0.3))
    c.birthday = `${rng.chance(0.3) ? "0000" : rng.int(1950, 2004)}-${twoDigits(rng.int(1, 12))}-${twoDigits(rng.int(1, 28))}`;
  if (source === "IMPORT" || rng.chance(0.1)) c.reference_id = `CRM-${String(100_000 + i).padStart(6, "0")}`;
  if (rng.chance(0.08)) c.note = rng.pick(NOTES);
  if (rng.chance(0.05)) c.nickname = given.slice(0, 3);
  c.preferences = { email_unsubscribed: c.email_address ? rng.chance(0.1) : false };

  const groups: string[] = [];
  for (const g of DEMO_GROUPS) {
    const share = g.name === "Contractors" ? (isContractor ? 0.9 : 0.02) : g.share;
    if (rng.chance(share)) groups.push(g.id);
  }
  if (groups.length > 0) c.group_ids = groups;
  return { customer: c, groups };
}

const twoDigits = (n: number) => String(n).padStart(2, "0");

/**
 * Seeds 500 × scale customer profiles over the last three years: names, emails, phones and
 * addresses, in a few groups, from various sources, some with a note, a birthday or a reference
 * id. Bulk-loaded through prepared statements inside the seed's one transaction.
 */
export function seedCustomers(s: SeedContext): void {
  const { db, now, merchantId } = s;
  const insertGroup = db.prepare(
    "INSERT INTO customer_groups (id, merchant_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
  );
  for (const [i, g] of DEMO_GROUPS.entries()) {
    const made = new Date(now.getTime() - YEARS_3_MS - (40 - 7 * i) * DAY_MS).toISOString();
    insertGroup.run(g.id, merchantId, g.name, made, made);
  }

  // Each profile goes in as it is made (holding 100,000 of them first would cost 100 MB), without
  // its rank in the default order: ranks are given to all at once when the load is done.
  const insertCustomer = db.prepare(customerInsertSql);
  const insertMember = db.prepare("INSERT INTO customer_group_members (group_id, customer_id) VALUES (?, ?)");
  const count = Math.max(0, Math.round(DEMO_CUSTOMERS * s.scale));
  const start = now.getTime() - YEARS_3_MS;
  const generate = () => {
    for (let i = 0; i < count; i++) {
      const { customer, groups } = makeCustomer(s, i, start);
      insertCustomer.run(...customerRow(merchantId, ordered(customer), null));
      for (const g of groups) insertMember.run(g, customer.id);
    }
  };
  bulkLoad(
    db,
    ["customers", "customer_group_members"],
    () => {
      generate();
      rankAllCustomers(db);
    },
    () => indexAllCustomers(db),
  );
  // Statistics let the planner tell a selective filter (an exact email) from one that is not; a
  // sample of each index is enough for that.
  db.pragma("analysis_limit = 1000");
  db.exec("ANALYZE customers; ANALYZE customer_group_members;");
}
