// The shell as a manager meets it, driven by keys against the in-process local service.
import { Box } from "ink";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { useAppStore } from "../src/state/index.js";
import { ch, defineCommands } from "../src/ui/commands.js";
import { TextField } from "../src/ui/components/TextField.js";
import { Txt } from "../src/ui/components/Txt.js";
import { listPlace } from "../src/ui/focus.js";
import { SCREENS } from "../src/ui/screens/registry.js";
import { type AnyScreenDef, defineScreen, type ScreenProps } from "../src/ui/screens/screen-def.js";
import { useHasFocus } from "../src/ui/shell.js";
import { type DrivenApp, KEYS, startApp } from "./helpers/app.js";
import { loadedScreens } from "./helpers/screens.js";

let app: DrivenApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

// A tiny screen, registered in one place: the registry list handed to the app. It draws; its
// command table says what its keys do.
const submitted: string[] = [];
function TinyScreen(_props: ScreenProps) {
  const [text, setText] = useState("");
  const said = useAppStore((s) => (s.flags["tiny.hello"] ? "hello" : ""));
  const typing = useHasFocus("code");
  return (
    <Box flexDirection="column">
      <Txt>Tiny screen {said}</Txt>
      <Box>
        <Txt>Code: </Txt>
        <TextField
          value={text}
          focus={typing}
          onChange={setText}
          onSubmit={(v) => {
            submitted.push(v);
            setText("");
          }}
        />
      </Box>
    </Box>
  );
}
const TINY = defineScreen({
  kind: "break-types",
  title: "Tiny",
  key: "9",
  component: TinyScreen,
  commands: defineCommands({
    tinyHello: {
      keys: [ch("h")],
      label: "h",
      description: "say hello from the tiny screen",
      hint: 2,
      run: (s) => s.setFlag("tiny.hello", true),
    },
    type: { keys: [ch("/")], label: "/", description: "type a code", run: (s) => s.focusField("break-types", "code") },
  }),
  focus: (s) =>
    s.field["break-types"] === "code"
      ? { kind: "field", name: "code", leave: (st) => st.focusField("break-types", undefined) }
      : listPlace("tiny"),
  fields: { code: "type" },
});

describe("the screen registry", () => {
  it("puts a newly registered screen in the tabs, the number keys, the palette and the help", async () => {
    app = await startApp({ screens: [SCREENS[0] as AnyScreenDef, TINY] });
    await app.waitFor("1 Time clock  9 Tiny");
    await app.press("9");
    await app.waitFor("Tiny screen");
    await app.press("h");
    await app.waitFor("Tiny screen hello");
    await app.press("?");
    await app.waitFor(/h\s+say hello from the tiny screen/);
    await app.press(KEYS.escape, "1");
    await app.waitFor("Who is here");
    // The palette offers the screen by its name, and runs the tiny screen's command there.
    await app.press(":", "tiny");
    await app.waitFor(/› 9\s+Tiny screen/);
    await app.press(KEYS.enter);
    await app.waitFor((f) => f.includes("Tiny screen") && !f.includes("Who is here"));
    await app.press(":", "hello");
    await app.waitFor(/› h\s+say hello from the tiny screen/);
  });
});

describe("the help", () => {
  const NOTE =
    "A note long enough to need three lines at eighty columns: it says how the screen counts, what it leaves out, how often it reads again, and what r does at once, and then the final words.";

  it("wraps the screen's note whole; where the rows run out it scrolls rather than cuts", async () => {
    const screens = [{ ...TINY, help: NOTE }];
    app = await startApp({ screens, columns: 80, rows: 30 });
    await app.waitFor("Tiny screen");
    await app.press("?");
    const roomy = await app.waitFor("esc or ? closes");
    expect(roomy).toContain("the final words.");
    expect(roomy).toMatch(/h\s+say hello from the tiny screen/);
    expect(roomy).not.toContain("…");
    await app.close();

    // The fewest rows the app runs in: what does not fit scrolls, nothing is cut with `…`.
    app = await startApp({ screens, columns: 80, rows: 16 });
    await app.waitFor("Tiny screen");
    await app.press("?");
    const tight = await app.waitFor(/lines 1–\d+ of \d+ · j\/k g\/G scroll/);
    expect(tight).toMatch(/h\s+say hello from the tiny screen/);
    expect(tight).not.toContain("the final words.");
    await app.press(KEYS.pageDown, KEYS.pageDown, KEYS.pageDown);
    const end = await app.waitFor("the final words.");
    for (const line of end.split("\n")) expect(line).not.toMatch(/\S…\s*│/);
  });
});

