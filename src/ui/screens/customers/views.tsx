import { Box } from "ink";
import { useMemo, useState } from "react";
import { cardExpired, cardLabel, customerName } from "../../../domain/customers.js";
import type { FieldDiff } from "../../../domain/customers-profile.js";
import { conflictDiff, conflictSide } from "../../../domain/customers-profile.js";
import { plural } from "../../../domain/plural.js";
import type { Card, Customer, CustomerGroup } from "../../../spec/generated/types.js";
import { selectCountry, useLoadedStore, useLoadedStoreApi } from "../../../state/index.js";
import type { CustomersView } from "../../../state/screens.js";
import { ColumnList, listRows } from "../../components/ColumnList.js";
import type { Column } from "../../components/columns.js";
import { Txt } from "../../components/Txt.js";
import { useWidgetList } from "../../components/use-list.js";
import { useKeys } from "../../keyboard.js";
import { useHasFocus } from "../../shell.js";
import { useTheme } from "../../theme.js";
import { type DuplicateRow, duplicateColumns } from "./columns.js";

const CHANGE_WORDS: Record<FieldDiff["change"], string> = {
  mine: "yours",
  theirs: "theirs",
  "both-same": "same",
  both: "both",
};

/** The conflict's columns: what the manager picks to re-apply, and each side's value. */
function conflictColumns(picked: readonly string[]): Column<FieldDiff>[] {
  return [
    {
      header: "Re-apply",
      width: 8,
      render: (d) =>
        d.change === "theirs" ? "" : d.change === "both-same" ? "same" : picked.includes(d.field) ? "[x]" : "[ ]",
    },
    { header: "Field", width: 12, render: (d) => d.label },
    { header: "Was", width: 6, flex: 1, render: (d) => d.base || "—", color: (_d, t) => t.muted, drop: 1 },
    { header: "Yours", width: 8, flex: 1, render: (d) => conflictSide(d, "mine") },
    {
      header: "Theirs now",
      width: 8,
      flex: 1,
      render: (d) => conflictSide(d, "theirs"),
      color: (d, t) => (d.change === "both" ? t.warn : undefined),
    },
    { header: "Changed by", width: 10, render: (d) => CHANGE_WORDS[d.change], drop: 2 },
  ];
}

/**
 * A version conflict side by side: every field someone changed since the form was opened, the
 * value then, the manager's and the colleague's. Space picks which of the manager's changes to
 * re-apply on the new version; enter sends them; e opens them in the form first; esc keeps theirs.
 */
export function ConflictView({
  view,
  height,
  width,
}: {
  view: Extract<CustomersView, { kind: "conflict" }>;
  height: number;
  width: number;
}) {
  const theme = useTheme();
  const store = useLoadedStoreApi();
  const s = () => store.getState();
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const country = useLoadedStore(selectCountry);
  const diff = conflictDiff(view.base, view.mine, view.theirs, country);
  const listHeight = Math.max(3, height - 4);
  const [list, onList] = useWidgetList(diff.length, listRows(listHeight));
  useKeys(
    (input, key) => {
      if (onList(input, key)) return true;
      const d = diff[list.cursor];
      if (key.escape) {
        s().customersOpenView({ kind: "list" });
        s().setStatus({
          kind: "info",
          text: `Kept ${customerName(view.theirs, country)} as the other change left it.`,
        });
      } else if (input === " " && d && d.change !== "theirs" && d.change !== "both-same")
        s().customersTogglePick(d.field);
      else if (key.return) {
        setProblem(undefined);
        void s()
          .customersReapply()
          .then((p) => setProblem(p));
      } else if (input === "e") s().customersReapplyInForm();
      else return false;
      return true;
    },
    { isActive: useHasFocus("conflict") },
  );
  const columns = conflictColumns(view.picked);
  return (
    <Box flexDirection="column" width={width}>
      <Txt color={theme.warn} wrap="truncate-end">
        {`Someone else changed ${customerName(view.theirs, country)} first: version ${view.base.version ?? 0} → ${view.theirs.version ?? 0}.`}
      </Txt>
      <Txt color={theme.muted} wrap="truncate-end">
        Your changes are not saved yet. Pick what of yours to re-apply on their version; the rest stays theirs.
      </Txt>
      <ColumnList
        columns={columns}
        rows={diff}
        state={list}
        height={listHeight}
        width={width}
        rowKey={(d) => d.field}
        empty="No field differs."
      />
      {problem ? (
        <Txt color={theme.bad} wrap="truncate-end">
          ! {problem}
        </Txt>
      ) : (
        <Txt color={theme.muted} wrap="truncate-end">
          space pick · enter re-apply and save · e change in the form first · esc keep theirs
        </Txt>
      )}
    </Box>
  );
}

