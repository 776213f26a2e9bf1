// The account screen's I/O: the session (sign in, refresh, renew, sign out), the service's word
// on the token, and the locations' own records. Answers go to the pure machine as events.
// The sign-in code (and the HTTP client under it) is loaded when a step needs it, not with the
// first frame; only types are imported at the top.
import type { Session } from "../auth/index.js";
import type { TokenKind } from "../domain/account.js";
import type { Location } from "../spec/generated/types.js";
import { SquareApiError } from "../square/errors.js";
import type { SquareClient } from "../square/index.js";
import {
  type AccountEvent,
  type AccountSetup,
  type AccountState,
  accountReducer,
  initialAccount,
  type LocationLine,
  type TokenView,
} from "./account-machine.js";
import { problemOf } from "./errors.js";
import type { AppState, SliceCreator, StoreDeps } from "./store.js";

/** What the account screen works with: the setup, the live session, and how to reach a browser. */
export interface AccountContext extends Omit<AccountSetup, "hasSecret"> {
  session: Session;
  /** The OAuth calls of a client whose token provider is the session. */
  oauth: SquareClient["oauth"];
  /** The application secret (BACKROOM_CLIENT_SECRET), for revoking and the deprecated renew. */
  clientSecret: string | undefined;
  /** Opens an address in a browser; resolves false when none could be started. */
  openUrl?: (url: string) => Promise<boolean>;
  squareVersion?: string | undefined;
  /** How long the browser sign-in waits for the answer. Default 5 minutes. */
  signInTimeoutMs?: number;
}

/** The account slice. */
export interface AccountSlice {
  account: AccountState;
  accountDispatch(e: AccountEvent): void;
  /** Reads the sign-in, asks the service about the token, and reads the locations. */
  loadAccount(options?: { quiet?: boolean }): Promise<void>;
  /** OAuth with PKCE in a browser; the address is shown too, for another machine's browser. */
  accountSignInBrowser(): Promise<void>;
  /** A personal access token typed into the masked field, checked before it is kept. */
  accountSignInToken(token: string): Promise<void>;
  accountCancelSignIn(): void;
  /** Revokes at the service (with the secret) and forgets here. */
  accountSignOut(): Promise<void>;
  accountRefresh(): Promise<void>;
  /** The deprecated RenewToken, inside its 15 days. */
  accountRenew(): Promise<void>;
}

/** The sign-in as the session reports it, without the token. */
export function tokenViewOf(session: Session): TokenView {
  const st = session.status();
  const state = session.state();
  return {
    signedIn: st.signedIn,
    reason: st.reason,
    kind: st.kind as TokenKind | undefined,
    source: state.status === "signed-in" ? state.source : undefined,
    merchantId: st.merchantId,
    scopes: st.scopes,
    expiresAt: st.expiresAt,
    hasRefreshToken: state.status === "signed-in" && Boolean(state.tokens.refresh_token),
    hint: st.tokenHint,
    storage: st.storage,
  };
}

/** A location as the account screen lists it. */
function locationLine(l: Location): LocationLine {
  const a = l.address;
  return {
    id: l.id ?? "",
    name: l.name ?? l.id ?? "",
    status: l.status ?? "",
    address: [a?.address_line_1, a?.locality, a?.postal_code].filter(Boolean).join(", "),
    timezone: l.timezone ?? "",
  };
}

/** What a sign-in came to, and whether it outlives this run. */
function signedInText(c: AccountContext, merchantId: string): string {
  return c.keychain.kind === "keychain"
    ? `Signed in as merchant ${merchantId}; kept in ${c.session.describeStorage()}.`
    : `Signed in as merchant ${merchantId} for this run only: ${c.keychain.describe.replace(/^not saved: /, "")}.`;
}

/** A failure in words, with the service's code when there is one. */
function say(err: unknown): string {
  const p = problemOf(err);
  return p.details ? `${p.headline} (${p.details.split(" · ")[0]})` : p.headline;
}

/** What the account actions work with: the store, the machine's dispatch, and the sign-in once it is read. */
interface AccountIo {
  get: () => AppState;
  dispatch: (e: AccountEvent) => void;
  deps: StoreDeps;
  /** The context the app was started with, once read (undefined when there is none, or it failed). */
  ready: () => Promise<AccountContext | undefined>;
  /** Shows the session's sign-in and tells the other slices. */
  showToken: (session: Session) => void;
  /** The outcome of a step; a success also clears an older message from the status bar. */
  done: (ok: boolean, text: string) => void;
}

