import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.{ts,tsx}", "test/**/*.test.{ts,tsx}"],
    // Contract and UI tests start real servers on loopback; two cores are enough for two forks.
    pool: "forks",
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