/** The customer's group memberships, picked from the service's groups: space or enter adds or removes. */
export function GroupsView({
  customer,
  groups,
  height,
  width,
}: {
  customer: Customer;
  groups: readonly CustomerGroup[];
  height: number;
  width: number;
}) {
  const theme = useTheme();
  const store = useLoadedStoreApi();
  const s = () => store.getState();
  const loaded = useLoadedStore((st) => st.customers.groupsLoaded);
  const listHeight = Math.max(3, height - 3);
  const [list, onList] = useWidgetList(groups.length, listRows(listHeight));
  const country = useLoadedStore(selectCountry);
  const member = (g: CustomerGroup) => Boolean(g.id && customer.group_ids?.includes(g.id));
  useKeys(
    (input, key) => {
      if (onList(input, key)) return true;
      const g = groups[list.cursor];
      if (key.escape) s().customersOpenView({ kind: "list" });
      else if (input === " " || key.return) {
        if (s().readOnly) s().setStatus({ kind: "rule", text: "Read-only mode: changes are disabled." });
        else if (g?.id && customer.id) void s().customersSetMembership(customer.id, g.id, !member(g));
      } else return false;
      return true;
    },
    { isActive: useHasFocus("groups") },
  );
  const columns: Column<CustomerGroup>[] = [
    { header: "In", width: 3, render: (g) => (member(g) ? "[x]" : "[ ]") },
    { header: "Group", width: 12, flex: 1, render: (g) => g.name },
  ];
  return (
    <Box flexDirection="column" width={width}>
      <Txt bold wrap="truncate-end">{`Groups of ${customerName(customer, country)}`}</Txt>
      <ColumnList
        columns={columns}
        rows={groups}
        state={list}
        height={listHeight}
        width={width}
        rowKey={(g) => g.id ?? g.name}
        empty={loaded ? "The seller has no customer groups; they are made in the Square Dashboard." : "Loading groups…"}
      />
      <Txt color={theme.muted} wrap="truncate-end">
        space/enter add or remove · esc back · groups themselves are made in the Square Dashboard
      </Txt>
    </Box>
  );
}

/**
 * Cards on file (a deprecated interface): brand, last 4, expiry; x removes one after a question.
 * Adding one needs a card nonce from a payment form, which this terminal does not have.
 */
