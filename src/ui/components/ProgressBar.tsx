import { Text } from "ink";
import { useTheme } from "../theme.js";
import { Txt } from "./Txt.js";

/** A progress bar; with an unknown total it shows the count so far. */
export function ProgressBar({
  label,
  done,
  total,
  width = 20,
}: {
  label: string;
  done: number;
  total: number;
  width?: number;
}) {
  const theme = useTheme();
  if (total <= 0) {
    return (
      <Txt color={theme.accent}>
        {label}: {done.toLocaleString("en-US")} so far
      </Txt>
    );
  }
  const filled = Math.round((Math.min(done, total) / total) * width);
  return (
    <Text>
      {label} <Txt color={theme.accent}>{"█".repeat(filled)}</Txt>
      {"░".repeat(width - filled)} {done}/{total}
    </Text>
  );
}
