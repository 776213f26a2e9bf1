// A stocktake commit while the service cannot be reached, driven with keys through the whole app:
// the header goes offline at the first try that finds no service, the commit's line says it waits
// for the service and what is kept, and the commit finishes once the service is back. The
// transport's retries and the commit's waits run on one virtual clock: no test waits on time.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEMO } from "../src/service/seed/demo-ids.js";
import { createClient, type SquareClient } from "../src/square/index.js";
import { type DrivenApp, KEYS, startApp } from "./helpers/app.js";
import { type NetProxy, startProxy } from "./helpers/proxy.js";
import { startService, type TestService } from "./helpers/service.js";
import { VirtualTimers } from "./helpers/virtual-timers.js";
import { physicalCountsOf, variation } from "./stocktake-helpers.js";

let svc: TestService | undefined;
let proxy: NetProxy | undefined;
let client: SquareClient | undefined;
let app: DrivenApp | undefined;
let dir: string | undefined;
afterEach(async () => {
  await app?.close();
  await client?.close();
  await proxy?.down().catch(() => {});
  await svc?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  app = client = proxy = svc = dir = undefined;
});

/** Moves the virtual clock a second at a time until the frame matches (each retry waits on it). */
async function advanceUntil(a: DrivenApp, timers: VirtualTimers, test: (frame: string) => boolean): Promise<string> {
  await vi.waitFor(
    () => {
      if (test(a.frame())) return;
      timers.advance(1000);
      throw new Error(`the frame never matched; last frame:\n${a.frame()}`);
    },
    { timeout: 15_000, interval: 20 },
  );
  return a.frame();
}

describe("a stocktake commit while the service cannot be reached", () => {
  it("says offline at once and waits for the service, keeping the count; stopped, stays offline; resumed once it is back", async () => {
    svc = await startService();
    proxy = await startProxy(svc.url);
    const timers = new VirtualTimers();
    // The transport's own retries wait on the same virtual clock as the commit's.
    client = createClient({
      baseUrl: proxy.url,
      accessToken: svc.service.accessToken,
      maxRetries: 0,
      sleep: (ms) => new Promise((resolve) => timers.after(ms, resolve)),
    });
    dir = mkdtempSync(join(tmpdir(), "backroom-stocktake-offline-"));
    app = await startApp({ shared: svc, client, columns: 80, rows: 24, store: { dataDir: dir, timers } });
    const a = app;
    await a.waitFor("● online");
    await a.waitFor("Main Street");
    const hammer = await variation(svc.client, "Claw Hammer", "13 oz");
    await a.press("4");
    await a.waitFor("Stocktake at Main Street");
    await a.press("n");
    await a.waitFor("Start a count at Main Street");
    await a.press(KEYS.enter);
    await a.waitFor("Who is counting?");
    await a.press(KEYS.enter);
    await a.waitFor("Scan or type a code");
    await a.press(`${hammer.sku}\r`, "11\r");
    await a.waitFor(`✓ ${hammer.label}: 11`);
    const id = a.store.getState().stocktake.count?.header.id ?? "";

    await proxy.down();
    await a.press(KEYS.escape, "c");
    await a.waitFor("Check the review, then c commits.");
    await a.press("c");
    await a.waitFor(`Commit 1 line of ${id}`);
    await a.press("y");
    // The transport's own retries: the line says it is trying again, and which try, not "1 in flight".
    const trying = await advanceUntil(a, timers, (f) => f.includes("Trying again"));
    expect(trying).toMatch(/Trying again \(try [2-5] of 30\): the service cannot be reached\./);
    expect(trying).toContain("○ offline");
    expect(trying).not.toContain("in flight");
    expect(trying).toContain("0 of 1 request accepted · 1 kept in the journal");
    // The first round found no service: the header says so while the commit waits to try again.
    const frame = await advanceUntil(a, timers, (f) => f.includes("Waiting: the service"));
    expect(frame).toContain("○ offline");
    expect(frame).not.toContain("● online");
    expect(frame).not.toContain("0 in flight");
    expect(frame).toMatch(/Waiting: the service cannot be reached; next try \d\d:\d\d:\d\d\./);
    expect(frame).toContain("0 of 1 request accepted · 1 kept in the journal");
    expect(frame).not.toContain("✓ Committed");

    // Still down after every try: the commit stops, kept in the journal, and the header stays offline.
    const stopped = await advanceUntil(a, timers, (f) => f.includes("! The service cannot be reached."));
    expect(stopped).toContain("○ offline");
    expect(stopped).toContain("1 request waits");
    // Nothing is in flight once it stopped: the line says what was accepted, not "0 in flight".
    expect(stopped).toContain("0 of 1 request accepted");
    expect(stopped).not.toContain("in flight");

    // Back: the app asks again on its own, the header says online, and c finishes the commit.
    await proxy.up();
    await advanceUntil(a, timers, (f) => f.includes("● online"));
    await a.press("c");
    await a.waitFor(`Finish committing ${id}?`);
    await a.press("y");
    const done = await advanceUntil(a, timers, (f) => f.includes("✓ Committed 1 line as physical counts."));
    expect(done).toContain("● online");
    expect(Object.fromEntries(await physicalCountsOf(svc.client, DEMO.mainLocationId, id))).toEqual({
      [hammer.id]: ["11"],
    });
  });
});
