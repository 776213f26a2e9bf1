// The break types screen as a manager uses it: the limit said before any form opens, one name per
// location, long names cut with …, and a delete that Enter alone never confirms.
import { afterEach, describe, expect, it } from "vitest";
import { KEYS } from "./helpers/app.js";
import { type LaborHarness, startLaborApp, typed } from "./helpers/labor-app.js";

let current: LaborHarness | undefined;
afterEach(async () => {
  await current?.app.close();
  current = undefined;
});

async function start(opts: Parameters<typeof startLaborApp>[0] = {}) {
  current = await startLaborApp(opts);
  return current;
}

const names = async (h: LaborHarness) =>
  ((await h.client.labor.listBreakTypes({ location_id: h.main })).break_types ?? []).map((b) => b.break_name);

/** The expected length of the main location's break type of that name, as the service keeps it. */
const durationOf = async (h: LaborHarness, name: string) =>
  (await h.client.labor.listBreakTypes({ location_id: h.main })).break_types?.find((b) => b.break_name === name)
    ?.expected_duration;

/** At the limit of three: deletes the selected break type and opens the form to add one. */
async function makeRoomAndAdd(h: LaborHarness) {
  await h.app.press("x", "y");
  await h.app.waitFor("2 of 3");
  await h.app.press("a");
  await h.app.waitFor("Add a break type");
}

describe("break types", () => {
  it("refuses `a` at the limit before opening the form, and a delete needs y: Enter answers no", async () => {
    const h = await start();
    expect(await names(h)).toHaveLength(3);
    await h.app.press("3");
    await h.app.waitFor("3 of 3 (the limit)");
    await h.app.press("a");
    await h.app.waitFor("! This location has 3 break types, the most allowed: delete or change one.");
    expect(h.app.frame()).not.toContain("Add a break type");
    await h.app.press("x");
    await h.app.waitFor('Delete the break type "Coffee"? Shifts that used it keep their breaks.');
    await h.app.waitFor("enter: no (this cannot be undone)");
    // q and other keys answer nothing, and say which keys do: the question stays, nothing is quit.
    await h.app.press("q");
    await h.app.waitFor("q quits once the question is answered: y yes, n or esc no.");
    await h.app.press("3");
    await h.app.waitFor("3 does not answer the question: y yes, n or esc no.");
    expect(h.app.frame()).toContain('Delete the break type "Coffee"?');
    await h.app.press(KEYS.enter);
    await h.app.waitFor((f) => !f.includes("Delete the break type"));
    expect(await names(h)).toContain("Coffee");
    await h.app.press("x");
    await h.app.waitFor("Delete the break type");
    await h.app.press("y");
    await h.app.waitFor("2 of 3");
    expect(await names(h)).not.toContain("Coffee");
    await h.app.press("a");
    await h.app.waitFor("Add a break type");
    await h.app.waitFor("1 left");
  });

  it("types over a prefilled value moved to with tab, as a browser's form does: 5, not 155", async () => {
    const h = await start();
    await h.app.press("3");
    await h.app.waitFor("3 of 3 (the limit)");
    await makeRoomAndAdd(h);
    // A fast typist's whole form in one write: name, tab, minutes over the 15 shown, tab, enter.
    await h.app.press("Smoke\t5\t\r");
    await h.app.waitFor(/Added Smoke/);
    expect(await durationOf(h, "Smoke")).toBe("PT5M");
    // An arrow key lets go of the selection: what is typed then goes where the cursor is.
    await makeRoomAndAdd(h);
    await h.app.press(..."Tea".split(""), KEYS.tab);
    await h.app.waitFor((f) => f.includes("› Minutes"));
    await h.app.press("\u001b[D");
    // The value is drawn again as a field once the selection is let go.
    await h.app.waitFor((f) => /› Minutes:\s+15/.test(f));
    await h.app.press("0", KEYS.enter);
    await h.app.waitFor(/Added Tea/);
    expect(await durationOf(h, "Tea")).toBe("PT1H45M");
  });

  it("a bad duration refused from the last field takes the manager back to Minutes, typing replaces it", async () => {
    const h = await start();
    await h.app.press("3");
    await h.app.waitFor("3 of 3 (the limit)");
    await makeRoomAndAdd(h);
    await h.app.press(..."Tea".split(""), KEYS.tab, ..."1o".split(""), KEYS.tab, KEYS.enter);
    await h.app.waitFor("! Duration is whole minutes between 1 and 1440.");
    await h.app.waitFor(/› Minutes:\s+1o/);
    await h.app.press(..."10".split(""), KEYS.enter);
    await h.app.waitFor(/Added Tea/);
    expect(await durationOf(h, "Tea")).toBe("PT10M");
  });

  it("refuses a name the location already has, adding or renaming, and cuts long names with …", async () => {
    const h = await start({ columns: 64 });
    await h.app.press("3");
    await h.app.waitFor("3 of 3 (the limit)");
    await makeRoomAndAdd(h);
    await h.app.press(..." lunch ".split(""), KEYS.enter);
    // The form is narrow here: the message wraps after "choose".
    await h.app.waitFor("! This location already has a break type named Lunch; choose");
    const long = "Quiet recovery break after a long delivery unload";
    await h.app.press(...typed(long), KEYS.enter);
    await h.app.waitFor(/Added Quiet recovery/);
    expect(await names(h)).toContain(long);
    // The list cuts the name to its column with …, and the row keeps its other columns.
    const row = (await h.app.waitFor("…")).split("\n").find((l) => l.includes("Quiet recovery")) ?? "";
    expect(row).toMatch(/Quiet recovery[^…]*…\s+15 min\s+unpaid/);
    // Renaming Lunch to the new name is refused too.
    const lines = h.app.frame().split("\n");
    const rows = lines.filter((l) => /\d+ min/.test(l));
    const lunchAt = rows.findIndex((l) => l.includes("Lunch"));
    await h.app.press("g", ...Array(lunchAt).fill("j"), KEYS.enter);
    await h.app.waitFor("Change Lunch");
    await h.app.press(...typed(long.toUpperCase()), KEYS.enter);
    await h.app.waitFor(/! This location already has a break type named Quiet[\s│]*recovery break after a…;/);
    expect(await names(h)).toContain("Lunch");
  });
});