describe("keys that arrive together", () => {
  it("a burst of keys in one write is typed in order; editing in the middle works", async () => {
    submitted.length = 0;
    app = await startApp({ screens: [TINY] });
    await app.waitFor("Tiny screen");
    await app.press("/");
    await app.press("012\r");
    await app.waitFor((f) => submitted.length === 1 && f.includes("Code:"));
    expect(submitted).toEqual(["012"]);
    // Type, go left three, insert in the middle, Backspace three times in one chunk.
    await app.press("abcdef", KEYS.left, KEYS.left, KEYS.left, "XYZ");
    await app.waitFor("Code: abcXYZdef");
    await app.press("\u007f\u007f\u007f");
    await app.waitFor("Code: abcdef");
    await app.press("\u0015", "42\r");
    await app.waitFor(() => submitted.length === 2);
    expect(submitted[1]).toBe("42");
  });

  it("a chunk `jjj` moves three rows", async () => {
    app = await startApp();
    const f = await app.waitFor(/› \S/);
    const names = f
      .split("\n")
      .filter((l) => /^[› ] \S/.test(l) && /clocked out|on shift|on break|open since/.test(l))
      .map((l) => l.slice(2, 20).trim());
    expect(names.length).toBeGreaterThan(3);
    await app.press("jjj");
    await app.waitFor(new RegExp(`› ${names[3]}`));
  });
});

