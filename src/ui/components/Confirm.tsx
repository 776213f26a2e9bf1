import { Box } from "ink";
import { useRef, useState } from "react";
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
export function answerKeysText(question: Pick<Question, "risky" | "reversible">, highlighted: "yes" | "no"): string {
  const enter = `enter: ${highlighted}`;
  return question.risky && highlighted === "no"
    ? `y: yes · n / esc: no · ${enter} (${question.reversible ? "to be sure" : "this cannot be undone"})`
    : `y: yes · n / esc: no · ${enter} · ←/→ choose`;
}

/** What a key that answers nothing says while a question is open (q is the one people try). */
export function otherKeyText(input: string): string {
  return input === "q" || input === "Q"
    ? "Answer the question first (y yes, n or esc no); then q quits."
    : "Answer the question first: y yes, n or esc no.";
}

/**
 * The one confirmation of the app: `y` yes, `n` or `esc` no, `enter` the highlighted answer —
 * *no* at first for anything destructive or irreversible, and the prompt says so; ←/→ move the
 * highlight. It takes every key while open (nothing behind it runs; any other key says so in
 * the status line); after any answer it closes and the keys go back where they were.
 */
export function Confirm({ question, width }: { question: Question; width: number }) {
  const theme = useTheme();
  const store = useAppStoreApi();
  const [highlighted, setHighlighted] = useState<"yes" | "no">(defaultAnswer(question));
  const nagged = useRef(false);
  useKeys(
    (input, key) => {
      const answer = (yes: boolean) => {
        // The "answer the question first" line goes with the question; what the answer does may say more.
        if (nagged.current) store.getState().setStatus({ kind: "idle" });
        store.getState().answer(yes);
      };
      if (input === "y" || input === "Y") answer(true);
      else if (input === "n" || input === "N" || key.escape) answer(false);
      else if (key.return) answer(highlighted === "yes");
      else if (key.leftArrow || key.rightArrow || key.tab || input === "h" || input === "l")
        setHighlighted((h) => (h === "yes" ? "no" : "yes"));
      else {
        nagged.current = true;
        store.getState().setStatus({ kind: "rule", text: otherKeyText(input) });
      }
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
    </Box>
  );
}
