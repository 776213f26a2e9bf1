import type { BusinessHoursPeriod, DayOfWeek, Location, TeamMember } from "../../spec/generated/types.js";
import type { SeedContext } from "../seed/context.js";
import { DEMO } from "../seed/demo-ids.js";
import { saveLocation, saveTeamMember } from "./repo.js";

const hours = (open: string, close: string, days: DayOfWeek[]): BusinessHoursPeriod[] =>
  days.map((day_of_week) => ({ day_of_week, start_local_time: `${open}:00`, end_local_time: `${close}:00` }));

/** The demo seller's two stores; both exist in the empty store too. */
export const DEMO_LOCATIONS: readonly (Location & { id: string })[] = [
  {
    id: DEMO.mainLocationId,
    name: DEMO.mainLocationName,
    address: {
      address_line_1: "214 Main Street",
      locality: "Beacon",
      administrative_district_level_1: "NY",
      postal_code: "12508",
      country: "US",
    },
    timezone: DEMO.mainTimezone,
    capabilities: ["CREDIT_CARD_PROCESSING", "AUTOMATIC_TRANSFERS"],
    status: "ACTIVE",
    created_at: "2019-04-02T14:05:00.000Z",
    merchant_id: DEMO.merchantId,
    country: "US",
    language_code: "en-US",
    currency: "USD",
    phone_number: "+1 845-555-0142",
    business_name: DEMO.businessName,
    type: "PHYSICAL",
    business_hours: {
      periods: [
        ...hours("08:00", "20:00", ["MON", "TUE", "WED", "THU", "FRI", "SAT"]),
        ...hours("10:00", "17:00", ["SUN"]),
      ],
    },
    business_email: "mainstreet@cornerhardware.example",
    description: "Tools, paint, garden and keys cut while you wait.",
    coordinates: { latitude: 41.5048, longitude: -73.9696 },
    mcc: "5251",
  },
  {
    id: DEMO.secondLocationId,
    name: DEMO.secondLocationName,
    address: {
      address_line_1: "9 Harbour Dock Road",
      locality: "Sausalito",
      administrative_district_level_1: "CA",
      postal_code: "94965",
      country: "US",
    },
    timezone: DEMO.secondTimezone,
    capabilities: ["CREDIT_CARD_PROCESSING", "AUTOMATIC_TRANSFERS"],
    status: "ACTIVE",
    created_at: "2021-06-14T16:30:00.000Z",
    merchant_id: DEMO.merchantId,
    country: "US",
    language_code: "en-US",
    currency: "USD",
    phone_number: "+1 415-555-0198",
    business_name: DEMO.businessName,
    type: "PHYSICAL",
    business_hours: { periods: hours("09:00", "18:00", ["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"]) },
    business_email: "harbour@cornerhardware.example",
    description: "Marine hardware, rope and fittings on the waterfront.",
    coordinates: { latitude: 37.8591, longitude: -122.4853 },
    mcc: "5251",
  },
];

/** One demo team member and the jobs they are paid for (first = the usual one). */
export interface DemoMember {
  id: string;
  given: string;
  family: string;
  status: "ACTIVE" | "INACTIVE";
  owner?: boolean;
  /** Empty: every current and future location. */
  locations: string[];
  created: string;
  /** Job title and hourly rate in cents. */
  jobs: { title: string; cents: number; tips: boolean }[];
  /** The local hour this member usually starts. */
  startHour: number;
}

const M = DEMO.mainLocationId;
const D = DEMO.secondLocationId;

