import type { SeedContext } from "../seed/context.js";
import { DEMO } from "../seed/demo-ids.js";
import { saveSubscription } from "./repo.js";

/**
 * Seeds the demo application's webhook subscriptions. Both are disabled: an enabled one would
 * send real requests to a host the user does not run. The user adds their own receiver.
 */
export function seedWebhooks(s: SeedContext): void {
  const at = (daysAgo: number) => new Date(s.now.getTime() - daysAgo * 86_400_000).toISOString();
  const subs = [
    {
      name: "Stock sync (retired)",
      eventTypes: ["inventory.count.updated"],
      url: "https://sync.example.com/square/inventory",
      daysAgo: 210,
    },
    {
      name: "Payroll export",
      eventTypes: ["labor.shift.created", "labor.shift.updated", "labor.shift.deleted"],
      url: "https://payroll.example.com/hooks/square",
      daysAgo: 95,
    },
  ];
  for (const x of subs) {
    saveSubscription(s.db, {
      id: `wbhk_${s.ids.next(32).toLowerCase()}`,
      clientId: DEMO.clientId,
      ownerMerchantId: s.merchantId,
      enabled: false,
      eventTypes: x.eventTypes,
      notificationUrl: x.url,
      apiVersion: "2024-01-18",
      signatureKey: s.ids.next(22),
      name: x.name,
      createdAt: at(x.daysAgo),
      updatedAt: at(x.daysAgo - 3),
    });
  }
}
