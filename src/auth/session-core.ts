// What every part of a session shares: the current sign-in and who listens to it, the token's
// expiry rules, messages with the secrets taken out, and signing out (the store forgets it too).
import { RENEW_WINDOW_MS } from "../domain/account.js";
import { SquareApiError } from "../square/index.js";
import { redact } from "./mask.js";
import type { Clock, SessionOptions, SessionState, TokenSource } from "./session-types.js";
import { SignedOutError } from "./session-types.js";
import type { StoredTokens } from "./token-store.js";

/** When a token expires, in epoch ms (never: infinity). */
export const expiresAt = (t: StoredTokens): number =>
  t.expires_at ? Date.parse(t.expires_at) : Number.POSITIVE_INFINITY;

/** The sign-in one session holds, shared by its parts. */
export class SessionCore {
  readonly clock: Clock;
  state: SessionState = { status: "signed-out", reason: `Not signed in. Run \`backroom login\` to sign in.` };
  private readonly listeners = new Set<(state: SessionState) => void>();

  constructor(readonly opts: SessionOptions) {
    this.clock = opts.clock ?? Date;
  }

  /** Makes a new state current and tells every listener. */
  set(next: SessionState): void {
    this.state = next;
    for (const l of this.listeners) l(next);
  }

  /** Adds a listener of the state; returns how to remove it. */
  subscribe(listener: (state: SessionState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The tokens signed in with, or null. */
  tokens(): StoredTokens | null {
    return this.state.status === "signed-in" ? this.state.tokens : null;
  }

  /** Where the current sign-in came from, when signed in. */
  source(): TokenSource | undefined {
    return this.state.status === "signed-in" ? this.state.source : undefined;
  }

  /** The error of a call made signed out, saying why. */
  signedOut(fallback = "Not signed in."): SignedOutError {
    return new SignedOutError(this.state.status === "signed-out" ? this.state.reason : fallback);
  }

  /** An expired OAuth token without a refresh token that RenewToken still accepts. */
  renewable(t: StoredTokens): boolean {
    return (
      t.kind === "oauth" &&
      !t.refresh_token &&
      this.source() !== "env" &&
      this.clock.now() - expiresAt(t) <= RENEW_WINDOW_MS
    );
  }

  /** Why an expired OAuth token is not kept for the deprecated renew: its 15 days are over. */
  tooLate(t: StoredTokens): string {
    return t.kind === "oauth" && this.clock.now() - expiresAt(t) > RENEW_WINDOW_MS
      ? ", more than 15 days ago (too late to renew)"
      : "";
  }

  /** A failure in words, with every token and secret this session knows taken out. */
  describe(err: unknown): string {
    const text =
      err instanceof SquareApiError
        ? `${err.code}${err.errors[0]?.detail ? `: ${err.errors[0].detail}` : ""}`
        : err instanceof Error
          ? err.message
          : String(err);
    const t = this.tokens();
    return redact(text, [t?.access_token, t?.refresh_token, this.opts.envToken, this.opts.clientSecret]);
  }

  /** Forgets the sign-in locally; `reason` is what the user is told. */
  async signOut(reason: string): Promise<void> {
    const t = this.tokens();
    const source = this.source();
    this.set({ status: "signed-out", reason });
    if (t && (source === "keychain" || source === "memory")) {
      try {
        await this.opts.store.remove(t.environment, t.merchant_id);
      } catch {
        // The sign-in is already forgotten in this process; a keychain that fails now will be
        // overwritten by the next sign-in.
      }
    }
  }
}
