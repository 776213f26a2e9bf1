import { describe, expect, it } from "vitest";
import { jsonAnswer } from "./context.js";

describe("jsonAnswer", () => {
  it("keeps the text as sent and reads its body anew each time (a version rewrite changes only its own copy)", () => {
    const text = '{"customer":{"id":"C1","note":"é"}}';
    const answer = jsonAnswer(text);
    expect(answer.json).toBe(text);
    const first = answer.body as { customer: { note?: string } };
    expect(first).toEqual({ customer: { id: "C1", note: "é" } });
    delete first.customer.note;
    expect(answer.body).toEqual({ customer: { id: "C1", note: "é" } });
    expect(answer.status ?? 200).toBe(200);
  });
});
