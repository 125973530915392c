// Rematch, under a finished game's score sheet: the same players, board and pace again, one
// click each (POST /games/{id}/rematch to ask or agree, DELETE to decline). The offer's
// state is read again every few seconds while it is open.
import { del, get, post, session } from "./api.js";
import { busy, h, problemNote } from "./dom.js";
import { t, tn } from "./i18n.js";

const POLL_MS = 4000;

export function rematchControl(gameId) {
  const note = problemNote("rematch-problem");
  const line = h("p#rematch-status", { role: "status" });
  const buttons = h("span.actions");
  const node = h("div.rematch", {}, h("h3", {}, t("Rematch")), line, buttons, note);
  const path = `/games/${gameId}/rematch`;
  let timer = null;

  const act = (id, label, send, primary = false) =>
    h(primary ? "button.primary" : "button", {
      type: "button",
      id: `rematch-${id}`,
      onclick: async (event) => {
        const state = await busy(event.currentTarget, note, send);
        if (state) show(state);
      },
    }, label);

  function show(state) {
    clearTimeout(timer);
    node.dataset.status = state.status;
    const me = (session.username || "").toLowerCase();
    const agreed = state.agreed.some((u) => u.toLowerCase() === me);
    buttons.replaceChildren();
    if (state.status === "made" && state.new_game) {
      line.replaceChildren(t("The rematch is ready:"), " ",
        h("a#rematch-game", { href: `#/game/${state.new_game}` }, t("game #%(id)s", { id: state.new_game })), ".");
      return;
    }
    if (state.status === "declined") {
      line.textContent = state.declined_by
        ? t("%(player)s declined the rematch.", { player: state.declined_by })
        : t("A player declined the rematch.");
      return;
    }
    if (state.status === "open") {
      line.textContent = agreed
        ? t("Waiting for %(players)s.", { players: state.waiting_for.join(", ") })
        : tn("%(players)s asks for a rematch.", "%(players)s ask for a rematch.", state.agreed.length, { players: state.agreed.join(", ") });
      if (!agreed) buttons.append(act("accept", t("Accept"), () => post(path), true));
      buttons.append(act("decline", t("Decline"), async () => (await del(path)) || get(path)));
      timer = setTimeout(refresh, POLL_MS);
      return;
    }
    line.textContent = t("Play the same table again.");
    buttons.append(act("rematch", t("Rematch"), () => post(path), true));
  }

  async function refresh() {
    if (!node.isConnected) return;
    try {
      show(await get(path));
    } catch {
      timer = setTimeout(refresh, POLL_MS);
    }
  }
  get(path).then(show).catch(() => {
    node.hidden = true;
  });
  return node;
}