/** The demo team: one owner, most at Main Street, a few at Harbour Dock, two who have left. */
export const DEMO_TEAM: readonly DemoMember[] = [
  {
    id: "TMDEMO0001",
    given: "Dana",
    family: "Whitfield",
    status: "ACTIVE",
    owner: true,
    locations: [],
    created: "2019-04-02T14:00:00.000Z",
    jobs: [{ title: "Store Manager", cents: 3200, tips: false }],
    startHour: 8,
  },
  {
    id: "TMDEMO0002",
    given: "Marcus",
    family: "Bell",
    status: "ACTIVE",
    locations: [M],
    created: "2019-05-20T13:00:00.000Z",
    jobs: [
      { title: "Shift Lead", cents: 2250, tips: false },
      { title: "Sales Associate", cents: 1800, tips: true },
    ],
    startHour: 7,
  },
  {
    id: "TMDEMO0003",
    given: "Priya",
    family: "Natarajan",
    status: "ACTIVE",
    locations: [M],
    created: "2020-02-11T15:00:00.000Z",
    jobs: [{ title: "Sales Associate", cents: 1725, tips: true }],
    startHour: 9,
  },
  {
    id: "TMDEMO0004",
    given: "Tomás",
    family: "Ortega",
    status: "ACTIVE",
    locations: [M],
    created: "2020-08-03T13:30:00.000Z",
    jobs: [{ title: "Stock Associate", cents: 1650, tips: false }],
    startHour: 6,
  },
  {
    id: "TMDEMO0005",
    given: "Aisha",
    family: "Khan",
    status: "ACTIVE",
    locations: [M],
    created: "2021-03-15T14:00:00.000Z",
    jobs: [{ title: "Cashier", cents: 1600, tips: true }],
    startHour: 11,
  },
  {
    id: "TMDEMO0006",
    given: "Liam",
    family: "O'Connor",
    status: "ACTIVE",
    locations: [M],
    created: "2021-09-01T13:00:00.000Z",
    jobs: [{ title: "Sales Associate", cents: 1700, tips: true }],
    startHour: 10,
  },
  {
    id: "TMDEMO0007",
    given: "Mei",
    family: "Chen",
    status: "ACTIVE",
    locations: [M, D],
    created: "2022-01-10T14:00:00.000Z",
    jobs: [
      { title: "Key Holder", cents: 1950, tips: false },
      { title: "Cashier", cents: 1600, tips: true },
    ],
    startHour: 12,
  },
  {
    id: "TMDEMO0008",
    given: "Jordan",
    family: "Reyes",
    status: "INACTIVE",
    locations: [M],
    created: "2022-05-23T13:00:00.000Z",
    jobs: [{ title: "Cashier", cents: 1550, tips: true }],
    startHour: 9,
  },
  {
    id: "TMDEMO0009",
    given: "Sofia",
    family: "Rossi",
    status: "ACTIVE",
    locations: [D],
    created: "2021-06-14T16:00:00.000Z",
    jobs: [{ title: "Shift Lead", cents: 2100, tips: false }],
    startHour: 8,
  },
  {
    id: "TMDEMO0010",
    given: "Ethan",
    family: "Brooks",
    status: "ACTIVE",
    locations: [D],
    created: "2022-04-04T16:00:00.000Z",
    jobs: [{ title: "Sales Associate", cents: 1750, tips: true }],
    startHour: 10,
  },
  {
    id: "TMDEMO0011",
    given: "Noah",
    family: "Kim",
    status: "ACTIVE",
    locations: [D],
    created: "2023-02-20T17:00:00.000Z",
    jobs: [{ title: "Stock Associate", cents: 1675, tips: false }],
    startHour: 7,
  },
  {
    id: "TMDEMO0012",
    given: "Grace",
    family: "Liu",
    status: "INACTIVE",
    locations: [D],
    created: "2022-07-18T16:00:00.000Z",
    jobs: [{ title: "Cashier", cents: 1550, tips: true }],
    startHour: 12,
  },
];

/** The wire shape of a demo member. */
function demoTeamMember(m: DemoMember): TeamMember & { id: string } {
  const handle = `${m.given}.${m.family}`.toLowerCase().replace(/[^a-z.]/g, "");
  return {
    id: m.id,
    reference_id: `EMP-${m.id.slice(-4)}`,
    is_owner: m.owner === true,
    status: m.status,
    given_name: m.given,
    family_name: m.family,
    email_address: `${handle}@cornerhardware.example`,
    phone_number: `+1 555-01${m.id.slice(-2)}`,
    created_at: m.created,
    updated_at: m.created,
    assigned_locations:
      m.locations.length === 0
        ? { assignment_type: "ALL_CURRENT_AND_FUTURE_LOCATIONS" }
        : { assignment_type: "EXPLICIT_LOCATIONS", location_ids: [...m.locations] },
  };
}

/** Seeds the seller's locations (the empty store has them too). */
export function seedDirectory(s: SeedContext): void {
  for (const loc of DEMO_LOCATIONS) saveLocation(s.db, s.merchantId, loc);
}

/** Seeds the demo team (called by the labor seed: the empty store has no team). */
export function seedTeam(s: SeedContext): void {
  for (const m of DEMO_TEAM) saveTeamMember(s.db, s.merchantId, demoTeamMember(m));
}
