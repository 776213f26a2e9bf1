// What a form's submit answers when it is refused: the problem in the manager's words and, when the
// problem is about one field of the form, that field's name — the form then takes the manager there
// with the bad value selected, so typing replaces it. A problem not about one field (the service
// refused, an overlap with another shift) is just its words, and the focus stays where it is.

/** A problem about one field of a form (`field`: the form's name for it). */
export interface FieldProblem {
  text: string;
  field: string;
}

/** A form's refusal: words, words about one field, or undefined when nothing stopped it. */
export type FormProblem = string | FieldProblem | undefined;

/** The problem `text`, about the form field named `field`. */
export function onField(text: string, field: string): FieldProblem {
  return { text, field };
}

/** A form's kept problem as its submit answers it: about `field` when it names one, else words only. */
export function problemOn(text: string | undefined, field: string | undefined): FormProblem {
  return text && field ? onField(text, field) : text;
}

/** The words of a problem, whichever form it takes. */
export function problemText(problem: FormProblem): string | undefined {
  return typeof problem === "object" ? problem.text : problem;
}

/** The field a problem is about, if it is about one. */
export function problemField(problem: FormProblem): string | undefined {
  return typeof problem === "object" ? problem.field : undefined;
}
