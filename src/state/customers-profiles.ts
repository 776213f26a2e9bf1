/**
 * The customers slice's writes and single-profile reads: a profile read fresh (and who shares its
 * email or phone), created with one idempotency key per body, saved with its version (a conflict
 * shows both versions), deleted, and its groups and cards changed.
 */
import { customerName, emailKey } from "../domain/customers.js";
import { type DuplicateReason, duplicateKeys } from "../domain/customers-duplicates.js";
import {
  type CustomerUpdate,
  conflictDiff,
  createBody,
  defaultReapply,
  type ProfileValues,
  profileValues,
  reapplyValues,
  updateBody,
} from "../domain/customers-profile.js";
import { type FormProblem, onField, problemText } from "../domain/form-problem.js";
import { applyCustomerUpdate, isKeptId, keptId, targetOf } from "../domain/kept-writes.js";
import { phoneKey, phoneSearchDigits } from "../domain/phone.js";
import type { Customer } from "../spec/generated/types.js";
import { CUSTOMER_LIST, customerIds } from "./customers-machine.js";
import { type CustomersIo, customersOf } from "./customers-search.js";
import { hasErrorCode, isVersionConflict, writeProblem } from "./errors.js";
import { countryOf } from "./shell-slice.js";
import { selectedId } from "./view-slice.js";

const client = (io: CustomersIo) => io.deps.client.customers;
/** The store's country: phone numbers are read, saved and compared as its numbers. */
const country = (io: CustomersIo) => countryOf(io.get());

/** A profile as this terminal last saw it (its own change, else the list's row). */
function known(io: CustomersIo, id: string): Customer | undefined {
  const s = customersOf(io);
  return s.local[id] ?? s.results.rows.find((r) => r.id === id) ?? undefined;
}

const nameOf = (io: CustomersIo, id: string) => {
  const c = known(io, id);
  return c ? customerName(c, country(io)) : "the profile";
};

/**
 * Reads one profile as it is now and lays it over the list (and the index). One the service no
 * longer has was deleted elsewhere: it leaves the list and the index, and the status bar says so.
 * `quiet`: no spinner (the pane's read of the row the cursor rests on).
 */
export async function refreshProfile(io: CustomersIo, id: string, quiet = false): Promise<Customer | undefined> {
  const got = await io.get().runRead(
    "Reading the profile",
    async () => {
      try {
        return await client(io).retrieveCustomer(id);
      } catch (err) {
        if (hasErrorCode(err, "NOT_FOUND")) return { gone: true as const };
        throw err;
      }
    },
    { quiet },
  );
  if (got && "gone" in got) {
    goneElsewhere(io, id);
    return undefined;
  }
  const c = got?.customer;
  if (c) io.dispatch({ type: "profile-read", customer: c });
  return c;
}

/** A profile the service says is gone: out of the list and the index, and said. */
function goneElsewhere(io: CustomersIo, id: string): void {
  const name = nameOf(io, id);
  io.dispatch({ type: "profile-deleted", id });
  io.get().setStatus({
    screen: "customers",
    kind: "info",
    text: `${name === "the profile" ? "This profile" : name} was deleted elsewhere; it is gone from the list.`,
    details: `customer ${id} · NOT_FOUND`,
  });
}

/** Opens the profile: fresh from the service, and asks who shares its email or phone. */
export async function openProfile(io: CustomersIo, id: string): Promise<void> {
  const c = await refreshProfile(io, id);
  if (!c) return;
  // Who shares its email (exact, any case) or its phone (every spelling of the number).
  const found: { reason: DuplicateReason; others: Customer[] }[] = [];
  const where = country(io);
  for (const { reason, key } of duplicateKeys(c, where)) {
    const filter =
      reason === "email"
        ? { email_address: { exact: key } }
        : { phone_number: { fuzzy: phoneSearchDigits(`+${key}`, where) } };
    const page = await io
      .get()
      .runRead(
        "Looking for duplicates",
        async () => await client(io).searchCustomers({ query: { filter }, limit: 100 }),
        {
          quiet: true,
        },
      );
    const same = (o: Customer) =>
      reason === "email"
        ? o.email_address !== undefined && emailKey(o.email_address) === key
        : o.phone_number !== undefined && phoneKey(o.phone_number, where) === key;
    found.push({ reason, others: (page?.customers ?? []).filter((o) => o.id !== c.id && same(o)) });
  }
  io.dispatch({ type: "duplicates-probed", id, found });
}

/**
 * Opens the edit form on the profile as it is now; while the service does not answer (or for a
 * profile added offline), on the copy shown, whose version the kept edit then carries.
 */