/**
 * Reads the context the app was started with once (the demo store's may still be starting): the
 * screen gets the setup, and follows the session from then on.
 */
function contextReader(
  context: AccountContext | Promise<AccountContext> | undefined,
  dispatch: AccountIo["dispatch"],
  showToken: AccountIo["showToken"],
): AccountIo["ready"] {
  let ctx: AccountContext | undefined;
  return async () => {
    if (ctx || !context) return ctx;
    let c: AccountContext;
    try {
      c = await context;
    } catch (err) {
      dispatch({ type: "done", ok: false, text: `The sign-in could not be read: ${say(err)}` });
      return undefined;
    }
    if (!ctx) {
      ctx = c;
      const {
        clientSecret: _secret,
        session,
        oauth: _o,
        openUrl: _u,
        squareVersion: _v,
        signInTimeoutMs: _t,
        ...setup
      } = c;
      dispatch({ type: "setup", setup: { ...setup, hasSecret: Boolean(c.clientSecret) } });
      session.subscribe(() => showToken(session));
      showToken(session);
    }
    return ctx;
  };
}

/** Asks the service about the token and adopts its word (a revoked or expired token signs out). */
async function checkToken({ get, dispatch, deps }: AccountIo, c: AccountContext, quiet: boolean): Promise<void> {
  const at = deps.clock.now().toISOString();
  try {
    const { adoptTokenStatus } = await import("../auth/session.js");
    await adoptTokenStatus(c.session, await c.oauth.retrieveTokenStatus());
    dispatch({ type: "checked", at, ok: true, text: "The service accepts the token." });
  } catch (err) {
    if (err instanceof SquareApiError) await c.session.noticeError(err);
    dispatch({ type: "checked", at, ok: false, text: say(err) });
    if (!quiet) get().setStatus({ screen: "account", kind: "error", text: problemOf(err).headline });
  }
}

/** Reads the sign-in, asks the service about the token, and reads the locations. */
async function loadAccount(io: AccountIo, options: { quiet?: boolean }): Promise<void> {
  const { get, dispatch, deps } = io;
  const c = await io.ready();
  if (!c) return;
  io.showToken(c.session);
  if (c.session.state().status !== "signed-in") return;
  await checkToken(io, c, options.quiet === true);
  if (c.session.state().status !== "signed-in") return;
  const locs = await get().runRead("Reading the locations", () => deps.client.locations.listLocations(), options);
  if (!locs) return;
  const all = locs.locations ?? [];
  dispatch({
    type: "business",
    name: all.find((l) => l.business_name)?.business_name,
    locations: all.map(locationLine),
  });
}

/** Checks a typed personal access token with the service, and keeps it only when the service accepts it. */
async function signInWithToken(io: AccountIo, token: string): Promise<void> {
  const { get, dispatch } = io;
  const c = await io.ready();
  const baseUrl = c?.where.baseUrl;
  if (!c || !baseUrl) return;
  const value = token.trim();
  if (!value) {
    dispatch({ type: "sign-in-failed", problem: "Type or paste the personal access token first." });
    return;
  }
  dispatch({ type: "token-checking" });
  try {
    const { checkPersonalToken, personalTokens } = await import("../auth/sign-in.js");
    const info = await checkPersonalToken({ baseUrl, token: value, squareVersion: c.squareVersion });
    await c.session.signIn(personalTokens(value, info, { environment: c.where.environment, baseUrl }));
    io.done(true, signedInText(c, info.merchant_id ?? "?"));
    await get().loadAccount({ quiet: true });
  } catch (err) {
    const refused =
      err instanceof SquareApiError
        ? `The ${c.where.environment} service refused this token (${err.code}): check that it is an access token for ${c.where.environment}. Nothing was kept.`
        : say(err);
    dispatch({ type: "sign-in-failed", problem: refused });
  }
}

