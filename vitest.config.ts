import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.{ts,tsx}", "test/**/*.test.{ts,tsx}"],
    // The real-keychain tests need an unlocked Secret Service; .ci/run provides one and sets the
    // flag. Without it they are left out of the run rather than failing on a machine without one.
    exclude: [
      ...configDefaults.exclude,
      ...(process.env.BACKROOM_KEYCHAIN_TESTS === "1" ? [] : ["test/keychain.test.ts"]),
    ],
    // Contract and UI tests start real servers on loopback; two cores are enough for two forks.
    pool: "forks",
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
