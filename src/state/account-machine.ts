// The account screen as a pure machine: where backroom works and why, the sign-in as the session
// reports it (never the token), the business and its locations, what the service said of the
// token, and the sign-in, refresh, renew and sign-out steps. What can be done now, and why not,
// is derived here from the account's rules (domain/account.ts).
import {
  refreshUnavailable,
  renewUnavailable,
  type ScopeNeed,
  type ScopeReport,
  type SignOutFacts,
  scopeReport,
  signOutQuestion,
  signOutUnavailable,
  type TokenFacts,
  type TokenKind,
  type TokenLife,
  tokenLife,
  type Why,
} from "../domain/account.js";
import type { EnvLabel } from "./types.js";

/** Where backroom works, and what chose it. */
export interface Whereabouts {
  label: EnvLabel;
  environment: "local" | "sandbox" | "production";
  /** The service's address (absent for the demo store, which runs in this process). */
  baseUrl: string | undefined;
  /** What chose it: a flag, an environment variable, the config file, or the default. */
  from: string;
  configPath: string | undefined;
  /** The demo store's file. */
  dbPath: string | undefined;
}

/** What the screen knows of the setup: fixed for the run. */
export interface AccountSetup {
  where: Whereabouts;
  applicationId: string | undefined;
  hasSecret: boolean;
  /** Whether sign-ins are kept in the OS keychain, or in memory for this run (and why). */
  keychain: { kind: "keychain" | "memory"; describe: string };
  scopeNeeds: readonly ScopeNeed[];
}

/** The sign-in as the session reports it; never the token itself. */
export interface TokenView {
  signedIn: boolean;
  /** Why nobody is signed in, and what to do. */
  reason: string | undefined;
  kind: TokenKind | undefined;
  source: "keychain" | "memory" | "env" | "local-demo" | undefined;
  merchantId: string | undefined;
  scopes: string[] | undefined;
  expiresAt: string | undefined;
  hasRefreshToken: boolean;
  /** The token's last four characters. */
  hint: string | undefined;
  /** Where it is kept, in words. */
  storage: string;
}

/** One location, from its own record. */
export interface LocationLine {
  id: string;
  name: string;
  status: string;
  address: string;
  timezone: string;
}

/** The steps of signing in from the screen. */
export type SignInFlow =
  | { step: "none" }
  | { step: "choose" }
  | { step: "browser"; url: string | undefined; problem: string | undefined }
  | { step: "token"; checking: boolean; problem: string | undefined };

/** The account screen's state. */
export interface AccountState {
  setup: AccountSetup | undefined;
  token: TokenView | undefined;
  business: { name: string | undefined; locations: LocationLine[] } | undefined;
  /** What the service said of the token when last asked. */
  check: { at: string; ok: boolean; text: string } | undefined;
  signIn: SignInFlow;
  busy: "refresh" | "renew" | "sign-out" | undefined;
  /** The last step's outcome, in words. */
  outcome: { ok: boolean; text: string } | undefined;
}

/** Everything that changes the account screen. */
export type AccountEvent =
  | { type: "setup"; setup: AccountSetup }
  | { type: "token"; token: TokenView }
  | { type: "business"; name: string | undefined; locations: LocationLine[] }
  | { type: "checked"; at: string; ok: boolean; text: string }
  | { type: "sign-in-open" }
  | { type: "sign-in-pick"; how: "browser" | "token" }
  | { type: "sign-in-url"; url: string }
  | { type: "token-checking" }
  | { type: "sign-in-failed"; problem: string }
  | { type: "sign-in-close" }
  | { type: "busy"; what: "refresh" | "renew" | "sign-out" }
  | { type: "done"; ok: boolean; text: string };

/** The screen before the setup is known. */
export const initialAccount: AccountState = {
  setup: undefined,
  token: undefined,
  business: undefined,
  check: undefined,
  signIn: { step: "none" },
  busy: undefined,
  outcome: undefined,
};

