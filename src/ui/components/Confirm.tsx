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
 * What a key that answers nothing is told, in place of silence: `q` that it quits once the
 * question is answered, any other printable key which keys answer; undefined for keys that are
 * not typed characters (they do nothing, as the arrows of a list would).
 */
export function notAnAnswerText(input: string, question: Pick<Question, "onNeither">): string | undefined {
  if (!/^[\p{L}\p{N}\p{P}\p{S}]$/u.test(input)) return undefined;
  const keys = question.onNeither ? "y yes, n no, esc neither" : "y yes, n or esc no";
  return input === "q"
    ? `q quits once the question is answered: ${keys}.`
    : `${input} does not answer the question: ${keys}.`;
}

/**
 * The one confirmation of the app: `y` yes, `n` or `esc` no (esc neither, for a question that
 * chooses between two things to do), `enter` the highlighted answer —
 * *no* at first for anything destructive or irreversible, and the prompt says so; ←/→ move the
 * highlight. It takes every key while open (nothing behind it runs; any other typed key is told,
 * in the box, which keys answer); after any answer it closes and the keys go back where they were.
 */
export function Confirm({ question, width }: { question: Question; width: number }) {
  const theme = useTheme();
  const store = useAppStoreApi();
  const [highlighted, setHighlighted] = useState<"yes" | "no">(defaultAnswer(question));
  // A key that answers nothing (q, a number key) is said here, never dropped silently.
  const [nudge, setNudge] = useState<string | undefined>();
  useKeys(
    (input, key) => {
      const answer = (yes: boolean | undefined) => store.getState().answer(yes);
      if (input === "y" || input === "Y") answer(true);
      else if (input === "n" || input === "N") answer(false);
      else if (key.escape) answer(undefined);
      else if (key.return) answer(highlighted === "yes");
      else if (key.leftArrow || key.rightArrow || key.tab || input === "h" || input === "l")
        setHighlighted((h) => (h === "yes" ? "no" : "yes"));
      else if (!key.ctrl && !key.meta) setNudge(notAnAnswerText(input, question) ?? nudge);
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
      {nudge
        ? wrapLines(nudge, inner).map((line) => (
            <Txt key={`nudge ${line}`} color={theme.warn}>
              {line}
            </Txt>
          ))
        : null}
      {wrapLines(answerKeysText(question, highlighted), inner).map((line) => (
        <Txt key={line} color={theme.muted}>
          {line}
        </Txt>
      ))}
    </Box>
  );
}
