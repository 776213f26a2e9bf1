import { operations as op } from "../spec/generated/operations.js";
import type * as T from "../spec/generated/types.js";
import type { RequestOptions, Transport } from "./transport.js";

/** OAuth: obtain, renew, revoke and inspect access tokens. */
export function oauthApi(t: Transport) {
  return {
    /** Exchanges an authorization code or a refresh token for tokens; sent without Authorization. */
    obtainToken: (body: T.ObtainTokenRequest, o?: RequestOptions) =>
      t.call<T.ObtainTokenResponse>(op.ObtainToken, { body }, o),
    /**
     * @deprecated Use {@link obtainToken} with `grant_type: "refresh_token"`. Renews an access
     * token with `Authorization: Client <secret>`; a service that has retired it answers
     * 404/410, raised as `SquareRetiredError`.
     */
    renewToken: (clientId: string, body: T.RenewTokenRequest, o?: RequestOptions) =>
      t.call<T.RenewTokenResponse>(op.RenewToken, { path: { client_id: clientId }, body }, o),
    /** Revokes a seller's tokens for this application, with `Authorization: Client <secret>`. */
    revokeToken: (body: T.RevokeTokenRequest, o?: RequestOptions) =>
      t.call<T.RevokeTokenResponse>(op.RevokeToken, { body }, o),
    /** Returns the scopes, expiry and owner of the bearer token in use. */
    retrieveTokenStatus: (o?: RequestOptions) => t.call<T.RetrieveTokenStatusResponse>(op.RetrieveTokenStatus, {}, o),
  };
}
