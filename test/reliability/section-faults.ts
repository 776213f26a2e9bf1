import { createClock } from "../../src/service/clock.js";
import { createService, type LocalService } from "../../src/service/index.js";
import { rng } from "../../src/service/seed/random.js";
import { SANDBOX } from "../../src/service/seed/sandbox.js";
import type { Break, BreakType, Customer, Shift } from "../../src/spec/generated/types.js";
import { createClient, type SquareClient } from "../../src/square/client.js";
import { SquareApiError, SquareNetworkError, SquareTimeoutError } from "../../src/square/errors.js";
import { type FaultKind, noFaults, startFaultProxy } from "./fault-proxy.js";
import { check, exactly, type Figure, info, type Section } from "./section.js";

/** Where the service's clock stands when a run starts; every step moves it by a fixed amount. */
const T0 = Date.parse("2024-03-04T14:00:00Z");
const HOUR = 3600;

/** A failure a client should try again after: the network, a timeout, 429 or a 5xx. */
function transient(err: unknown): boolean {
  if (err instanceof SquareNetworkError || err instanceof SquareTimeoutError) return true;
  return err instanceof SquareApiError && (err.status === 429 || err.status >= 500);
}
const conflict = (err: unknown) => err instanceof SquareApiError && err.code === "CONFLICT";

/** Keeps trying a read until it gets through (reads are safe to repeat). */
async function read<T>(f: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await f();
    } catch (err) {
      if (!transient(err) || i > 100) throw err;
    }
  }
}

/**
 * One step of a flow, as the app takes it: build the write from what the service holds now; if
 * the answer is lost (a dropped connection, 429, 503) or the version moved, read again and either
 * see that the write took effect, or send it again. Writes that carry an idempotency key keep the
 * same key on every try.
 */
async function step<S>(current: () => Promise<S>, write: (state: S) => Promise<unknown> | "done"): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const state = await read(current);
    const sending = write(state);
    if (sending === "done") return;
    try {
      await sending;
      return;
    } catch (err) {
      if (!transient(err) && !conflict(err)) throw err;
    }
  }
  throw new Error("a step did not get through in 200 tries");
}

/** A write with an idempotency key: sent again with the same key until an answer arrives. */
async function keyed<T>(f: () => Promise<T>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    try {
      return await f();
    } catch (err) {
      if (!transient(err)) throw err;
    }
  }
  throw new Error("a keyed write did not get through in 200 tries");
}

interface Plan {
  cycles: number;
  customers: number;
}

/** The time clock and customer flows of one run, driven through `client`; `advance` moves the service clock. */
async function flows(client: SquareClient, advance: (s: number) => void, now: () => Date, plan: Plan, tag: string) {
  const location_id = SANDBOX.locationId;
  const { break_type } = await keyed(() =>
    client.labor.createBreakType({
      idempotency_key: `${tag}-bt`,
      break_type: { location_id, break_name: "Lunch", expected_duration: "PT30M", is_paid: false },
    }),
  );
  const lunch = break_type as BreakType & { id: string };
  const forUpdate = (s: Shift): Shift => ({
    location_id: s.location_id,
    team_member_id: s.team_member_id ?? SANDBOX.ownerId,
    start_at: s.start_at,
    ...(s.end_at ? { end_at: s.end_at } : {}),
    breaks: (s.breaks ?? []).map((b) => ({ ...b })),
    ...(s.version === undefined ? {} : { version: s.version }),
  });

  for (let c = 0; c < plan.cycles; c++) {
    // Clock in.
    const { shift } = await keyed(() =>
      client.labor.createShift({
        idempotency_key: `${tag}-in-${c}`,
        shift: { location_id, team_member_id: SANDBOX.ownerId, start_at: now().toISOString() },
      }),
    );
    const id = shift?.id ?? "";
    const current = async () => (await client.labor.getShift(id)).shift as Shift;
    advance(2 * HOUR);
    // Start a break.
    const breakStart = now().toISOString();
    await step(current, (s) =>
      (s.breaks ?? []).length > 0
        ? "done"
        : client.labor.updateShift(id, {
            shift: {
              ...forUpdate(s),
              breaks: [
                {
                  start_at: breakStart,
                  break_type_id: lunch.id,
                  name: lunch.break_name,
                  expected_duration: lunch.expected_duration,
                  is_paid: lunch.is_paid,
                },
              ],
            },
          }),
    );
    advance(HOUR / 2);
    // End the break.
    const breakEnd = now().toISOString();
    await step(current, (s) => {
      const b = (s.breaks ?? [])[0] as Break;
      if (b.end_at) return "done";
      return client.labor.updateShift(id, { shift: { ...forUpdate(s), breaks: [{ ...b, end_at: breakEnd }] } });
    });
    advance(2 * HOUR);
    // Clock out.
    const end = now().toISOString();
    await step(current, (s) =>
      s.end_at ? "done" : client.labor.updateShift(id, { shift: { ...forUpdate(s), end_at: end } }),
    );
    advance(12 * HOUR);
  }

  for (let k = 0; k < plan.customers; k++) {
    const { customer } = await keyed(() =>
      client.customers.createCustomer({
        idempotency_key: `${tag}-cust-${k}`,
        given_name: `Guest ${k}`,
        reference_id: `ref-${k}`,
      }),
    );
    const id = customer?.id ?? "";
    const current = async () => (await client.customers.retrieveCustomer(id)).customer as Customer;
    const edits: Partial<Customer>[] = [
      { family_name: "Fault" },
      { email_address: `guest${k}@example.com`, note: "called about an order" },
      { phone_number: "+1 845-555-0100", note: "prefers mornings" },
    ];
    for (const edit of edits) {
      await step(current, (s) =>
        Object.entries(edit).every(([f, v]) => (s as Record<string, unknown>)[f] === v)
          ? "done"
          : client.customers.updateCustomer(id, { ...edit, version: s.version ?? 0 }),
      );
      advance(600);
    }
  }
}

