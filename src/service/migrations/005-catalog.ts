/** Catalog objects (items, variations, categories). */
export const sql = `
-- filled by the area that owns it
SELECT 1;
`;
