/** Payouts and payout entries. */
export const sql = `
-- filled by the area that owns it
SELECT 1;
`;