/** The actions of signing in: in a browser (cancellable, one at a time) or with a personal access token. */
function signInActions(io: AccountIo) {
  const { get, dispatch } = io;
  let signIn: AbortController | undefined;
  return {
    async accountSignInBrowser() {
      const c = await io.ready();
      const where = c?.where;
      if (!c || !where?.baseUrl || !c.applicationId) return;
      dispatch({ type: "sign-in-pick", how: "browser" });
      signIn?.abort();
      const abort = new AbortController();
      signIn = abort;
      try {
        const { signInWithBrowser } = await import("../auth/sign-in.js");
        const tokens = await signInWithBrowser({
          client: { oauth: c.oauth },
          session: c.session,
          environment: where.environment,
          baseUrl: where.baseUrl,
          applicationId: c.applicationId,
          scopes: c.scopeNeeds.map((n) => n.scope),
          timeoutMs: c.signInTimeoutMs ?? 5 * 60_000,
          signal: abort.signal,
          onAddress: async (url) => {
            dispatch({ type: "sign-in-url", url });
            await c.openUrl?.(url).catch(() => false);
          },
        });
        io.done(true, signedInText(c, tokens.merchant_id));
        await get().loadAccount({ quiet: true });
      } catch (err) {
        if (abort.signal.aborted) return;
        dispatch({ type: "sign-in-failed", problem: say(err) });
      } finally {
        if (signIn === abort) signIn = undefined;
      }
    },
    accountSignInToken: (token: string) => signInWithToken(io, token),
    accountCancelSignIn() {
      signIn?.abort();
      signIn = undefined;
      dispatch({ type: "sign-in-close" });
    },
  } satisfies Partial<AccountSlice>;
}

/** The actions on the token kept: sign out (revoking at the service), refresh, and the deprecated renew. */
function tokenActions(io: AccountIo) {
  /** Runs one account step: busy while it runs, its outcome in words after. */
  async function step(what: "refresh" | "renew" | "sign-out", run: (c: AccountContext) => Promise<string>) {
    const c = await io.ready();
    if (!c) return;
    io.dispatch({ type: "busy", what });
    try {
      io.done(true, await run(c));
    } catch (err) {
      io.done(false, say(err));
    }
    io.showToken(c.session);
  }
  const expiry = (c: AccountContext) => {
    const expires = c.session.status().expiresAt;
    return expires ? `on ${expires}` : "never";
  };
  return {
    accountSignOut: () =>
      step("sign-out", async (c) => {
        const r = await c.session.logout({ clientSecret: c.clientSecret });
        if (!r.ok) throw new Error(r.message);
        return r.message;
      }),
    accountRefresh: () =>
      step("refresh", async (c) => {
        await c.session.refresh();
        return `Refreshed: the new token expires ${expiry(c)}.`;
      }),
    accountRenew: () =>
      step("renew", async (c) => {
        await c.session.renew(c.clientSecret ?? "");
        return `Renewed with the deprecated RenewToken: the new token expires ${expiry(c)}.`;
      }),
  } satisfies Partial<AccountSlice>;
}

/** Builds the account slice over the context the app was started with (none in some tests). */
export function createAccountSlice(
  context: AccountContext | Promise<AccountContext> | undefined,
): SliceCreator<AccountSlice> {
  return (set, get, deps) => {
    const dispatch = (e: AccountEvent) => set((s) => ({ account: accountReducer(s.account, e) }));
    const showToken = (session: Session) => {
      const token = tokenViewOf(session);
      dispatch({ type: "token", token });
      deps.events.emit({ type: "session-changed", signedIn: token.signedIn, merchantId: token.merchantId });
    };
    const done = (ok: boolean, text: string) => {
      dispatch({ type: "done", ok, text });
      if (ok) get().setStatus({ kind: "idle" });
    };
    const io: AccountIo = { get, dispatch, deps, ready: contextReader(context, dispatch, showToken), showToken, done };
    // Its last check found no service (the app started while it was down): the service answers
    // again, so the token is asked about and the business read, with no key pressed.
    deps.events.on("service-answered", () => {
      if (get().account.check?.ok === false) void loadAccount(io, { quiet: true });
    });
    return {
      account: initialAccount,
      accountDispatch: dispatch,
      loadAccount: (options = {}) => loadAccount(io, options),
      ...signInActions(io),
      ...tokenActions(io),
    };
  };
}
