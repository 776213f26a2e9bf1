import { Table } from "@alcalzone/ink-table";
import { Text } from "ink";
import type { ReactNode } from "react";
import { useTheme } from "../theme.js";

/** One row of a static table: column name → what the cell shows. */
export type TableRow = Record<string, string | number | undefined>;

/**
 * A bounded, static table (a reconciliation, a summary, one record's entries), drawn by
 * ink-table with borders. Not for long or selectable lists: those use {@link ColumnList}.
 */
export function StaticTable<Row extends TableRow>({
  data,
  columns,
  align,
}: {
  data: Row[];
  columns?: (keyof Row & string)[];
  /** Columns aligned right (amounts). */
  align?: Partial<Record<keyof Row & string, "left" | "right">>;
}) {
  const theme = useTheme();
  const keys = columns ?? (Object.keys(data[0] ?? {}) as (keyof Row & string)[]);
  const Header = ({ children }: { children?: ReactNode }) => (
    <Text bold {...(theme.accent ? { color: theme.accent } : {})}>
      {children}
    </Text>
  );
  return (
    <Table<Row> data={data} columns={keys.map((key) => ({ key, align: align?.[key] ?? "left" }))} header={Header} />
  );
}
