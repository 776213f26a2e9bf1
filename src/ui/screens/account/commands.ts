import {
  type AccountState,
  type AccountView,
  type AppState,
  accountView,
  type LocationLine,
} from "../../../state/index.js";
import { ch, defineCommands, type ListRows, listCommands, named } from "../../commands.js";

/** The masked field a personal access token is typed into. */
export const TOKEN_FIELD = "token";
/** The account screen's list: the permissions, then the locations. */
export const ACCOUNT_LIST = "account";

/** One row of the account screen's list. */
export type AccountRow =
  | { id: string; kind: "heading"; text: string }
  /** `unknown`: the sign-in's permissions are not known yet (the service has not said), so neither is this one. */
  | { id: string; kind: "scope"; scope: string; why: string; granted: boolean; unknown: boolean }
  | { id: string; kind: "location"; location: LocationLine };

const viewCache = new WeakMap<AccountState, { now: number; view: AccountView }>();

/** The account's view at the shell's clock (the same object while neither changes). */
export function accountViewOf(s: AppState): AccountView {
  const cached = viewCache.get(s.account);
  if (cached && cached.now === s.now.getTime()) return cached.view;
  const view = accountView(s.account, s.now);
  viewCache.set(s.account, { now: s.now.getTime(), view });
  return view;
}

const rowsCache = new WeakMap<AccountView, WeakMap<AccountState, AccountRow[]>>();

/** The rows of the list: each permission with what needs it, then the locations from their records. */
export function accountRows(s: AppState): AccountRow[] {
  const view = accountViewOf(s);
  const byState = rowsCache.get(view) ?? new WeakMap<AccountState, AccountRow[]>();
  rowsCache.set(view, byState);
  const hit = byState.get(s.account);
  if (hit) return hit;
  const rows: AccountRow[] = [];
  const scopes = view.scopes;
  if (scopes) {
    const granted = scopes.lines.filter((l) => l.granted).length;
    rows.push({
      id: "h:scopes",
      kind: "heading",
      text: scopes.unknown
        ? "Permissions (not known yet: r asks the service)"
        : `Permissions: ${granted} of ${scopes.lines.length} that backroom uses${scopes.missing.length ? `, ${scopes.missing.length} missing` : ""}`,
    });
    for (const l of scopes.lines) rows.push({ id: `s:${l.scope}`, kind: "scope", ...l, unknown: scopes.unknown });
  }
  const locations = s.account.business?.locations ?? [];
  if (locations.length) {
    rows.push({ id: "h:locations", kind: "heading", text: `Locations (${locations.length})` });
    for (const location of locations) rows.push({ id: `l:${location.id}`, kind: "location", location });
  }
  byState.set(s.account, rows);
  return rows;
}

const idsCache = new WeakMap<AccountRow[], string[]>();

/** The list the movement keys act on. */
export function accountListRows(s: AppState): ListRows {
  const rows = accountRows(s);
  let ids = idsCache.get(rows);
  if (!ids) {
    ids = rows.map((r) => r.id);
    idsCache.set(rows, ids);
  }
  return { list: ACCOUNT_LIST, ids };
}

const signingIn = (s: AppState) =>
  s.account.signIn.step === "none" ? undefined : "A sign-in is open: finish it, or esc.";

/** The account screen's commands. */
export const ACCOUNT_COMMANDS = defineCommands({
  ...listCommands(accountListRows),
  signInBrowser: {
    keys: [ch("b")],
    label: "b",
    description: "sign in (browser)",
    hint: 2,
    run: (s) => s.accountSignInBrowser(),
    unavailable: (s) => signingIn(s) ?? accountViewOf(s).unavailable.signInBrowser,
  },
  signInToken: {
    keys: [ch("p")],
    label: "p",
    description: "sign in (token)",
    hint: 3,
    run: (s) => {
      s.accountDispatch({ type: "sign-in-pick", how: "token" });
      s.focusField("account", TOKEN_FIELD);
    },
    unavailable: (s) => signingIn(s) ?? accountViewOf(s).unavailable.signInToken,
  },
  refresh: {
    keys: [ch("f")],
    label: "f",
    description: "refresh now",
    hint: 4,
    run: (s) => s.accountRefresh(),
    unavailable: (s) => accountViewOf(s).unavailable.refresh,
  },
  renew: {
    keys: [ch("w")],
    label: "w",
    description: "renew (deprecated)",
    hint: 5,
    run: (s) => s.accountRenew(),
    unavailable: (s) => accountViewOf(s).unavailable.renew,
  },
  signOut: {
    keys: [ch("o")],
    label: "o",
    description: "sign out (asks first)",
    write: true,
    hint: 6,
    run: (s) =>
      s.ask({
        message: accountViewOf(s).signOutQuestion,
        risky: true,
        yes: "Sign out",
        onYes: () => s.accountSignOut(),
      }),
    unavailable: (s) => signingIn(s) ?? accountViewOf(s).unavailable.signOut,
  },
  cancel: {
    keys: [named("escape")],
    label: "esc",
    description: "cancel the sign-in",
    palette: false,
    hint: 1,
    run: (s) => s.accountCancelSignIn(),
    unavailable: (s) => (s.account.signIn.step === "none" ? "No sign-in is open." : undefined),
  },
});
