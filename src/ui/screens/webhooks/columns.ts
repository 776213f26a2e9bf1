import type { WebhookSubscription } from "../../../spec/generated/types.js";
import type { Column } from "../../components/columns.js";

/** The subscriptions list; on a narrow terminal the version, then the count of types, go first. */
export const SUBSCRIPTION_COLUMNS: Column<WebhookSubscription>[] = [
  { header: "Name", width: 12, flex: 1, render: (s) => s.name || "(no name)" },
  {
    header: "On",
    width: 3,
    render: (s) => (s.enabled === false ? "no" : "yes"),
    color: (s, t) => (s.enabled === false ? t.muted : t.good),
  },
  { header: "URL", width: 16, flex: 2, render: (s) => s.notification_url ?? "" },
  { header: "Version", width: 10, drop: 2, render: (s) => s.api_version ?? "" },
  { header: "Types", width: 5, align: "right", drop: 1, render: (s) => String(s.event_types?.length ?? 0) },
];
