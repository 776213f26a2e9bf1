import { Box } from "ink";
import {
  addressLine,
  birthdayText,
  cardExpired,
  cardLabel,
  customerName,
  groupNames,
  sourceLabel,
} from "../../../domain/customers.js";
import type { DuplicateReason } from "../../../domain/customers-duplicates.js";
import { showPhone } from "../../../domain/phone.js";
import { localDate, localTime } from "../../../domain/time.js";
import type { Customer, CustomerGroup } from "../../../spec/generated/types.js";
import { selectCountry, useLoadedStore } from "../../../state/index.js";
import { fitCell } from "../../components/columns.js";
import { Txt } from "../../components/Txt.js";
import { type Theme, useTheme } from "../../theme.js";

/** One line of the profile pane: a label and what it shows. */
interface PaneLine {
  label: string;
  text: string;
  color?: (theme: Theme) => string | undefined;
}

const when = (iso: string | undefined, timeZone: string) =>
  iso ? `${localDate(iso, timeZone)} ${localTime(iso, timeZone)}` : "—";

/** The profile's lines, most useful first: a short pane shows the first ones. */
export function paneLines(
  c: Customer,
  ctx: {
    groups: readonly CustomerGroup[];
    duplicates: readonly DuplicateReason[] | undefined;
    now: Date;
    timeZone: string;
    /** The store's country: its numbers are shown in the national format. */
    country: string | undefined;
  },
): PaneLine[] {
  const cards = c.cards ?? [];
  const lines: PaneLine[] = [
    {
      label: "Name",
      text: [customerName(c, ctx.country), c.nickname ? `(${c.nickname})` : ""].filter(Boolean).join(" "),
    },
    { label: "Company", text: c.company_name ?? "" },
    { label: "Email", text: c.email_address ?? "" },
    { label: "Phone", text: c.phone_number ? showPhone(c.phone_number, ctx.country) : "" },
    { label: "Address", text: addressLine(c) },
    { label: "Reference", text: c.reference_id ?? "" },
    { label: "Birthday", text: birthdayText(c.birthday) },
    { label: "Note", text: c.note ?? "" },
    { label: "Groups", text: groupNames(c.group_ids, ctx.groups).join(", ") || "none" },
    {
      label: "Cards",
      text: cards.length === 0 ? "none on file" : cards.map((card) => cardLabel(card, ctx.now)).join("; "),
      color: (t) => (cards.some((card) => cardExpired(card, ctx.now)) ? t.warn : undefined),
    },
    { label: "Created", text: `${when(c.created_at, ctx.timeZone)} · ${sourceLabel(c.creation_source)}` },
    { label: "Updated", text: `${when(c.updated_at, ctx.timeZone)} · version ${c.version ?? 0}` },
  ];
  if (ctx.duplicates && ctx.duplicates.length > 0) {
    lines.splice(1, 0, {
      label: "Duplicate?",
      text: `shares its ${ctx.duplicates.join(" and ")} with another profile (D lists them)`,
      color: (t) => t.warn,
    });
  }
  return lines.filter((l) => l.text !== "");
}

/** The profile beside (or below) the list: as many lines as fit, each cut to the width. */
export function ProfilePane({
  customer,
  groups,
  duplicates,
  now,
  timeZone,
  width,
  height,
}: {
  customer: Customer | undefined;
  groups: readonly CustomerGroup[];
  duplicates: readonly DuplicateReason[] | undefined;
  now: Date;
  timeZone: string;
  width: number;
  height: number;
}) {
  const theme = useTheme();
  const country = useLoadedStore(selectCountry);
  if (!customer) {
    return (
      <Box flexDirection="column" width={width} height={height}>
        <Txt color={theme.muted}>No profile selected.</Txt>
      </Box>
    );
  }
  const lines = paneLines(customer, { groups, duplicates, now, timeZone, country });
  const labelWidth = 11;
  const room = Math.max(1, width - labelWidth - 1);
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      {lines.slice(0, Math.max(1, height)).map((l) => (
        <Txt key={l.label} wrap="truncate-end">
          <Txt color={theme.muted}>{l.label.padEnd(labelWidth)}</Txt>
          <Txt color={l.color?.(theme)} bold={l.label === "Name"}>
            {fitCell(l.text, room).trimEnd()}
          </Txt>
        </Txt>
      ))}
    </Box>
  );
}
