// The sign-in, in the manager's words: how long the token lasts, when backroom renews it, whether
// the deprecated renew still can, and which permissions the screens need that it lacks. Pure:
// the account screen and `backroom status` read these; the session applies the same numbers.
import { plural } from "./plural.js";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** An OAuth access token lasts 30 days from when it is issued. */
export const ACCESS_TOKEN_LIFETIME_MS = 30 * DAY_MS;
/** The service advises renewing weekly: a token with less than this left is refreshed first. */
export const REFRESH_WITHIN_MS = 7 * DAY_MS;
/** The deprecated RenewToken still renews a token up to 15 days after it expired. */
export const RENEW_WINDOW_MS = 15 * DAY_MS;

/** A problem in words, or undefined when there is none. */
export type Why = string | undefined;

/** How a sign-in was made: only OAuth ones expire and renew. */
export type TokenKind = "oauth" | "personal";

/** What the account screen knows about the token, without the token itself. */
export interface TokenFacts {
  kind: TokenKind | undefined;
  /** RFC 3339; absent for a token that does not expire. */
  expiresAt: string | undefined;
  hasRefreshToken: boolean;
  /** The token comes from BACKROOM_ACCESS_TOKEN: backroom neither keeps nor renews it. */
  fromEnvironment: boolean;
}

/** Where a token stands in its life. */
export type TokenPhase =
  /** A personal token, or one the service gave no expiry: it lasts until replaced. */
  | "lasting"
  | "valid"
  /** Fewer than 7 days left: backroom refreshes it on its next call (if it can). */
  | "refresh-due"
  /** Expired, and less than 15 days ago: the deprecated renew still works. */
  | "renewable"
  /** Expired more than 15 days ago: only signing in again helps. */
  | "expired";

/** The token's life in words: a headline (`expires in 12 days`) and the rule behind it. */
export interface TokenLife {
  phase: TokenPhase;
  /** `expires in 12 days`, `expired 3 days ago`, `does not expire`. */
  headline: string;
  /** The 30-day lifetime and what backroom does about it. */
  rule: string;
  /** Until when the deprecated renew accepts it (an expired token only). */
  renewableUntil?: string;
}

/** `12 days`, `5 hours`, `1 minute`: the larger unit that fits, rounded down. */
export function spanInWords(ms: number): string {
  const abs = Math.abs(ms);
  const [n, unit] =
    abs >= DAY_MS
      ? [Math.floor(abs / DAY_MS), "day"]
      : abs >= HOUR_MS
        ? [Math.floor(abs / HOUR_MS), "hour"]
        : [Math.max(1, Math.floor(abs / 60_000)), "minute"];
  return plural(n, unit);
}

/** The token's phase at `now`. */
export function tokenPhase(expiresAt: string | undefined, now: Date): TokenPhase {
  const at = expiresAt ? Date.parse(expiresAt) : Number.NaN;
  if (Number.isNaN(at)) return "lasting";
  const left = at - now.getTime();
  if (left > REFRESH_WITHIN_MS) return "valid";
  if (left > 0) return "refresh-due";
  return -left <= RENEW_WINDOW_MS ? "renewable" : "expired";
}

/** The token's life in words at `now`: when it expires, and the rule that renews it. */
export function tokenLife(t: TokenFacts, now: Date): TokenLife {
  const phase = tokenPhase(t.expiresAt, now);
  const at = t.expiresAt ? Date.parse(t.expiresAt) : Number.NaN;
  // A minute of slack, so a token issued a moment ago (expiries come to the second) reads
  // "30 days", not "29".
  const left = at - now.getTime();
  const span = Number.isNaN(at) ? "" : spanInWords(left > 0 ? left + 60_000 : left);
  if (phase === "lasting") {
    return {
      phase,
      headline: "does not expire",
      rule:
        t.kind === "personal"
          ? "A personal access token lasts until it is replaced in the Developer Dashboard."
          : "The service gave this token no expiry.",
    };
  }
  const headline = phase === "valid" || phase === "refresh-due" ? `expires in ${span}` : `expired ${span} ago`;
  const renewableUntil = new Date(at + RENEW_WINDOW_MS).toISOString();
  return {
    phase,
    headline,
    rule: refreshRule(t, phase),
    ...(phase === "renewable" || phase === "expired" ? { renewableUntil } : {}),
  };
}

function refreshRule(t: TokenFacts, phase: TokenPhase): string {
  const life = "Access tokens last 30 days";
  if (t.fromEnvironment) return `${life}; one from BACKROOM_ACCESS_TOKEN is used as given, never renewed here.`;
  if (phase === "expired") return `${life}; this one expired more than 15 days ago and can no longer be renewed.`;
  if (phase === "renewable" && !t.hasRefreshToken) {
    return `${life}; an expired one can still be renewed (deprecated RenewToken) within 15 days of expiring.`;
  }
  if (t.hasRefreshToken) {
    return `${life}; backroom refreshes this one on its first call once fewer than 7 days are left.`;
  }
  return `${life}; this one has no refresh token, so sign in again before it runs out.`;
}

