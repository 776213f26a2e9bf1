import { formPlace, listPlace } from "../../focus.js";
import { defineScreenBody } from "../screen-def.js";
import { OUTBOX_COMMANDS } from "./commands.js";
import { OutboxScreen } from "./OutboxScreen.js";

/** The Kept screen's module, loaded on first use (src/ui/screens/registry.ts). */
export const OUTBOX = defineScreenBody({
  component: OutboxScreen,
  commands: OUTBOX_COMMANDS,
  focus: (s) => (s.outbox.form.kind === "change-time" ? formPlace("change time") : listPlace("kept writes")),
  reload: (s) => s.outboxCheck(),
  onShow: (s) => s.outboxLoad(),
  help: "Changes made while the service did not answer are kept on this machine (the outbox, fsync'd) with their keys, and sent in the order made, once, when it answers again. A change the service then refused waits here, To resolve, with why: send it again at another time or over the newer version, discard it, or open what it is about.",
});
