import { focusedField, formPlace, listPlace } from "../../focus.js";
import { defineLoadedScreenBody, whileShown } from "../screen-def.js";
import { GIFT_CARDS_COMMANDS, LOOKUP_FIELD, lookupLineKey, reloadGiftCards, scanGiftCard } from "./commands.js";
import { GiftCardsScreen } from "./GiftCardsScreen.js";

/** The Gift cards screen's module, loaded on first use (src/ui/screens/registry.ts). */
export const GIFT_CARDS = defineLoadedScreenBody({
  component: GiftCardsScreen,
  commands: GIFT_CARDS_COMMANDS,
  // A burst is a scan (the card looked up) from the list and the look-up line; in a change's form
  // (amounts, reasons, order ids) and the days form it is typed text (src/ui/focus.ts).
  focus: (s) => {
    const form = s.giftCards.form.kind;
    if (form === "write") return formPlace("gift card change", { scans: "text" });
    if (form === "range") return formPlace("days", { scans: "text" });
    return (
      focusedField(s, "gift-cards", LOOKUP_FIELD, { onKey: lookupLineKey }) ??
      listPlace(s.giftCards.view === "card" ? "history" : "activity")
    );
  },
  fields: { [LOOKUP_FIELD]: "find" },
  onScan: scanGiftCard,
  reload: reloadGiftCards,
  // Back on the screen: the card shown is read again (it may have been spent meanwhile), quietly.
  onShow: (s) =>
    s.giftCards.view === "activity" ? s.showGiftCardsView("activity") : s.reloadGiftCard({ quiet: true }),
  onLocationChange: whileShown((s) => (s.giftCards.view === "activity" ? s.loadGiftCardActivity() : undefined)),
  // A card changed at the till or in another terminal shows its new balance without a key press.
  refresh: (s) => {
    const g = s.giftCards;
    if (g.form.kind !== "none" || g.pending) return undefined;
    return g.view === "card" ? s.reloadGiftCard({ quiet: true }) : s.loadGiftCardActivity({ quiet: true });
  },
  refreshSeconds: 30,
  help: "A scan looks the card up wherever the keys are. Changes ask first, with the balance before → after; one the service did not answer is kept and sent again as it was (R), never twice. The liability is the balance of every active card of the seller. All locations (L, the location picker) shows the activity of every store, each on its own clock, with where it happened.",
});