/** What renewing needs besides the token: the application's id and secret. */
export interface RenewMeans {
  applicationId: string | undefined;
  /** Whether the application secret is configured (BACKROOM_CLIENT_SECRET). */
  hasSecret: boolean;
}

/**
 * Why the deprecated renew cannot be used now, or undefined when it can: an OAuth token, expired
 * less than 15 days ago, with the application's id and secret at hand. A token that has not
 * expired is refreshed instead.
 */
export function renewUnavailable(t: TokenFacts, means: RenewMeans, now: Date): Why {
  if (t.fromEnvironment) return "The token comes from BACKROOM_ACCESS_TOKEN; renew it where it was made.";
  if (t.kind !== "oauth") return "Only an OAuth sign-in expires and renews; a personal token lasts until replaced.";
  const phase = tokenPhase(t.expiresAt, now);
  if (phase === "lasting") return "This token does not expire.";
  if (phase === "valid" || phase === "refresh-due") {
    return t.hasRefreshToken
      ? "The token has not expired: refresh it instead."
      : "The token has not expired yet; renewing is for the 15 days after it does.";
  }
  if (phase === "expired") {
    return "The token expired more than 15 days ago; it can no longer be renewed: sign in again.";
  }
  if (!means.applicationId) return "Renewing needs the application id (applicationId in the config file).";
  if (!means.hasSecret)
    return "Renewing needs the application secret: set BACKROOM_CLIENT_SECRET and start backroom again.";
  return undefined;
}

/** Why "refresh now" cannot be used, or undefined when it can. */
export function refreshUnavailable(t: TokenFacts, applicationId: string | undefined): Why {
  if (t.fromEnvironment) return "The token comes from BACKROOM_ACCESS_TOKEN; backroom does not refresh it.";
  if (t.kind !== "oauth") return "A personal access token is not refreshed; it lasts until replaced.";
  if (!t.hasRefreshToken) return "This sign-in has no refresh token: renew it, or sign in again.";
  if (!applicationId) return "Refreshing needs the application id (applicationId in the config file).";
  return undefined;
}

/** One permission backroom asks for, and what it is for. */
export interface ScopeNeed {
  readonly scope: string;
  readonly why: string;
}

/** One permission as the account screen lists it: what needs it, and whether the token has it. */
export interface ScopeLine extends ScopeNeed {
  granted: boolean;
}

/** What the token's permissions come to against what backroom's screens need. */
export interface ScopeReport {
  lines: ScopeLine[];
  missing: string[];
  /** Permissions the token has that backroom never asks for (more than it needs). */
  extra: string[];
  /** The token's permissions are not known (the service was not asked yet). */
  unknown: boolean;
}

/** Each needed permission, granted or missing; `granted` undefined when the token's are not known. */
export function scopeReport(needs: readonly ScopeNeed[], granted: readonly string[] | undefined): ScopeReport {
  const have = new Set(granted ?? []);
  const lines = needs.map((n) => ({ ...n, granted: granted === undefined ? false : have.has(n.scope) }));
  const needed = new Set(needs.map((n) => n.scope));
  return {
    lines,
    missing: granted === undefined ? [] : lines.filter((l) => !l.granted).map((l) => l.scope),
    extra: (granted ?? []).filter((s) => !needed.has(s)),
    unknown: granted === undefined,
  };
}

/** How the sign-in is held, for what signing out does to it. */
export interface SignOutFacts {
  kind: TokenKind | undefined;
  fromEnvironment: boolean;
  /** The demo store's own token. */
  demo: boolean;
  hasSecret: boolean;
  /** Where the sign-in is kept, in words ("OS keychain (service "backroom")"). */
  storage: string;
}

/** Why signing out cannot be done here, or undefined. */
export function signOutUnavailable(f: SignOutFacts, signedIn: boolean): Why {
  if (f.demo) return "The demo store signs itself in; there is nothing to sign out of.";
  if (!signedIn) return "Not signed in.";
  if (f.fromEnvironment) return "The token comes from BACKROOM_ACCESS_TOKEN; unset that variable to sign out.";
  return undefined;
}

/** The question signing out asks: what it will do, said before it is done. */
export function signOutQuestion(f: SignOutFacts): string {
  if (f.kind === "personal") {
    return `Sign out? The personal access token is removed from ${f.storage}; it stays valid until it is replaced in the Developer Dashboard.`;
  }
  if (!f.hasSecret) {
    return `Sign out here only? Without the application secret (BACKROOM_CLIENT_SECRET) the tokens cannot be revoked: they keep working until they expire. The sign-in is removed from ${f.storage}.`;
  }
  return `Sign out and revoke? This revokes every token of this account for backroom's application at the service (every terminal and script signed in with it stops working), and removes the sign-in from ${f.storage}.`;
}
