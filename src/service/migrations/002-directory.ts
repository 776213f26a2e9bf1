/** Locations, team members and their wages. */
export const sql = `
-- filled by the area that owns it
SELECT 1;
`;
