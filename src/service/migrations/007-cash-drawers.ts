/** Cash drawer shifts and their events. */
export const sql = `
-- filled by the area that owns it
SELECT 1;
`;
