import { useEffect, useState } from "react";
import { useTheme } from "../theme.js";
import { Txt } from "./Txt.js";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** A spinner with a label, shown while a read is on its way. */
export function Spinner({ label }: { label: string }) {
  const [frame, setFrame] = useState(0);
  const theme = useTheme();
  useEffect(() => {
    const timer = setInterval(() => setFrame((f) => (f + 1) % FRAMES.length), 100);
    return () => clearInterval(timer);
  }, []);
  return (
    <Txt color={theme.accent}>
      {FRAMES[frame]} {label}…
    </Txt>
  );
}
