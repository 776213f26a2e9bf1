/** Customers, groups, memberships and cards. */
export const sql = `
-- filled by the area that owns it
SELECT 1;
`;
