import { customerName } from "../../../domain/customers.js";
import type { DuplicateGroup, DuplicateReason } from "../../../domain/customers-duplicates.js";
import { showPhone } from "../../../domain/phone.js";
import { localDate } from "../../../domain/time.js";
import type { Customer } from "../../../spec/generated/types.js";
import type { Column } from "../../components/columns.js";

/** The mark of a profile with a change kept on this machine, not yet sent. */
export const KEPT_SIGN = "◷";

/** The mark of a profile that shares an email or phone number with another. */
export const DUPLICATE_MARK = "≡";

/** The result list's columns: duplicate mark, name, email, phone, created (narrow terminals drop from the right). */
export function customerColumns(
  marks: ReadonlyMap<string, readonly DuplicateReason[]>,
  timeZone: string,
  country: string | undefined,
  kept: ReadonlySet<string> = new Set(),
): Column<Customer>[] {
  return [
    {
      header: " ",
      width: 1,
      // ◷ first: a change kept on this machine, not yet sent, is what the row shows.
      render: (c) => (c.id && kept.has(c.id) ? KEPT_SIGN : c.id && marks.has(c.id) ? DUPLICATE_MARK : " "),
      color: (_c, theme) => theme.warn,
    },
    { header: "Name", width: 14, flex: 3, render: (c) => customerName(c, country) },
    { header: "Email", width: 16, flex: 4, render: (c) => c.email_address ?? "", drop: 1 },
    {
      header: "Phone",
      width: 15,
      render: (c) => (c.phone_number ? showPhone(c.phone_number, country) : ""),
      drop: 2,
    },
    {
      header: "Created",
      width: 10,
      render: (c) => (c.created_at ? localDate(c.created_at, timeZone) : ""),
      color: (_c, theme) => theme.muted,
      drop: 3,
    },
  ];
}

/** One row of the duplicates view: a group, as one line. */
export interface DuplicateRow {
  group: DuplicateGroup;
}

/** The duplicates view's columns: why, the shared value, how many, who (named as the list names them). */
export const duplicateColumns = (country: string | undefined): Column<DuplicateRow>[] => [
  { header: "Same", width: 5, render: (r) => r.group.reason },
  { header: "Shared value", width: 16, flex: 2, render: (r) => r.group.value },
  { header: "#", width: 3, align: "right", render: (r) => String(r.group.customers.length) },
  {
    header: "Profiles",
    width: 16,
    flex: 3,
    render: (r) => r.group.customers.map((c) => customerName(c, country)).join(", "),
  },
];