describe("the status line and header", () => {
  it("at 80 columns keeps a standing notice on its own row and a long message whole on two rows", async () => {
    app = await startApp({ columns: 80, rows: 24, store: { notice: "No keychain: the sign-in lasts this run only." } });
    await app.waitFor("Who is here");
    app.store.getState().setStatus({
      kind: "error",
      text: "The service refused the request because the shift overlaps another shift of the same team member at another location, which the interface does not allow.",
      details: "BAD_REQUEST · HTTP 400 · CreateShift",
    });
    const f = await app.waitFor((x) => x.includes("⚠ No keychain") && x.includes("✖ The service refused"));
    const lines = f.split("\n");
    const at = lines.findIndex((l) => l.startsWith("✖ The service refused"));
    expect(at).toBeGreaterThan(0);
    // Two rows, broken between words, nothing cut (messageLines cuts only past two rows).
    expect(lines[at]?.trimEnd().endsWith("…")).toBe(false);
    expect(lines[at + 1]).toContain("which the interface does not allow.");
    expect(lines[at + 2]).toContain("⚠ No keychain");
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    // Switching screens clears the message; the notice stays.
    await app.press("2");
    const g = await app.waitFor((x) => x.includes("Workday") && !x.includes("✖"));
    expect(g).toContain("⚠ No keychain");
  });

  it("at 60 columns fits the header on one line with the clock whole", async () => {
    app = await startApp({ columns: 60, rows: 24 });
    const f = await app.waitFor("● online");
    const [top, tabs] = f.split("\n");
    expect(top?.length).toBeLessThanOrEqual(60);
    expect(top).toMatch(/DEMO\s+● online \d\d:\d\d$/);
    expect(tabs).toContain("1 Time clock");
  });

  it("at 60 columns a filter line keeps its / and all that was typed; its hint is what is cut", async () => {
    app = await startApp({ columns: 60, rows: 24 });
    await app.waitFor("● online");
    await app.press("/", "priya natarajan x");
    const line = await app.waitFor((x) => x.split("\n").some((l) => l.startsWith("/priya natarajan x ")));
    expect(line.split("\n").find((l) => l.startsWith("/priya"))).toMatch(/^\/priya natarajan x +name · enter/);
  });

  it("at 60 columns the palette shows the highlighted command whole, its words wrapped under themselves", async () => {
    app = await startApp({ columns: 60, rows: 24 });
    await app.waitFor("● online");
    await app.press(":");
    await app.waitForStore((s) => s.overlay.kind === "palette");
    // One line each, cut; moved onto, the long one reads whole.
    await app.waitFor("│   L         pick location, or All locations where the s… │");
    await app.press("pick location");
    const f = await app.waitFor("│ › L         pick location, or All locations where the    │");
    expect(f).toContain("│             screen shows every store                     │");
    expect(f).toMatch(/1 of 1\s+│/);
  });

  it("says offline since when the service stops answering", async () => {
    app = await startApp({ columns: 100, proxy: true });
    await app.waitFor("● online");
    await app.proxy?.down();
    await app.press("r");
    await app.waitFor((x) => /○ offline \(since \d\d:\d\d/.test(x) && x.includes("✖ The service cannot be reached"));
    await app.proxy?.up();
    await app.press("r");
    await app.waitFor((x) => x.includes("● online") && !x.includes("✖"));
  });
});

describe("live state", () => {
  it("a clock-in made in another terminal appears on its own, without moving the cursor", async () => {
    const quick = (await loadedScreens()).map((d) => ({ ...d, refreshSeconds: 0.2 }));
    app = await startApp({ screens: quick });
    const f = await app.waitFor(/› \S/);
    const rows = f
      .split("\n")
      .filter((l) => /^[› ] \S/.test(l) && /clocked out|on shift/.test(l))
      .map((l) => ({ name: l.slice(2, 20).trim(), out: l.includes("clocked out") }));
    const selected = rows[1]?.name ?? "";
    const name = rows.slice(2).find((r) => r.out)?.name ?? "";
    await app.press("j");
    await app.waitFor(`› ${selected}`);
    const locationId = app.store.getState().locationId ?? "";
    const member = app.store.getState().timeclock.members.find((m) => `${m.given_name} ${m.family_name}` === name);
    // Another terminal clocks the member in.
    await app.client.labor.createShift({
      idempotency_key: crypto.randomUUID(),
      shift: { location_id: locationId, team_member_id: member?.id ?? "", start_at: new Date().toISOString() },
    });
    const g = await app.waitFor(new RegExp(`${name}\\s+on shift since`));
    expect(
      g
        .split("\n")
        .find((l) => l.startsWith("›"))
        ?.slice(2, 20)
        .trim(),
    ).toBe(selected);
  });
});

describe("the palette", () => {
  it("shows every command with key and description, scrolls and filters as you type", async () => {
    app = await startApp({ rows: 20 });
    await app.waitFor("Who is here");
    await app.press(":");
    const f = await app.waitFor(/\d+ of \d+ · ↑\/↓ scroll/);
    expect(f).toMatch(/› \/\s+filter by name/);
    const total = Number(/\d+ of (\d+)/.exec(f)?.[1]);
    expect(total).toBeGreaterThan(14);
    for (let i = 0; i < total - 1; i++) await app.press(KEYS.down);
    await app.waitFor(`${total} of ${total}`);
    await app.press("review");
    await app.waitFor(/› 2\s+Review screen/);
    await app.press(KEYS.enter);
    await app.waitFor("Workday");
  });
});

describe("the shell's guards", () => {
  it("shows writes disabled in read-only mode", async () => {
    app = await startApp({ store: { readOnly: true } });
    await app.waitFor("READ-ONLY");
    await app.waitFor(/› \S/);
    await app.press("i");
    await app.waitFor("! Read-only mode: changes are disabled.");
  });

  it("says when the terminal is too small", async () => {
    app = await startApp({ rows: 10 });
    await app.waitFor("Too small: 100×10");
    app.stdout.resize(100, 30);
    await app.waitFor("Who is here");
  });
});
