import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { locationRow, wageRow } from "../../../test/helpers/labor-rows.js";
import { type Db, openDb } from "../db.js";
import { saveLocation, saveTeamMember } from "../directory/repo.js";
import { shiftLookups } from "./lookups.js";
import { saveWage } from "./repo.js";

const M = "MERCHANT";

function prepared(db: Db): Db {
  db.prepare(
    "INSERT INTO merchants (id, business_name, country, language_code, currency, created_at) VALUES (?, 'x', 'US', 'en-US', 'USD', '2020-01-01T00:00:00Z')",
  ).run(M);
  saveLocation(db, M, location("L1", "America/New_York", "USD"));
  saveTeamMember(db, M, { id: "TM1", given_name: "Ann", status: "ACTIVE" });
  saveWage(db, M, wage("W1", "TM1", "Cashier"), 1);
  return db;
}

const location = locationRow;
const wage = wageRow;

/** What a shift write would read now, as one line. */
const seen = (db: Db, locationId = "L1", memberId = "TM1") => {
  const around = shiftLookups(db);
  const zone = around.zone(M, locationId);
  const member = around.member(M, memberId);
  return `${zone ? `${zone.timezone} ${zone.currency}` : "no location"}; ${member.exists ? "member" : "no member"} ${member.firstWageTitle ?? "-"}`;
};

describe("what shift writes read of locations and members, kept between them", () => {
  it("follows every write on the same connection, whichever table it changes", () => {
    const db = prepared(openDb(":memory:"));
    expect(seen(db)).toBe("America/New_York USD; member Cashier");
    saveLocation(db, M, location("L1", "America/Chicago", "CAD"));
    expect(seen(db)).toBe("America/Chicago CAD; member Cashier");
    saveWage(db, M, wage("W0", "TM1", "Manager"), 0);
    expect(seen(db)).toBe("America/Chicago CAD; member Manager");
    db.prepare("UPDATE team_member_wages SET data = json_remove(data, '$.title') WHERE id = 'W0'").run();
    expect(seen(db)).toBe("America/Chicago CAD; member -");
    expect(seen(db, "L2", "TM2")).toBe("no location; no member -");
    saveLocation(db, M, location("L2", "Europe/Paris", "EUR"));
    saveTeamMember(db, M, { id: "TM2", given_name: "Bo", status: "ACTIVE" });
    expect(seen(db, "L2", "TM2")).toBe("Europe/Paris EUR; member -");
    db.prepare("DELETE FROM team_member_wages").run();
    db.prepare("DELETE FROM team_members").run();
    expect(seen(db)).toBe("America/Chicago CAD; no member -");
  });

  it("does not keep what was read inside a transaction that rolled back", () => {
    const db = prepared(openDb(":memory:"));
    expect(seen(db)).toBe("America/New_York USD; member Cashier");
    const refused = db.transaction(() => {
      saveLocation(db, M, location("L1", "Asia/Tokyo", "JPY"));
      saveWage(db, M, wage("W0", "TM1", "Manager"), 0);
      expect(seen(db)).toBe("Asia/Tokyo JPY; member Manager");
      throw new Error("refused");
    });
    expect(() => refused()).toThrow("refused");
    expect(seen(db)).toBe("America/New_York USD; member Cashier");
    // And a savepoint rolled back inside a transaction that goes on (a refused request in a batch).
    db.prepare("BEGIN").run();
    expect(() => refused()).toThrow("refused");
    expect(seen(db)).toBe("America/New_York USD; member Cashier");
    db.prepare("COMMIT").run();
    expect(seen(db)).toBe("America/New_York USD; member Cashier");
  });

  it("still follows writes when the first look was made in a transaction that rolled back", () => {
    const db = prepared(openDb(":memory:"));
    db.prepare("BEGIN").run();
    const refused = db.transaction(() => {
      expect(seen(db, "NOPE")).toBe("no location; member Cashier");
      throw new Error("refused");
    });
    expect(() => refused()).toThrow("refused");
    expect(seen(db)).toBe("America/New_York USD; member Cashier");
    saveLocation(db, M, location("L1", "America/Denver", "USD"));
    expect(seen(db)).toBe("America/Denver USD; member Cashier");
    db.prepare("COMMIT").run();
    saveWage(db, M, wage("W1", "TM1", "Clerk"), 1);
    expect(seen(db)).toBe("America/Denver USD; member Clerk");
  });

  describe("on a file another connection writes", () => {
    const dir = mkdtempSync(join(tmpdir(), "backroom-lookups-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it("reads again what the other connection committed", () => {
      const path = join(dir, "store.db");
      const db = prepared(openDb(path));
      const other = openDb(path);
      try {
        expect(seen(db)).toBe("America/New_York USD; member Cashier");
        saveLocation(other, M, location("L1", "Pacific/Auckland", "NZD"));
        saveWage(other, M, wage("W1", "TM1", "Baker"), 1);
        expect(seen(db)).toBe("Pacific/Auckland NZD; member Baker");
      } finally {
        other.close();
        db.close();
      }
    });
  });
});
