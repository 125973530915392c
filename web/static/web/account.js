// Account settings: the e-mail address (set, verified by the code sent to it, sent again),
// the password, the linked Apple and Google identities, and, where the server has them,
// the export of my data and the deletion of my account.
import { del, download, get, post, put } from "./api.js";
import { busy, h, parts, problemNote, toast, when } from "./dom.js";
import { t, tn } from "./i18n.js";

const PROVIDERS = { apple: "Apple", google: "Google" };
const EXPORT_STATES = () => ({
  pending: t("being prepared"),
  running: t("being prepared"),
  ready: t("ready"),
  downloaded: t("downloaded"),
  expired: t("expired"),
  failed: t("failed"),
});

function section(id, title, ...children) {
  return h(`section.card.settings#${id}`, { "aria-labelledby": `${id}-title` }, h(`h2#${id}-title`, {}, title), ...children);
}

function emailSection(refresh) {
  const body = h("div");
  const node = section("email-section", t("E-mail"), body);
  node.render = (me) => {
    const status = me.email
      ? h("p#email-status", {}, h("strong", {}, me.email), " ",
          h(`span.badge.${me.email_verified ? "verified" : "unverified"}`, {}, me.email_verified ? t("verified") : t("not verified")))
      : h("p.muted#email-status", {}, t("No e-mail address yet: notifications and password resets need one."));
    const children = [status];
    if (me.pending_email) {
      const code = h("input", { name: "code", id: "email-code", inputmode: "numeric", autocomplete: "one-time-code", required: true, pattern: "[0-9]{6}", maxlength: 6 });
      const codeNote = problemNote("email-code-problem");
      const codeForm = h("form.row#verify-form", {
        onsubmit: async (e) => {
          e.preventDefault();
          const me2 = await busy(codeForm, codeNote, () => post("/auth/email/verify", { code: code.value.trim() }));
          if (me2) {
            toast(t("%(email)s is verified.", { email: me2.email }));
            refresh(me2);
          }
        },
      },
        h("label", { for: "email-code" }, t("Code")), code,
        h("button.primary", { type: "submit", id: "verify-email" }, t("Verify")),
        h("button", {
          type: "button", id: "resend-email",
          onclick: async () => {
            const me2 = await busy(codeForm, codeNote, () => post("/auth/email/resend"));
            if (me2) toast(t("A new code is on its way to %(email)s.", { email: me2.pending_email }));
          },
        }, t("Send a new code")),
      );
      children.push(
        h("p#email-pending", {}, parts(t("A six-digit code was sent to %(email)s. Enter it to verify the address."),
          { email: h("strong", {}, me.pending_email) })),
        codeForm, codeNote,
      );
    }
    const address = h("input", { type: "email", name: "email", id: "new-email", autocomplete: "email", required: true, maxlength: 254 });
    const note = problemNote("email-problem");
    const form = h("form.row#email-form", {
      onsubmit: async (e) => {
        e.preventDefault();
        const me2 = await busy(form, note, () => put("/auth/email", { email: address.value.trim() }));
        if (me2) {
          toast(t("A code is on its way to %(email)s.", { email: me2.pending_email }));
          refresh(me2);
        }
      },
    },
      h("label", { for: "new-email" }, me.email ? t("New address") : t("Address")), address,
      h("button", { type: "submit", id: "save-email" }, me.email ? t("Change") : t("Set")),
    );
    children.push(form, note);
    body.replaceChildren(...children);
  };
  return node;
}

function passwordSection() {
  const body = h("div");
  const node = section("password-section", t("Password"), body);
  node.render = (me) => {
    if (!me.has_password) {
      body.replaceChildren(h("p.muted", {}, t("This account signs in with Apple or Google only."), " ",
        t("To set a password, verify an e-mail address and ask for a password reset.")));
      return;
    }
    const current = h("input", { type: "password", id: "current-password", name: "current_password", autocomplete: "current-password", required: true, maxlength: 128 });
    const fresh = h("input", { type: "password", id: "new-password", name: "new_password", autocomplete: "new-password", required: true, maxlength: 128 });
    const others = h("input", { type: "checkbox", id: "revoke-others", name: "revoke_other_tokens" });
    const note = problemNote("password-problem");
    const done = h("p.muted#password-done", { role: "status" });
    const form = h("form.stack#password-form", {
      onsubmit: async (e) => {
        e.preventDefault();
        done.textContent = "";
        const answer = await busy(form, note, () => post("/auth/password", {
          current_password: current.value,
          new_password: fresh.value,
          revoke_other_tokens: others.checked,
        }));
        if (!answer) return;
        form.reset();
        const n = answer.revoked_tokens;
        done.textContent = others.checked || n
          ? tn("Password changed. %(n)s other sign-in signed out.", "Password changed. %(n)s other sign-ins signed out.", n)
          : t("Password changed.");
      },
    },
      h("label", {}, t("Current password"), current),
      h("label", {}, t("New password"), fresh),
      h("label.check", {}, others, " ", t("Sign me out on my other devices")),
      h("div.row", {}, h("button.primary", { type: "submit", id: "change-password" }, t("Change password"))),
    );
    body.replaceChildren(form, note, done);
  };
  return node;
}

