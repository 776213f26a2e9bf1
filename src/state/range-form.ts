// The days form of the payouts and the old transactions (V1): from and to, the problem that keeps
// it open, and the field that problem is about when it is one.
import { type FormProblem, problemOn } from "../domain/form-problem.js";

/** An open days form. */
export interface RangeForm {
  kind: "range";
  from: string;
  to: string;
  problem: string | undefined;
  /** The field the problem is about, when it is one: the form takes the manager there. */
  problemField?: "from" | "to" | undefined;
}

/** What the form answers its submit with: the problem, naming its field when it has one. */
export function rangeFormProblem(form: RangeForm): FormProblem {
  return problemOn(form.problem, form.problemField);
}
