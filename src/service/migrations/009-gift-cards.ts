/** Gift cards and gift card activities. */
export const sql = `
-- filled by the area that owns it
SELECT 1;
`;
