/** Webhook subscriptions, events and delivery attempts. */
export const sql = `
-- filled by the area that owns it
SELECT 1;
`;
