import { Box } from "ink";
import { useLayoutEffect, useRef, useState } from "react";
import { plural } from "../../../domain/plural.js";
import { localDate, localTime } from "../../../domain/time.js";
import { type AccountState, selectedIndex, selectTimeZone, useAppStore, useAppStoreApi } from "../../../state/index.js";
import { fitCell, wrapLines } from "../../components/columns.js";
import { TextField } from "../../components/TextField.js";
import { Txt } from "../../components/Txt.js";
import { WindowedList } from "../../components/WindowedList.js";
import { useHasFocus } from "../../shell.js";
import { type Theme, useTheme } from "../../theme.js";
import type { ScreenProps } from "../screen-def.js";
import { ACCOUNT_LIST, type AccountRow, accountListRows, accountRows, accountViewOf, TOKEN_FIELD } from "./commands.js";
import { accountPage, WHY_AT, wholeRow } from "./page.js";

/** Room for a fact's label, before its value. */
const LABEL = 12;
/** Most lines a fact's value takes; the why of a missing keychain takes four at 60 columns. */
const FACT_LINES = 4;

type FactRow = { label: string; value: string; color?: string | undefined };

function whereText(a: AccountState): string {
  const w = a.setup?.where;
  if (!w) return "—";
  const place =
    w.label === "DEMO"
      ? `DEMO: the demo store in this process (${w.dbPath ?? "memory"})`
      : `${w.label} ${w.baseUrl ?? ""}`;
  const why = w.from === "the config file" && w.configPath ? `the config file (${w.configPath})` : w.from;
  return `${place} · chosen by ${why}`;
}

/** The facts as lines of the screen's width: a value too long for one goes on under its label. */
function factLines(facts: readonly FactRow[], width: number): FactRow[] {
  return facts.flatMap((f) =>
    wrapLines(f.value, Math.max(10, width - LABEL), FACT_LINES).map((value, i) => ({
      label: i === 0 ? f.label : "",
      value,
      color: f.color,
    })),
  );
}

/** A row of the list as text, with where its words start (the lines of a row shown whole go under them). */
function rowText(
  r: AccountRow,
  theme: Theme,
): { text: string; indent: number; color?: string | undefined; bold?: boolean } {
  if (r.kind === "heading") return { text: r.text, indent: 0, bold: true };
  if (r.kind === "scope") {
    // Not known is not missing: the service has not said what the sign-in may do yet.
    if (r.unknown) return { text: `? ${r.scope.padEnd(WHY_AT - 3)} ${r.why}`, indent: WHY_AT, color: theme.muted };
    return {
      text: `${r.granted ? "✓" : "✗"} ${r.scope.padEnd(WHY_AT - 3)} ${r.granted ? "" : "MISSING: "}${r.why}`,
      indent: WHY_AT,
      color: r.granted ? undefined : theme.bad,
    };
  }
  const l = r.location;
  return {
    text: `  ${l.name} · ${l.status || "?"} · ${[l.address, l.timezone].filter(Boolean).join(" · ")}`,
    indent: 2,
  };
}

/**
 * The page's place, kept between renders: the facts scroll off the top as the cursor goes down the
 * list, so that at 60×24 the permissions get the room the facts took.
 */
function usePage(facts: number, rows: readonly AccountRow[], room: number, width: number, theme: Theme) {
  const ids = useAppStore((s) => accountListRows(s).ids);
  const cursor = useAppStore((s) => selectedIndex(s.selection[ACCOUNT_LIST], ids));
  const row = rows[cursor];
  const shown = row ? rowText(row, theme) : undefined;
  const whole = shown ? wholeRow(shown.text, shown.indent, Math.max(1, width - 1)) : [];
  const previous = useRef(0);
  const page = accountPage({
    facts,
    rows: rows.length,
    cursor,
    extra: Math.max(0, whole.length - 1),
    room,
    previous: previous.current,
  });
  useLayoutEffect(() => {
    previous.current = page.offset;
  });
  return { ...page, whole };
}

/**
 * Who is signed in, where, until when: where backroom works and why, the business and its
 * locations, the token (never shown) and where it is kept, its life in words, what the service
 * said of it, each permission with what needs it — and sign in, refresh, renew, sign out.
 */
export function AccountScreen({ height, width }: ScreenProps) {
  const theme = useTheme();
  const a = useAppStore((s) => s.account);
  const rows = useAppStore(accountRows);
  const bottom = a.signIn.step === "browser" ? 4 : a.signIn.step === "token" ? 2 : a.outcome ? 2 : 0;
  const facts = factLines(useFacts(), width);
  const page = usePage(facts.length, rows, Math.max(2, height - 1 - bottom), width, theme);
  if (!a.setup) {
    return (
      <Box flexDirection="column" width={width}>
        <Txt bold>Account</Txt>
        <Txt color={a.outcome ? theme.bad : theme.muted}>{a.outcome?.text ?? "Reading the sign-in…"}</Txt>
      </Box>
    );
  }
  return (
    <Box flexDirection="column" width={width}>
      <Txt bold wrap="truncate-end">
        Account
      </Txt>
      {facts.slice(page.offset).map((f, i) => (
        // Lines repeat ("" labels); their places do not.
        // biome-ignore lint/suspicious/noArrayIndexKey: the facts are a fixed sequence, redrawn whole
        <Txt key={page.offset + i} wrap="truncate-end">
          <Txt color={theme.muted}>{f.label.padEnd(LABEL)}</Txt>
          <Txt color={f.color}>{f.value}</Txt>
        </Txt>
      ))}
      <WindowedList
        items={rows}
        state={page.list}
        height={page.listRows + 1}
        rowKey={(r) => r.id}
        empty={
          a.token?.signedIn ? "Reading the permissions and locations…" : "Sign in to see the permissions and locations."
        }
        renderRow={(r, _i, selected) => {
          const x = rowText(r, theme);
          return (
            // Cut here, not by Ink: a row wider than the room would squeeze out the cursor column.
            // The row under the cursor is shown whole, on as many lines as it takes.
            <Txt color={x.color} bold={x.bold ?? false}>
              {selected ? page.whole.join("\n") : fitCell(x.text, Math.max(1, width - 1)).trimEnd()}
            </Txt>
          );
        }}
      />
      <SignInArea />
    </Box>
  );
}

