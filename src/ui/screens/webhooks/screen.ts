import { moveFromField } from "../../commands.js";
import { focusedField, formPlace, listPlace } from "../../focus.js";
import { defineLoadedScreenBody } from "../screen-def.js";
import { FILTER_FIELD, reloadWebhooks, WEBHOOK_MOVES, WEBHOOKS_COMMANDS, webhookRows } from "./commands.js";
import { WebhooksScreen } from "./WebhooksScreen.js";

/** The Webhooks screen's module, loaded on first use (src/ui/screens/registry.ts). */
export const WEBHOOKS = defineLoadedScreenBody({
  component: WebhooksScreen,
  commands: WEBHOOKS_COMMANDS,
  focus: (s) => {
    if (s.webhooks.form?.step === "fields") return formPlace("subscription");
    const filter = { onKey: moveFromField(WEBHOOK_MOVES) };
    return focusedField(s, "webhooks", FILTER_FIELD, filter) ?? listPlace(webhookRows(s)?.list ?? "webhooks");
  },
  fields: { [FILTER_FIELD]: "filter" },
  reload: reloadWebhooks,
  onShow: (s) => s.loadWebhooks(),
  // Changes made elsewhere (another terminal, the dashboard) show up; never over an open form, a
  // test being chosen, or a key shown once.
  refresh: (s) => {
    const w = s.webhooks;
    return w.form || w.testPick || w.revealed ? undefined : s.loadWebhooks({ quiet: true });
  },
  refreshSeconds: 30,
  help: "Subscriptions belong to the application, not to one seller: on the real service they are managed with the application's personal access token (backroom login --token). `backroom webhooks listen` receives and verifies the events on this machine.",
});
