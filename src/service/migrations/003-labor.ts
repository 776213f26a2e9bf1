/** Break types, shifts, employee wages, workweek configs. */
export const sql = `
-- filled by the area that owns it
SELECT 1;
`;
