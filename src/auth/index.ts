// The sign-in module's public face for the app shell, the state layer and the commands.
export {
  type OpenedSession,
  openSession,
  type SessionDeps,
  type SessionTarget,
} from "./command-context.js";
export {
  type BackroomConfig,
  ConfigError,
  configPath,
  ENVIRONMENT_NAMES,
  ENVIRONMENT_URLS,
  type Environment,
  loadConfig,
  saveConfig,
} from "./config.js";
export { type Connection, connect, type LocalCredentials, sessionForLocal } from "./connect.js";
export { maskToken, redact } from "./mask.js";
export {
  AuthorizeError,
  buildAuthorizeUrl,
  createPkcePair,
  newState,
  startLoopbackListener,
} from "./oauth-flow.js";
export {
  adoptTokenStatus,
  type Clock,
  createSession,
  type OAuthApi,
  RenewableExpiryError,
  RenewWindowError,
  type Session,
  type SessionState,
  type SessionStatus,
  SignedOutError,
  tokensFromObtain,
} from "./session.js";
export { type BrowserSignIn, checkPersonalToken, personalTokens, signInWithBrowser } from "./sign-in.js";
export {
  createTokenStore,
  KEYCHAIN_SERVICE,
  type KeytarLike,
  loadKeytar,
  openTokenStore,
  probeKeychain,
  type StoredTokens,
  type TokenStore,
} from "./token-store.js";
