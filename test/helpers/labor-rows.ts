// Rows the labor repository tests lay out beside their shifts: a location and a team member wage.

/** A location with a time zone and, when given, a currency. */
export const locationRow = (id: string, timezone: string, currency?: string) => ({
  id,
  name: id,
  timezone,
  ...(currency ? { currency: currency as "USD" } : {}),
  created_at: "2024-01-01T00:00:00Z",
});

/** A team member wage at $15.00 an hour, with a job title when given. */
export const wageRow = (id: string, member: string, title?: string) => ({
  id,
  team_member_id: member,
  ...(title ? { title } : {}),
  hourly_rate: { amount: 1500, currency: "USD" as const },
});