/** What the service holds at the end of a run, without ids and other values each run makes anew. */
async function snapshot(client: SquareClient) {
  const shifts = ((await client.labor.searchShifts({ limit: 200 })).shifts ?? [])
    .map((s) => ({
      start_at: s.start_at,
      end_at: s.end_at,
      status: s.status,
      version: s.version,
      breaks: (s.breaks ?? []).map((b) => ({ start_at: b.start_at, end_at: b.end_at, name: b.name })),
    }))
    .sort((a, b) => (a.start_at < b.start_at ? -1 : 1));
  const customers = ((await client.customers.listCustomers({ limit: 100 })).customers ?? [])
    .map((c) => ({
      given_name: c.given_name,
      family_name: c.family_name,
      email_address: c.email_address,
      phone_number: c.phone_number,
      note: c.note,
      version: c.version,
    }))
    .sort((a, b) => String(a.given_name).localeCompare(String(b.given_name)));
  const breakTypes = ((await client.labor.listBreakTypes()).break_types ?? []).map((b) => ({
    break_name: b.break_name,
    version: b.version,
  }));
  return { shifts, customers, breakTypes };
}

async function sandbox(): Promise<{ service: LocalService; url: string }> {
  const service = createService({ seed: "sandbox", clock: createClock(() => T0), accessToken: "fault-run-token" });
  return { service, url: await service.listen(0) };
}

/**
 * The app's flows (clock in, break, clock out; customer edits) through the real client and a
 * proxy that drops connections before and after the service, delays, and answers 429 and 503 —
 * with the service's own fault injection on too. The end state must equal that of the same flows
 * without faults: no duplicated shift, break or profile, no edit lost.
 */
export const faultSection: Section = {
  name: "faults",
  title: "Faults between the client and the service",
  async run(ctx) {
    const runs = ctx.mode === "full" ? 5 : 1;
    const plan: Plan = ctx.mode === "full" ? { cycles: 6, customers: 3 } : { cycles: 2, customers: 1 };
    const totals = noFaults();
    let equal = 0;
    let duplicates = 0;
    for (let run = 0; run < runs; run++) {
      const clean = await sandbox();
      const cleanClient = createClient({ baseUrl: clean.url, accessToken: "fault-run-token", maxRetries: 0 });
      await flows(
        cleanClient,
        (s) => clean.service.clock.advance(s),
        () => clean.service.clock.now(),
        plan,
        `run${run}`,
      );
      const expected = await snapshot(cleanClient);

      const faulty = await sandbox();
      const proxy = await startFaultProxy(faulty.url, rng(ctx.seed * 31 + run), {
        dropBefore: 0.1,
        dropAfter: 0.1,
        delay: 0.1,
        tooMany: 0.08,
        unavailable: 0.07,
      });
      // The service's own fault switch too: some requests refused with 503 before any rule runs.
      await fetch(`${faulty.url}/_emulator/faults`, {
        method: "POST",
        body: JSON.stringify({ operation: "*", status: 503, code: "SERVICE_UNAVAILABLE", probability: 0.05 }),
      });
      const client = createClient({
        baseUrl: proxy.url,
        accessToken: "fault-run-token",
        maxRetries: 2,
        baseDelayMs: 2,
        maxDelayMs: 20,
        timeoutMs: 5000,
      });
      await flows(
        client,
        (s) => faulty.service.clock.advance(s),
        () => faulty.service.clock.now(),
        plan,
        `run${run}`,
      );
      const direct = createClient({ baseUrl: faulty.url, accessToken: "fault-run-token", maxRetries: 0 });
      await fetch(`${faulty.url}/_emulator/faults`, { method: "DELETE" });
      const got = await snapshot(direct);
      const same = JSON.stringify(got) === JSON.stringify(expected);
      if (same) equal++;
      else
        ctx.log(
          `faults run ${run}: end state differs\n  expected ${JSON.stringify(expected)}\n  got      ${JSON.stringify(got)}`,
        );
      duplicates +=
        Math.abs(got.shifts.length - expected.shifts.length) +
        Math.abs(got.customers.length - expected.customers.length) +
        Math.abs(
          got.shifts.reduce((n, s) => n + s.breaks.length, 0) -
            expected.shifts.reduce((n, s) => n + s.breaks.length, 0),
        );
      for (const [k, v] of Object.entries(proxy.counts)) totals[k as FaultKind] += v;
      await Promise.all([client.close(), direct.close(), cleanClient.close(), proxy.close()]);
      await Promise.all([clean.service.close(), faulty.service.close()]);
    }
    const injected = totals["drop-before"] + totals["drop-after"] + totals.delay + totals["429"] + totals["503"];
    const figures: Figure[] = [
      info("runs (shift cycles, customers each)", `${runs} (${plan.cycles}, ${plan.customers})`),
      info(
        "faults injected by the proxy",
        `${injected} of ${injected + totals.pass} requests: dropped before ${totals["drop-before"]}, dropped after ${totals["drop-after"]}, delayed ${totals.delay}, 429 ${totals["429"]}, 503 ${totals["503"]}`,
      ),
      check(
        "every kind of fault happened",
        ["drop-before", "drop-after", "delay", "429", "503"].every((k) => totals[k as FaultKind] > 0),
      ),
      exactly(`runs whose end state differs from the fault-free run (of ${runs})`, runs - equal),
      exactly("duplicated or missing shifts, breaks and profiles", duplicates),
    ];
    return figures;
  },
};
