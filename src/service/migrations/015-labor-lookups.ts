/**
 * What a shift write looks up, read off an index alone: the job title of a member's first wage
 * (the default wage of a new shift), and the time zone and currency of the shift's location.
 * Both values live inside the rows' JSON; read from the row, each look-up parses that JSON (a
 * location's is 1.3 KB) and the wage's order needed a sort. SQLite keeps an indexed expression's
 * value in the index, and answers it from there when the query names the same expression.
 */
export const sql = `
-- Replaces the index on (merchant_id, team_member_id, seq): the same order, and its title.
DROP INDEX team_member_wages_by_member;
CREATE INDEX team_member_wages_by_member ON team_member_wages
  (merchant_id, team_member_id, seq, id, data ->> '$.title');

CREATE INDEX locations_zone ON locations (merchant_id, id, timezone, data ->> '$.currency');
`;
