import { listPlace } from "../../focus.js";
import { defineScreenBody } from "../screen-def.js";
import { AccountScreen } from "./AccountScreen.js";
import { ACCOUNT_COMMANDS, ACCOUNT_LIST, TOKEN_FIELD } from "./commands.js";

/** The Account screen's module, loaded on first use (src/ui/screens/registry.ts). */
export const ACCOUNT = defineScreenBody({
  component: AccountScreen,
  commands: ACCOUNT_COMMANDS,
  focus: (s) =>
    s.field.account === TOKEN_FIELD && s.account.signIn.step === "token"
      ? // A masked field: esc closes it and forgets what was typed (a token is not kept half-typed).
        { kind: "field", name: TOKEN_FIELD, leave: (st) => st.accountCancelSignIn() }
      : listPlace(ACCOUNT_LIST),
  // The token field is not listed in `fields`: it shows only •, so the shell's field test (which
  // reads the typed text back) cannot apply; test/ui-account.test.tsx covers its esc and keys.
  // It takes no scans: a password manager's auto-type (the token and Enter, faster than a person)
  // into the token field is typed text and Enter (src/ui/focus.ts), and signs in.
  reload: (s) => s.loadAccount(),
  onShow: (s) => s.loadAccount({ quiet: true }),
  help: "Tokens are never shown: only their last four characters. OAuth access tokens last 30 days and backroom refreshes one in its last week; an expired one can be renewed (deprecated RenewToken, with BACKROOM_CLIENT_SECRET) for 15 days. Signing out revokes every token of the account for the application when the secret is set.",
});
