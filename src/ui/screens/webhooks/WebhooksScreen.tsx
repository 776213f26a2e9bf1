import { Box } from "ink";
import { plural } from "../../../domain/plural.js";
import { useLoadedStore, useLoadedStoreApi, useShallow } from "../../../state/index.js";
import { shownSubscriptions, WEBHOOKS_LIST } from "../../../state/screens.js";
import { ColumnList } from "../../components/ColumnList.js";
import { FilterLine } from "../../components/FilterLine.js";
import { useNotReadText } from "../../components/NotRead.js";
import { Txt } from "../../components/Txt.js";
import { useListWindow } from "../../components/use-list.js";
import { useHasFocus } from "../../shell.js";
import { useTheme } from "../../theme.js";
import type { ScreenProps } from "../screen-def.js";
import { SUBSCRIPTION_COLUMNS } from "./columns.js";
import { FILTER_FIELD, selectedSubscription, subscriptionIds, webhooksView } from "./commands.js";
import { DETAIL_HEIGHT, DetailPane, EventTypePicker, FIELDS_HEIGHT, SubscriptionFields, TestPicker } from "./forms.js";

/**
 * The application's webhook subscriptions: the list (disabled ones when asked), the selected one
 * in full with its last test, the create/edit form and its event-type picker, the test picker.
 */
export function WebhooksScreen({ height, width }: ScreenProps) {
  const view = useLoadedStore(webhooksView);
  const selected = useLoadedStore(selectedSubscription);
  if (view === "events") return <EventTypePicker height={height} />;
  if (view === "test") {
    return (
      <Box flexDirection="column" width={width}>
        <TestPicker sub={selected} height={Math.max(4, height - DETAIL_HEIGHT)} />
        <DetailPane sub={selected} width={width} />
      </Box>
    );
  }
  return (
    <Box flexDirection="column" width={width}>
      <SubscriptionList height={view === "fields" ? Math.max(3, height - FIELDS_HEIGHT) : height} width={width} />
      {view === "fields" ? <SubscriptionFields /> : null}
    </Box>
  );
}

function SubscriptionList({ height, width }: { height: number; width: number }) {
  const theme = useTheme();
  const store = useLoadedStoreApi();
  const { items, loaded, includeDisabled, listFilter } = useLoadedStore(
    useShallow((s) => ({
      items: s.webhooks.items,
      loaded: s.webhooks.loaded,
      includeDisabled: s.webhooks.includeDisabled,
      listFilter: s.webhooks.listFilter,
    })),
  );
  const rows = shownSubscriptions({ items, listFilter });
  const ids = useLoadedStore(subscriptionIds);
  const selected = useLoadedStore(selectedSubscription);
  const typed = useHasFocus(FILTER_FIELD);
  const filterRows = typed || listFilter ? 1 : 0;
  const detail = selected && height >= 12 ? DETAIL_HEIGHT : 0;
  const listHeight = Math.max(3, height - 1 - filterRows - detail);
  const list = useListWindow(WEBHOOKS_LIST, ids, listHeight - 2);
  const disabled = items.filter((i) => i.enabled === false).length;
  const unread = useNotReadText("the subscriptions", "Reading the subscriptions…");
  return (
    <Box flexDirection="column" width={width}>
      <Txt wrap="truncate-end">
        <Txt bold>Webhooks</Txt>
        <Txt color={theme.muted}>
          {" "}
          · {loaded ? plural(items.length, "subscription") : "subscriptions not read yet"}
          {includeDisabled ? ` (${disabled} disabled shown; d hides them)` : " · disabled hidden (d shows them)"}
        </Txt>
      </Txt>
      {filterRows ? (
        <FilterLine
          field={FILTER_FIELD}
          value={listFilter}
          what="name, URL or event type"
          onChange={(text) => store.getState().webhooksDispatch({ type: "list-filter", text })}
          onDone={() => store.getState().focusField("webhooks", undefined)}
        />
      ) : null}
      <ColumnList
        columns={SUBSCRIPTION_COLUMNS}
        rows={rows}
        state={list}
        height={listHeight}
        width={width}
        rowKey={(s) => s.id ?? ""}
        empty={
          !loaded
            ? unread
            : listFilter
              ? `No subscription matches "${listFilter}" (esc clears the filter).`
              : includeDisabled
                ? "No subscriptions: n makes one."
                : "No enabled subscriptions: n makes one, d shows disabled ones."
        }
      />
      {detail ? <DetailPane sub={selected} width={width} /> : null}
    </Box>
  );
}
