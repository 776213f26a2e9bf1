/** Fixed identities of the demo store, shared by every area's seed. */
export const DEMO = {
  merchantId: "MLBACKROOMDEMO",
  businessName: "Corner Hardware & Co.",
  currency: "USD",
  country: "US",
  mainLocationId: "LMAIN0000000001",
  mainLocationName: "Main Street",
  mainTimezone: "America/New_York",
  secondLocationId: "LDOCK0000000002",
  secondLocationName: "Harbour Dock",
  secondTimezone: "America/Los_Angeles",
  /** The OAuth application the emulator knows, unless `--client-id` names another. */
  clientId: "sq0idp-backroom-local",
  appName: "backroom (local)",
} as const;
