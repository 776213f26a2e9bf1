import { Box } from "ink";
import { useState } from "react";
import { type Question, useAppStoreApi } from "../../state/index.js";
import { useKeys } from "../keyboard.js";
import { useTheme } from "../theme.js";
import { wrapLines } from "./columns.js";
import { Txt } from "./Txt.js";

/** Which answer enter gives: no for anything destructive or irreversible, yes otherwise. */
export function defaultAnswer(question: Pick<Question, "risky">): "yes" | "no" {
  return question.risky ? "no" : "yes";
}

/** The line under the question that says what each key answers. */
export function answerKeysText(
  question: Pick<Question, "risky" | "reversible" | "onNeither">,
  highlighted: "yes" | "no",
): string {
  const enter = `enter: ${highlighted}`;
  const keys = question.onNeither ? "y: yes · n: no · esc: neither" : "y: yes · n / esc: no";
  return question.risky && highlighted === "no"
    ? `${keys} · ${enter} (${question.reversible ? "to be sure" : "this cannot be undone"})`
    : `${keys} · ${enter} · ←/→ choose`;
}

/**
 * The one confirmation of the app: `y` yes, `n` or `esc` no (esc neither, for a question that
 * chooses between two things to do), `enter` the highlighted answer —
 * *no* at first for anything destructive or irreversible, and the prompt says so; ←/→ move the
 * highlight. It takes every key while open (nothing behind it runs); after any answer it closes
 * and the keys go back where they were.
 */
export function Confirm({ question, width }: { question: Question; width: number }) {
  const theme = useTheme();
  const store = useAppStoreApi();
  const [highlighted, setHighlighted] = useState<"yes" | "no">(defaultAnswer(question));
  // A key that answers nothing (q, a number key) is said here, never dropped silently.
  const [idle, setIdle] = useState<string | undefined>(undefined);
  useKeys(
    (input, key) => {
      const answer = (yes: boolean | undefined) => store.getState().answer(yes);
      if (input === "y" || input === "Y") answer(true);
      else if (input === "n" || input === "N") answer(false);
      else if (key.escape) answer(undefined);
      else if (key.return) answer(highlighted === "yes");
      else if (key.leftArrow || key.rightArrow || key.tab || input === "h" || input === "l")
        setHighlighted((h) => (h === "yes" ? "no" : "yes"));
      else if (input.length === 1 && input >= " ") setIdle(input);
      return true;
    },
    { isActive: true },
  );
  const inner = Math.min(width, 100) - 4;
  const button = (which: "yes" | "no", text: string) => {
    const on = highlighted === which;
    return (
      <Txt
        inverse={on}
        bold={on}
        color={on ? (which === "yes" && question.risky ? theme.bad : theme.accent) : undefined}
      >
        {` ${text} `}
      </Txt>
    );
  };
  return (
    <Box
      flexDirection="column"
      borderStyle="round"
      borderColor={question.risky ? (theme.warn ?? "white") : (theme.accent ?? "white")}
      paddingX={1}
      width={Math.min(width, 100)}
      flexShrink={0}
    >
      {wrapLines(question.message, inner).map((line) => (
        <Txt key={line}>{line}</Txt>
      ))}
      <Box gap={2}>
        {button("yes", question.yes ?? "Yes")}
        {button("no", question.no ?? "No")}
      </Box>
      {wrapLines(answerKeysText(question, highlighted), inner).map((line) => (
        <Txt key={line} color={theme.muted}>
          {line}
        </Txt>
      ))}
      {idle
        ? wrapLines(`“${idle}” does nothing here: answer the question first (y, n or esc).`, inner).map((line) => (
            <Txt key={line} color={theme.warn}>
              {line}
            </Txt>
          ))
        : null}
    </Box>
  );
}