export async function startEdit(io: CustomersIo, id: string): Promise<void> {
  const fresh = isKeptId(id) ? undefined : await refreshProfile(io, id);
  const offline = isKeptId(id) || io.get().connection.state === "offline";
  const base = fresh ?? (offline ? known(io, id) : undefined);
  if (base) io.dispatch({ type: "view", view: { kind: "edit", base } });
}

/** A refused request's problem for the form: about its field when it names one. */
function builtProblem(built: { problem: string; field?: string }): FormProblem {
  return built.field ? onField(built.problem, built.field) : built.problem;
}

/** Adds a profile; a problem in words, or undefined. The same body is sent again under the same key. */
export async function createProfile(io: CustomersIo, values: Partial<ProfileValues>): Promise<FormProblem> {
  const built = createBody(values, country(io));
  if (!built.ok) return builtProblem(built);
  const body = JSON.stringify(built.value);
  if (customersOf(io).createKey?.body !== body) {
    io.dispatch({ type: "create-key", key: { key: io.deps.newIdempotencyKey(), body } });
  }
  const key = customersOf(io).createKey?.key ?? io.deps.newIdempotencyKey();
  const name = customerName(built.value, country(io));
  const res = await io
    .get()
    .outboxWrite({ kind: "create-customer", request: { ...built.value, idempotency_key: key } });
  if (res.kind === "failed") return writeProblem(res.error);
  io.dispatch({ type: "create-key", key: undefined });
  // Kept: the profile is listed as it will be, under a stand-in id, until the service makes it.
  const c = res.kind === "kept" ? ({ ...built.value, id: keptId(res.entry.seq) } as Customer) : res.answer.customer;
  io.dispatch(c ? { type: "profile-created", customer: c } : { type: "view", view: { kind: "list" } });
  // The cursor goes onto the new profile (listed first).
  const ids = customerIds(customersOf(io).results.rows);
  if (c?.id) io.get().selectRow(CUSTOMER_LIST, ids, ids.indexOf(c.id));
  if (res.kind === "sent") io.get().setStatus({ screen: "customers", kind: "info", text: `Added ${name}.` });
  return undefined;
}

/** Shows both versions after a conflict, the manager's changes picked for re-applying. */
async function showConflict(
  io: CustomersIo,
  id: string,
  base: Customer,
  mine: Partial<ProfileValues>,
  name: string,
): Promise<string | undefined> {
  const theirs = await refreshProfile(io, id);
  if (!theirs) return "Someone else changed this profile first, and it cannot be read now.";
  const full: ProfileValues = { ...profileValues(base, country(io)), ...mine };
  const picked = defaultReapply(conflictDiff(base, full, theirs, country(io)));
  io.dispatch({ type: "view", view: { kind: "conflict", base, mine: full, theirs, picked } });
  io.get().setStatus({
    screen: "customers",
    kind: "rule",
    text: `Someone else changed ${name} first. Both versions are shown: pick what of yours to re-apply.`,
  });
  return undefined;
}

/**
 * Sends an update of `current` to `values`. On a version conflict the colleague's version is
 * read and the screen shows both side by side, with the manager's changes picked for re-applying.
 */
async function save(
  io: CustomersIo,
  current: Customer,
  values: Partial<ProfileValues>,
  base: Customer,
  mine: Partial<ProfileValues> = values,
): Promise<FormProblem> {
  const id = current.id ?? "";
  const built = updateBody(current, values, country(io));
  if (!built.ok) {
    if (built.problem === "Nothing changed." && customersOf(io).view.kind === "conflict") {
      io.dispatch({ type: "view", view: { kind: "list" } });
      io.get().setStatus({
        screen: "customers",
        kind: "info",
        text: "Nothing of yours to re-apply: the profile stays as it is now.",
      });
      return undefined;
    }
    return builtProblem(built);
  }
  const name = customerName({ ...current, ...(built.value as Partial<Customer>) }, country(io));
  const body: CustomerUpdate = built.value;
  const res = await io
    .get()
    .outboxWrite({ kind: "update-customer", customer: targetOf({ ...current, id }), update: body });
  if (res.kind !== "failed") {
    // Kept: the profile shows the edit at once, as it will be.
    const saved = res.kind === "kept" ? applyCustomerUpdate(current, body) : res.answer.customer;
    if (saved) io.dispatch({ type: "profile-read", customer: saved });
    io.dispatch({ type: "view", view: { kind: "list" } });
    if (res.kind === "sent") io.get().setStatus({ screen: "customers", kind: "info", text: `Saved ${name}.` });
    return undefined;
  }
  if (res.error.kind === "failed" && isVersionConflict(res.error.cause)) return showConflict(io, id, base, mine, name);
  return writeProblem(res.error);
}