/** The facts above the list: where, who, the token, its life, what the service said, the permissions. */
function useFacts(): FactRow[] {
  const theme = useTheme();
  const a = useAppStore((s) => s.account);
  const view = useAppStore(accountViewOf);
  const tz = useAppStore(selectTimeZone);
  const t = a.token;
  const business = a.business;
  const signedIn = t?.signedIn === true;
  const expires = t?.expiresAt ? ` (${localDate(t.expiresAt, tz)} ${localTime(t.expiresAt, tz)})` : "";
  const keychain =
    a.setup?.keychain.kind === "keychain"
      ? "works: sign-ins are kept there"
      : `none: ${(a.setup?.keychain.describe ?? "").replace(/^not saved: /, "")}`;
  // The session's reason ends by pointing at `backroom login`; here the keys are b and p.
  const signedOut = `${(t?.reason ?? "Not signed in.").replace(/ ?Run `backroom login` to sign in( again)?\.$/, "")} b or p signs in.`;
  const missing = view.scopes?.missing ?? [];
  // What the service said is about the sign-in of then: once signed out it says nothing.
  const check = signedIn ? a.check : undefined;
  const late = view.life?.phase === "expired" || view.life?.phase === "renewable";
  return [
    { label: "Works on", value: whereText(a) },
    {
      label: "Business",
      value: signedIn
        ? `${business?.name ?? "—"} · merchant ${t?.merchantId || "?"} · ${business ? plural(business.locations.length, "location") : "? locations"}`
        : "— (not signed in)",
    },
    {
      label: "Token",
      value: signedIn
        ? `${t?.kind === "oauth" ? "OAuth" : "personal access"} token ${t?.hint ?? ""} · ${t?.storage}`
        : `not signed in: ${signedOut}`,
      color: signedIn ? undefined : theme.warn,
    },
    { label: "Keychain", value: keychain, color: a.setup?.keychain.kind === "keychain" ? undefined : theme.warn },
    {
      label: "Expires",
      value: view.life ? `${view.life.headline}${expires}` : "—",
      color: late ? theme.bad : undefined,
    },
    {
      label: "",
      value: `${
        view.life?.renewableUntil && view.life.phase === "renewable"
          ? `Renewable until ${localDate(view.life.renewableUntil, tz)} (w, with the application secret). `
          : ""
      }${view.life?.rule ?? ""}`,
      color: theme.muted,
    },
    {
      label: "Service",
      value: check ? `${check.text} (asked at ${localTime(check.at, tz)})` : signedIn ? "not asked yet" : "—",
      color: check ? (check.ok ? theme.good : theme.bad) : theme.muted,
    },
    {
      label: "Permissions",
      value: !view.scopes
        ? "—"
        : missing.length
          ? `${missing.length} missing: ${missing.join(", ")}`
          : view.scopes.unknown
            ? "not known yet"
            : "every one backroom uses is granted",
      color: missing.length ? theme.bad : undefined,
    },
  ];
}

function SignInArea() {
  const theme = useTheme();
  const a = useAppStore((s) => s.account);
  const flow = a.signIn;
  if (flow.step === "browser") {
    return (
      <Box flexDirection="column" height={4} overflow="hidden">
        <Txt color={flow.problem ? theme.bad : theme.accent} wrap="truncate-end">
          {flow.problem ?? "Waiting for the browser… (esc cancels). Open this address, on any machine:"}
        </Txt>
        <Box height={3} overflow="hidden">
          <Txt>{flow.url ?? "…"}</Txt>
        </Box>
      </Box>
    );
  }
  if (flow.step === "token") return <TokenField checking={flow.checking} problem={flow.problem} />;
  if (!a.outcome) return null;
  return (
    <Box height={2} overflow="hidden">
      <Txt color={a.outcome.ok ? theme.good : theme.bad}>{a.outcome.text}</Txt>
    </Box>
  );
}

/**
 * The personal access token, typed or pasted into a field that shows only •. What was typed lives
 * in this component alone (never in the store), and goes when the field closes.
 */
function TokenField({ checking, problem }: { checking: boolean; problem: string | undefined }) {
  const theme = useTheme();
  const store = useAppStoreApi();
  const typing = useHasFocus(TOKEN_FIELD);
  const [token, setToken] = useState("");
  return (
    <Box flexDirection="column">
      <Box height={1} overflow="hidden">
        <Txt color={theme.accent}>Personal access token: </Txt>
        <TextField
          value={token}
          focus={typing && !checking}
          mask="•"
          maxLength={4096}
          onChange={setToken}
          onSubmit={(v) => void store.getState().accountSignInToken(v)}
        />
      </Box>
      <Txt color={problem ? theme.bad : theme.muted} wrap="truncate-end">
        {checking
          ? "Asking the service about the token…"
          : (problem ??
            // The field is one line: a long token's end is out of sight, so its length is said here.
            `${token === "" ? "Typed or pasted" : plural(token.length, "character")}, shown as •; enter checks it with the service; esc cancels.`)}
      </Txt>
    </Box>
  );
}
