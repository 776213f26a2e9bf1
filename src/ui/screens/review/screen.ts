import type { LoadedState } from "../../../state/index.js";
import { fieldPlace, formPlace, listPlace } from "../../focus.js";
import { defineLoadedScreenBody, whileShown } from "../screen-def.js";
import { REVIEW_COMMANDS } from "./commands.js";
import { ReviewScreen } from "./ReviewScreen.js";

/** The Review screen's module, loaded on first use (src/ui/screens/registry.ts). */
export const REVIEW = defineLoadedScreenBody({
  component: ReviewScreen,
  commands: REVIEW_COMMANDS,
  focus: (s) => {
    const form = s.review.form.kind;
    if (form === "filter")
      return fieldPlace("filter", (st: LoadedState) => st.openReviewForm({ kind: "none" }), {
        hint: "a name filters the members",
      });
    return form === "none" ? listPlace(s.review.view) : formPlace(form);
  },
  fields: { filter: "filter" },
  reload: (s) => s.loadReview(undefined, { team: true }),
  onShow: (s) => s.loadReviewIfStale(),
  onLocationChange: whileShown((s) => s.loadReview()),
  refresh: (s) => s.refreshReview(),
  refreshSeconds: 30,
  help: "Overtime and the pay period follow the config file. A shift without a wage is costed at the member's wage for its job, or flagged no wage and left out of the cost. Every 30 s a range of over 200 shifts reads only what changed, and all of it every 5 minutes: a shift deleted or moved away elsewhere may stay until then (r reads it all now).",
});