/** The account screen's reducer. */
export function accountReducer(s: AccountState, e: AccountEvent): AccountState {
  switch (e.type) {
    case "setup":
      return { ...s, setup: e.setup };
    case "token":
      return { ...s, token: e.token };
    case "business":
      return { ...s, business: { name: e.name, locations: e.locations } };
    case "checked":
      return { ...s, check: { at: e.at, ok: e.ok, text: e.text } };
    case "sign-in-open":
      return { ...s, signIn: { step: "choose" }, outcome: undefined };
    case "sign-in-pick":
      return {
        ...s,
        signIn:
          e.how === "browser"
            ? { step: "browser", url: undefined, problem: undefined }
            : { step: "token", checking: false, problem: undefined },
      };
    case "sign-in-url":
      return s.signIn.step === "browser" ? { ...s, signIn: { ...s.signIn, url: e.url } } : s;
    case "token-checking":
      return s.signIn.step === "token" ? { ...s, signIn: { ...s.signIn, checking: true, problem: undefined } } : s;
    case "sign-in-failed":
      if (s.signIn.step === "browser") return { ...s, signIn: { ...s.signIn, problem: e.problem } };
      if (s.signIn.step === "token") return { ...s, signIn: { ...s.signIn, checking: false, problem: e.problem } };
      return s;
    case "sign-in-close":
      return { ...s, signIn: { step: "none" } };
    case "busy":
      return { ...s, busy: e.what, outcome: undefined };
    case "done":
      return { ...s, busy: undefined, signIn: e.ok ? { step: "none" } : s.signIn, outcome: { ok: e.ok, text: e.text } };
  }
}

/** The token's facts for the account's rules. */
export function tokenFacts(t: TokenView | undefined): TokenFacts {
  return {
    kind: t?.kind,
    expiresAt: t?.expiresAt,
    hasRefreshToken: t?.hasRefreshToken ?? false,
    fromEnvironment: t?.source === "env",
  };
}

function signOutFacts(s: AccountState): SignOutFacts {
  return {
    kind: s.token?.kind,
    fromEnvironment: s.token?.source === "env",
    demo: s.setup?.where.label === "DEMO",
    hasSecret: s.setup?.hasSecret ?? false,
    // Where the sign-in is removed from: the keychain's name, or this run's memory.
    storage: s.token?.source === "keychain" ? s.token.storage : "this backroom (it was never saved)",
  };
}

/** What the screen shows and offers at `now`: the token's life, the scopes, and each step's reason not to. */
export interface AccountView {
  life: TokenLife | undefined;
  scopes: ScopeReport | undefined;
  unavailable: {
    signInBrowser: Why;
    signInToken: Why;
    signOut: Why;
    refresh: Why;
    renew: Why;
  };
  /** The sign-out confirmation's question. */
  signOutQuestion: string;
}

/** Derives the screen's view from the state at `now`. */
export function accountView(s: AccountState, now: Date): AccountView {
  const setup = s.setup;
  const token = s.token;
  const signedIn = token?.signedIn === true;
  const facts = tokenFacts(token);
  const busy = s.busy ? "Wait for the step in progress to finish." : undefined;
  const notReady = setup ? undefined : "The sign-in is still being read.";
  const demo =
    setup?.where.label === "DEMO" ? "The demo store signs itself in; there is nothing to sign in to." : undefined;
  const env =
    token?.source === "env" ? "The token comes from BACKROOM_ACCESS_TOKEN; unset it to sign in here." : undefined;
  const signIn = notReady ?? busy ?? demo ?? env;
  const needsSignIn = signedIn ? undefined : "Not signed in: b signs in in a browser, p with a personal token.";
  return {
    life: signedIn ? tokenLife(facts, now) : undefined,
    scopes: setup && signedIn ? scopeReport(setup.scopeNeeds, token?.scopes) : undefined,
    unavailable: {
      signInBrowser:
        signIn ??
        (setup?.applicationId
          ? undefined
          : "Signing in in a browser needs the application id (applicationId in the config file)."),
      signInToken: signIn,
      signOut: notReady ?? busy ?? signOutUnavailable(signOutFacts(s), signedIn),
      refresh: notReady ?? busy ?? needsSignIn ?? refreshUnavailable(facts, setup?.applicationId),
      renew:
        notReady ??
        busy ??
        needsSignIn ??
        renewUnavailable(facts, { applicationId: setup?.applicationId, hasSecret: setup?.hasSecret ?? false }, now),
    },
    signOutQuestion: signOutQuestion(signOutFacts(s)),
  };
}