function identitiesSection() {
  const list = h("ul.plain#identities");
  const note = problemNote("identities-problem");
  const node = section("identities-section", t("Apple and Google sign-in"), list, note);
  node.load = async () => {
    const identities = await get("/auth/identities");
    list.replaceChildren(...(identities.length
      ? identities.map((idn) => {
          const name = PROVIDERS[idn.provider] || idn.provider;
          const row = h("li.row", { dataset: { provider: idn.provider } },
            h("strong", {}, name),
            h("span", {}, idn.email || ""),
            h("span.muted", {}, idn.last_used
              ? t("linked %(linked)s, last used %(used)s", { linked: when(idn.created), used: when(idn.last_used) })
              : t("linked %(linked)s", { linked: when(idn.created) })),
            h("button", {
              type: "button", "aria-label": t("Unlink %(provider)s", { provider: name }),
              onclick: async () => {
                const ok = await busy(row, note, async () => {
                  await del(`/auth/identities/${idn.id}`);
                  return true;
                });
                if (ok) {
                  toast(t("%(provider)s is unlinked.", { provider: name }));
                  node.load();
                }
              },
            }, t("Unlink")),
          );
          return row;
        })
      : [h("li.muted", {}, t("No Apple or Google sign-in is linked. The mobile app links one."))]));
  };
  return node;
}

function exportSection() {
  const list = h("ul.plain#exports");
  const note = problemNote("export-problem");
  const ask = h("button", { type: "button", id: "request-export" }, t("Prepare an export"));
  const node = section("export-section", t("Export my data"),
    h("p.muted", {}, t("A file of everything the service holds about you, prepared in the background.")),
    h("div.row", {}, ask), note, list);
  node.hidden = true;
  let timer = null;
  node.load = async () => {
    clearTimeout(timer);
    const answer = await get("/account/exports");
    const exports = Array.isArray(answer) ? answer : answer.results || [];
    list.replaceChildren(...exports.map((x) => {
      const state = EXPORT_STATES()[x.status] || x.status;
      const row = h("li.row", { dataset: { export: x.id, status: x.status } },
        h("span", {}, t("Asked %(when)s", { when: when(x.created_at) })),
        h(`span.badge.${x.status}`, {}, state));
      if (x.status === "ready" && x.download) {
        const rowNote = problemNote(`export-${x.id}-problem`);
        row.append(
          h("a.download", {
            href: x.download,
            onclick: async (e) => {
              e.preventDefault();
              const saved = await busy(row, rowNote, () => download(x.download, `ttr-export-${x.id}`));
              if (saved) {
                toast(t("Saved as %(file)s.", { file: saved }));
                node.load();
              }
            },
          }, t("Download")),
          x.expires_at ? h("span.muted", {}, t("until %(when)s", { when: when(x.expires_at) })) : null,
          rowNote,
        );
      } else if (x.ready_at && (x.status === "pending" || x.status === "running")) {
        row.append(h("span.muted", {}, t("ready by %(when)s", { when: when(x.ready_at) })));
      }
      return row;
    }));
    if (exports.some((x) => x.status === "pending" || x.status === "running")) {
      timer = setTimeout(() => node.isConnected && node.load().catch(() => {}), 5000);
    }
  };
  ask.addEventListener("click", async () => {
    const made = await busy(ask, note, () => post("/account/exports"));
    if (made) {
      toast(t("Your export is being prepared."));
      node.load();
    }
  });
  return node;
}

function deletionSection(me, signOut) {
  const password = h("input", { type: "password", id: "delete-password", name: "password", autocomplete: "current-password", required: true, maxlength: 128 });
  const typed = h("input", { id: "delete-confirm", name: "confirm", autocomplete: "off", required: true });
  const send = h("button.danger", { type: "submit", id: "delete-account", disabled: true }, t("Delete my account"));
  const note = problemNote("delete-problem");
  typed.addEventListener("input", () => {
    send.disabled = typed.value.trim() !== me.username;
  });
  const form = h("form.stack#delete-form", {
    onsubmit: async (e) => {
      e.preventDefault();
      if (typed.value.trim() !== me.username) return;
      const answer = await busy(form, note, () => post("/account/deletion", { password: password.value }));
      if (!answer) {
        send.disabled = typed.value.trim() !== me.username;
        return;
      }
      const erase = answer.erase_at ? new Date(answer.erase_at) : null;
      signOut(erase && erase > new Date()
        ? t("Your account is to be deleted on %(when)s. You are signed out.", { when: when(answer.erase_at) })
        : t("Your account is deleted. You are signed out."));
    },
  },
    h("p", {}, t("Your account and what it holds will be erased, and you are signed out here at once.")),
    h("label", {}, t("Password"), password),
    h("label", {}, t("Type your username (%(username)s) to confirm", { username: me.username }), typed),
    h("div.row", {}, send),
  );
  const node = section("delete-section", t("Delete my account"), form, note);
  node.hidden = true;
  if (!me.has_password) password.required = false;
  return node;
}

export function showAccount(root, { signOut }) {
  let alive = true;
  const email = emailSection((me) => email.render(me));
  const password = passwordSection();
  const identities = identitiesSection();
  const exportsNode = exportSection();
  const slot = h("div.settings-more");
  const note = problemNote("account-problem");
  root.replaceChildren(
    h("div.account", {},
      h("h1", {}, t("Account settings")),
      h("p.muted#account-name", {}, t("Loading…")),
      note,
      h("div.settings-grid", {}, email, password, identities, exportsNode, slot),
    ),
  );
  document.title = `${t("Account")} · ${t("Ticket to Ride")}`;

  (async () => {
    try {
      const me = await get("/auth/me");
      if (!alive) return;
      root.querySelector("#account-name").textContent = t("Signed in as %(username)s, since %(when)s.", { username: me.username, when: when(me.date_joined) });
      email.render(me);
      password.render(me);
      await identities.load();
      await exportsNode.load();
      exportsNode.hidden = false;
      const deletion = deletionSection(me, signOut);
      slot.replaceChildren(deletion);
      deletion.hidden = false;
      root.querySelector(".account").dataset.ready = "true";
    } catch (err) {
      note.textContent = err.message;
      note.hidden = false;
    }
  })();
  return () => {
    alive = false;
  };
}
