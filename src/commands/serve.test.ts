import { describe, expect, it } from "vitest";
import { startProblem } from "./serve.js";

const err = (code: string, message = code) => Object.assign(new Error(message), { code });
const where = { host: "127.0.0.1", port: 18733, dbPath: "/tmp/x/serve.db" };

describe("why serve could not start, in words", () => {
  it("names a port taken, an address not of this machine, a port that needs rights", () => {
    expect(startProblem(err("EADDRINUSE"), where)).toBe(
      "port 18733 is already in use on 127.0.0.1; pick another with --port (0 picks a free one)",
    );
    expect(startProblem(err("EADDRNOTAVAIL"), { ...where, host: "10.1.2.3" })).toBe(
      "10.1.2.3 is not an address of this machine; --host 127.0.0.1 (this machine only) or 0.0.0.0 (every network)",
    );
    expect(startProblem(err("EACCES"), { ...where, port: 80 })).toBe(
      "port 80 needs administrator rights; pick one above 1023 with --port",
    );
  });

  it("names the store's file SQLite cannot open", () => {
    expect(startProblem(err("SQLITE_CANTOPEN", "unable to open database file"), where)).toBe(
      "cannot open the store's file /tmp/x/serve.db: its folder must exist and be writable (unable to open database file)",
    );
  });

  it("says the store's folder does not exist (better-sqlite3 gives no code for it)", () => {
    expect(startProblem(new TypeError("Cannot open database because the directory does not exist"), where)).toBe(
      "cannot open the store's file /tmp/x/serve.db: its folder does not exist",
    );
  });

  it("passes anything else on in its own words", () => {
    expect(startProblem(new Error("disk I/O error"), where)).toBe("disk I/O error");
  });
});
