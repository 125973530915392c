// Friends and blocks: my friends (and who is in a game now), the requests waiting for my
// answer and mine waiting for theirs, sending one by username, the players I block, and
// whether only friends may invite me. Friend notices on the user's stream reload it at
// once; it is read again every 30 s for who is playing.
import { allPages, del, get, patch, post } from "./api.js";
import { busy, h, problemNote, toast, when } from "./dom.js";
import { t } from "./i18n.js";
import { listenToUser } from "./stream.js";

const NOTICES = ["friend_request", "friend_accepted"];

function usernameForm(id, label, button, onSend) {
  const input = h("input", { id: `${id}-username`, name: "username", autocomplete: "off", required: true, minlength: 3, maxlength: 32, spellcheck: false });
  const note = problemNote(`${id}-problem`);
  const form = h(`form.row#${id}-form`, {
    onsubmit: async (e) => {
      e.preventDefault();
      const name = input.value.trim();
      const done = await busy(form, note, () => onSend(name));
      if (done) {
        input.value = "";
        toast(done);
      }
    },
  },
    h("label", { for: `${id}-username` }, label), input,
    h("button.primary", { type: "submit", id }, button),
  );
  return [form, note];
}

export function showFriends(root) {
  let alive = true;
  const friends = h("ul.plain#friend-list", {}, h("li.muted", {}, t("Loading…")));
  const incoming = h("ul.plain#incoming");
  const outgoing = h("ul.plain#outgoing");
  const blocks = h("ul.plain#block-list");
  const listNote = problemNote("friends-problem");
  const requestNote = problemNote("requests-problem");
  const blockNote = problemNote("blocks-problem");
  const only = h("input", { type: "checkbox", id: "friends-only", name: "invitations_from_friends_only", disabled: true });
  const settingsNote = problemNote("social-settings-problem");

  const [sendForm, sendNote] = usernameForm("send-request", t("Username"), t("Send a friend request"), async (name) => {
    const answer = await post("/friend-requests", { username: name });
    await load();
    return answer.username
      ? t("%(username)s is your friend now.", { username: answer.username })
      : t("Friend request sent to %(username)s.", { username: answer.recipient.username });
  });
  const [blockForm, blockFormNote] = usernameForm("block", t("Username"), t("Block"), async (name) => {
    const answer = await post("/blocks", { username: name });
    await load();
    return t("You block %(username)s.", { username: answer.username });
  });

  only.addEventListener("change", async () => {
    const wanted = only.checked;
    const answer = await busy(only, settingsNote, () => patch("/social-settings", { invitations_from_friends_only: wanted }));
    if (answer) {
      only.checked = answer.invitations_from_friends_only;
      toast(answer.invitations_from_friends_only ? t("Only friends may invite you now.") : t("Anyone may invite you now."));
    } else {
      only.checked = !wanted;
    }
  });

  root.replaceChildren(
    h("div.friends-page", {},
      h("h1", {}, t("Friends")),
      h("div.settings-grid", {},
        h("section.card#friends-section", { "aria-labelledby": "friends-title" },
          h("h2#friends-title", {}, t("My friends")), friends, listNote),
        h("section.card#requests-section", { "aria-labelledby": "requests-title" },
          h("h2#requests-title", {}, t("Friend requests")),
          sendForm, sendNote,
          h("h3", {}, t("Waiting for my answer")), incoming,
          h("h3", {}, t("Sent, waiting for theirs")), outgoing,
          requestNote),
        h("section.card#blocks-section", { "aria-labelledby": "blocks-title" },
          h("h2#blocks-title", {}, t("Blocked players")),
          h("p.muted", {}, t("A player you block cannot send you friend requests, invite you, or sit at a table with you.")),
          blockForm, blockFormNote, blocks, blockNote),
        h("section.card#invitations-section", { "aria-labelledby": "invitations-title" },
          h("h2#invitations-title", {}, t("Invitations")),
          h("label.check", {}, only, " ", t("Only friends may invite me into a game")),
          settingsNote),
      ),
    ),
  );
  document.title = `${t("Friends")} · ${t("Ticket to Ride")}`;

  // A row's button: the row's controls wait for the answer, and a refusal shows by the list.
  function rowAction(row, note, text, label, action, doneText, primary = false) {
    return h(primary ? "button.primary" : "button", {
      type: "button",
      "aria-label": label,
      onclick: async () => {
        const ok = await busy(row, note, async () => {
          await action();
          return true;
        });
        if (ok) {
          toast(doneText);
          load();
        }
      },
    }, text);
  }

  function friendRow(f) {
    const row = h("li.row.friend", { dataset: { username: f.username, inGame: f.in_game ? "true" : "false" } },
      h("strong", {}, f.username));
    if (f.in_game) {
      row.append(f.game_id
        ? h("a.badge.in-game", { href: `#/game/${f.game_id}` }, t("in a game now"))
        : h("span.badge.in-game", {}, t("in a game now")));
    }
    row.append(
      h("span.muted", {}, t("friends since %(when)s", { when: when(f.since) })),
      rowAction(row, listNote, t("Remove"), t("Remove %(username)s", { username: f.username }),
        () => del(`/friends/${encodeURIComponent(f.username)}`), t("%(username)s is no longer your friend.", { username: f.username })),
    );
    return row;
  }

  function incomingRow(r) {
    const who = r.sender.username;
    const row = h("li.row.request", { dataset: { request: r.id, username: who } },
      h("strong", {}, who), h("span.muted", {}, when(r.created_at)));
    row.append(
      rowAction(row, requestNote, t("Accept"), t("Accept %(username)s", { username: who }),
        () => post(`/friend-requests/${r.id}/accept`), t("%(username)s is your friend now.", { username: who }), true),
      rowAction(row, requestNote, t("Decline"), t("Decline %(username)s", { username: who }),
        () => post(`/friend-requests/${r.id}/decline`), t("Request from %(username)s declined.", { username: who })),
    );
    return row;
  }

  function outgoingRow(r) {
    const who = r.recipient.username;
    const row = h("li.row.request", { dataset: { request: r.id, username: who } },
      h("strong", {}, who), h("span.muted", {}, t("sent %(when)s", { when: when(r.created_at) })));
    row.append(rowAction(row, requestNote, t("Cancel"), t("Cancel %(username)s", { username: who }),
      () => del(`/friend-requests/${r.id}`), t("Request to %(username)s cancelled.", { username: who })));
    return row;
  }

  function blockRow(b) {
    const row = h("li.row.block", { dataset: { username: b.username } },
      h("strong", {}, b.username), h("span.muted", {}, t("since %(when)s", { when: when(b.since) })));
    row.append(rowAction(row, blockNote, t("Unblock"), t("Unblock %(username)s", { username: b.username }),
      () => del(`/blocks/${encodeURIComponent(b.username)}`), t("You no longer block %(username)s.", { username: b.username })));
    return row;
  }

  const filled = (list, rows, empty) => list.replaceChildren(...(rows.length ? rows : [h("li.muted", {}, empty)]));

  let loading = null;
  let again = false;
  // One read at a time; a notice arriving during one asks for one more after it.
  async function load() {
    if (loading) {
      again = true;
      return loading;
    }
    loading = (async () => {
      do {
        again = false;
        try {
          const [f, inc, out, blk, settings] = await Promise.all([
            allPages("/friends"),
            allPages("/friend-requests/incoming"),
            allPages("/friend-requests/outgoing"),
            allPages("/blocks"),
            get("/social-settings"),
          ]);
          if (!alive) return;
          filled(friends, f.map(friendRow), t("No friends yet: send a request by username."));
          filled(incoming, inc.map(incomingRow), t("None."));
          filled(outgoing, out.map(outgoingRow), t("None."));
          filled(blocks, blk.map(blockRow), t("You block nobody."));
          if (!only.closest("[aria-busy]")) {
            only.checked = settings.invitations_from_friends_only;
            only.disabled = false;
          }
          root.querySelector(".friends-page").dataset.ready = "true";
        } catch (err) {
          listNote.textContent = err.message;
          listNote.hidden = false;
        }
      } while (again && alive);
    })();
    try {
      await loading;
    } finally {
      loading = null;
    }
  }

  const stopListening = listenToUser(root, NOTICES, () => load());
  load();
  const timer = setInterval(load, 30000);
  return () => {
    alive = false;
    clearInterval(timer);
    stopListening();
  };
}
