/** V1 payments, refunds, settlements and orders. */
export const sql = `
-- filled by the area that owns it
SELECT 1;
`;