/** Saves the edit form. */
export function saveEdit(io: CustomersIo, values: Partial<ProfileValues>): Promise<FormProblem> {
  const view = customersOf(io).view;
  if (view.kind !== "edit") return Promise.resolve("No profile is being edited.");
  return save(io, view.base, values, view.base);
}

/** Sends the picked fields of the manager's on the colleague's version. */
export function reapply(io: CustomersIo): Promise<string | undefined> {
  const view = customersOf(io).view;
  if (view.kind !== "conflict") return Promise.resolve("There is nothing to re-apply.");
  // Shown under the two versions, not in a form: the words are what is shown.
  return save(
    io,
    view.theirs,
    reapplyValues(view.theirs, view.mine, view.picked, country(io)),
    view.base,
    view.mine,
  ).then(problemText);
}

/** Opens the edit form on the new version with the picked fields put back (to change more first). */
export function reapplyInForm(io: CustomersIo): void {
  const view = customersOf(io).view;
  if (view.kind !== "conflict") return;
  // The form is on their version (its version is sent) and shows it with the picked fields of mine.
  const initial = reapplyValues(view.theirs, view.mine, view.picked, country(io));
  io.dispatch({ type: "view", view: { kind: "edit", base: view.theirs, initial } });
}

/** Deletes a profile at the version this terminal saw; a stale version is refused and said. */
export async function deleteProfile(io: CustomersIo, id: string): Promise<void> {
  const c = known(io, id);
  if (!c) return;
  const name = customerName(c, country(io));
  const version = c.version === undefined ? {} : { version: c.version };
  const res = await io
    .get()
    .runWrite(`customer:${id}`, `Deleting ${name}`, () => client(io).deleteCustomer(id, version));
  if (res.ok) {
    const before = customerIds(customersOf(io).results.rows);
    const cursorOnIt = selectedId(io.get(), CUSTOMER_LIST, before) === id;
    io.dispatch({ type: "profile-deleted", id });
    // The cursor stays in its place: on the profile that took the deleted one's row.
    if (cursorOnIt) io.get().selectRow(CUSTOMER_LIST, customerIds(customersOf(io).results.rows), before.indexOf(id));
    io.get().setStatus({ screen: "customers", kind: "info", text: `Deleted ${name}.` });
    return;
  }
  if (res.error.kind === "failed" && hasErrorCode(res.error.cause, "NOT_FOUND")) {
    goneElsewhere(io, id);
    return;
  }
  if (res.error.kind === "failed" && isVersionConflict(res.error.cause)) {
    await refreshProfile(io, id);
    io.get().setStatus({
      screen: "customers",
      kind: "rule",
      text: `${name} was changed elsewhere since it was read; nothing was deleted. Look again, then delete if still wanted.`,
    });
  }
}

/** Adds a profile to a group or takes it out. */
export async function setMembership(io: CustomersIo, customerId: string, groupId: string, member: boolean) {
  const group = customersOf(io).groups.find((g) => g.id === groupId)?.name ?? groupId;
  const name = nameOf(io, customerId);
  const shown = known(io, customerId);
  if (!shown) return;
  const res = await io.get().outboxWrite({
    kind: "customer-group",
    customer: targetOf({ ...shown, id: customerId }),
    groupId,
    groupName: group,
    member,
  });
  if (res.kind === "failed") return;
  if (res.kind === "kept") {
    const groups = new Set(shown.group_ids ?? []);
    if (member) groups.add(groupId);
    else groups.delete(groupId);
    io.dispatch({ type: "profile-read", customer: { ...shown, group_ids: [...groups] } });
    return;
  }
  // The membership changes the profile's version too: the answer is the profile read back.
  if (res.answer.customer) io.dispatch({ type: "profile-read", customer: res.answer.customer });
  io.get().setStatus({
    screen: "customers",
    kind: "info",
    text: member ? `${name} is in ${group}.` : `${name} is no longer in ${group}.`,
  });
}

/** Takes a card off the profile. */
export async function removeCard(io: CustomersIo, customerId: string, cardId: string): Promise<void> {
  const name = nameOf(io, customerId);
  const res = await io
    .get()
    .runWrite(`customer:${customerId}:card:${cardId}`, `Removing a card of ${name}`, () =>
      client(io).deleteCustomerCard(customerId, cardId),
    );
  if (!res.ok) return;
  await refreshProfile(io, customerId);
  io.get().setStatus({ screen: "customers", kind: "info", text: `The card is no longer on file for ${name}.` });
}
