import { describe, expect, it } from "vitest";
import { giveUp } from "./run-app.js";

describe("an app that did not finish quitting in time", () => {
  const ends = (hungUp: boolean) => {
    const done: string[] = [];
    giveUp(hungUp, {
      leave: () => done.push("leave"),
      exit: () => done.push("exit"),
      hangUp: () => done.push("hang up"),
    });
    return done;
  };

  it("ends as a hang-up does after the terminal went away: no exit handlers, nothing written", () => {
    expect(ends(true)).toEqual(["hang up"]);
  });

  it("otherwise gives the screen back, then exits", () => {
    expect(ends(false)).toEqual(["leave", "exit"]);
  });
});