export function CardsView({
  customer,
  now,
  height,
  width,
}: {
  customer: Customer;
  now: Date;
  height: number;
  width: number;
}) {
  const theme = useTheme();
  const store = useLoadedStoreApi();
  const s = () => store.getState();
  const cards = customer.cards ?? [];
  const country = useLoadedStore(selectCountry);
  const [explain, setExplain] = useState(false);
  const listHeight = Math.max(3, height - 4);
  const [list, onList] = useWidgetList(cards.length, listRows(listHeight));
  useKeys(
    (input, key) => {
      if (onList(input, key)) return true;
      const card = cards[list.cursor];
      if (key.escape) s().customersOpenView({ kind: "list" });
      else if (input === "x") {
        if (s().readOnly) s().setStatus({ kind: "rule", text: "Read-only mode: changes are disabled." });
        else if (!card?.id || !customer.id) s().setStatus({ kind: "rule", text: "No card on file to remove." });
        else {
          const customerId = customer.id;
          const cardId = card.id;
          s().ask({
            message: `Remove ${cardLabel(card, now)} from ${customerName(customer, country)}? It can only be added back from a payment form.`,
            risky: true,
            yes: "Remove",
            onYes: () => s().customersRemoveCard(customerId, cardId),
          });
        }
      } else if (input === "a") setExplain(true);
      else return false;
      return true;
    },
    { isActive: useHasFocus("cards") },
  );
  const columns: Column<Card>[] = [
    { header: "Card", width: 20, flex: 1, render: (c) => cardLabel(c, now) },
    { header: "Holder", width: 12, render: (c) => c.cardholder_name ?? "", drop: 1 },
    {
      header: "",
      width: 7,
      render: (c) => (cardExpired(c, now) ? "expired" : ""),
      color: (_c, t) => t.warn,
    },
  ];
  return (
    <Box flexDirection="column" width={width}>
      <Txt bold wrap="truncate-end">{`Cards on file for ${customerName(customer, country)}`}</Txt>
      <ColumnList
        columns={columns}
        rows={cards}
        state={list}
        height={listHeight}
        width={width}
        rowKey={(c) => c.id ?? ""}
        empty="No card on file."
      />
      <Txt color={explain ? theme.warn : theme.muted} wrap="wrap">
        {explain
          ? "Adding a card needs a card nonce from Square's payment form (Web Payments SDK) or a reader: the card number never reaches backroom, so it cannot add one here."
          : "x remove · a how to add one · esc back · cards on file use a deprecated interface"}
      </Txt>
    </Box>
  );
}

/**
 * Groups of profiles that share an email or a phone number, read from the current search (and so,
 * without a query or filter, the whole directory), page by page. Read-only: the interface has no
 * merge.
 */
export function DuplicatesView({ height, width }: { height: number; width: number }) {
  const theme = useTheme();
  const store = useLoadedStoreApi();
  const s = () => store.getState();
  const scan = useLoadedStore((st) => st.customers.scan);
  const country = useLoadedStore(selectCountry);
  const columns = useMemo(() => duplicateColumns(country), [country]);
  const rows: DuplicateRow[] = scan.groups.map((group) => ({ group }));
  const listHeight = Math.max(3, height - 3);
  const [list, onList] = useWidgetList(rows.length, listRows(listHeight));
  useKeys(
    (input, key) => {
      if (onList(input, key)) return true;
      if (!key.escape) return false;
      s().customersStopScan();
      s().customersOpenView({ kind: "list" });
      return true;
    },
    { isActive: useHasFocus("duplicates") },
  );
  const of = scan.total === undefined ? "" : ` of ${scan.total.toLocaleString("en-US")}`;
  const status =
    scan.phase === "scanning"
      ? `Reading profiles: ${scan.scanned.toLocaleString("en-US")}${of}… esc stops`
      : scan.phase === "failed"
        ? `The service stopped answering after ${plural(scan.scanned, "profile")}.`
        : `${plural(scan.groups.length, "group")} among ${plural(scan.scanned, "profile")}${scan.phase === "stopped" ? " (stopped early)" : ""}.`;
  return (
    <Box flexDirection="column" width={width}>
      <Txt wrap="truncate-end">
        <Txt bold>Possible duplicates</Txt>
        <Txt color={theme.muted}> {status}</Txt>
      </Txt>
      <ColumnList
        columns={columns}
        rows={rows}
        state={list}
        height={listHeight}
        width={width}
        rowKey={(r) => `${r.group.reason}:${r.group.key}`}
        empty={scan.phase === "scanning" ? "Reading…" : "No two profiles share an email or phone number."}
      />
      <Txt color={theme.muted} wrap="truncate-end">
        Read-only: the interface has no merge; merge profiles in the Square Dashboard. esc back
      </Txt>
    </Box>
  );
}
