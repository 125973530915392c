// Account settings: the e-mail address (set, verified by the code sent to it, sent again),
// the password, the linked Apple and Google identities, and, where the server has them,
// the export of my data and the deletion of my account.
import { del, download, get, post, put } from "./api.js";
import { busy, h, problemNote, toast, when } from "./dom.js";

const PROVIDERS = { apple: "Apple", google: "Google" };
const EXPORT_STATES = {
  pending: "being prepared",
  running: "being prepared",
  ready: "ready",
  downloaded: "downloaded",
  expired: "expired",
  failed: "failed",
};

function section(id, title, ...children) {
  return h(`section.card.settings#${id}`, { "aria-labelledby": `${id}-title` }, h(`h2#${id}-title`, {}, title), ...children);
}

function emailSection(refresh) {
  const body = h("div");
  const node = section("email-section", "E-mail", body);
  node.render = (me) => {
    const status = me.email
      ? h("p#email-status", {}, h("strong", {}, me.email), " ",
          h(`span.badge.${me.email_verified ? "verified" : "unverified"}`, {}, me.email_verified ? "verified" : "not verified"))
      : h("p.muted#email-status", {}, "No e-mail address yet: notifications and password resets need one.");
    const children = [status];
    if (me.pending_email) {
      const code = h("input", { name: "code", id: "email-code", inputmode: "numeric", autocomplete: "one-time-code", required: true, pattern: "[0-9]{6}", maxlength: 6 });
      const codeNote = problemNote("email-code-problem");
      const codeForm = h("form.row#verify-form", {
        onsubmit: async (e) => {
          e.preventDefault();
          const me2 = await busy(codeForm, codeNote, () => post("/auth/email/verify", { code: code.value.trim() }));
          if (me2) {
            toast(`${me2.email} is verified.`);
            refresh(me2);
          }
        },
      },
        h("label", { for: "email-code" }, "Code"), code,
        h("button.primary", { type: "submit", id: "verify-email" }, "Verify"),
        h("button", {
          type: "button", id: "resend-email",
          onclick: async () => {
            const me2 = await busy(codeForm, codeNote, () => post("/auth/email/resend"));
            if (me2) toast(`A new code is on its way to ${me2.pending_email}.`);
          },
        }, "Send a new code"),
      );
      children.push(
        h("p#email-pending", {}, "A six-digit code was sent to ", h("strong", {}, me.pending_email), ". Enter it to verify the address."),
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
          toast(`A code is on its way to ${me2.pending_email}.`);
          refresh(me2);
        }
      },
    },
      h("label", { for: "new-email" }, me.email ? "New address" : "Address"), address,
      h("button", { type: "submit", id: "save-email" }, me.email ? "Change" : "Set"),
    );
    children.push(form, note);
    body.replaceChildren(...children);
  };
  return node;
}

function passwordSection() {
  const body = h("div");
  const node = section("password-section", "Password", body);
  node.render = (me) => {
    if (!me.has_password) {
      body.replaceChildren(h("p.muted", {}, "This account signs in with Apple or Google only. ",
        "To set a password, verify an e-mail address and ask for a password reset."));
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
          ? `Password changed. ${n} other sign-in${n === 1 ? "" : "s"} signed out.`
          : "Password changed.";
      },
    },
      h("label", {}, "Current password", current),
      h("label", {}, "New password", fresh),
      h("label.check", {}, others, " Sign me out on my other devices"),
      h("div.row", {}, h("button.primary", { type: "submit", id: "change-password" }, "Change password")),
    );
    body.replaceChildren(form, note, done);
  };
  return node;
}

function identitiesSection() {
  const list = h("ul.plain#identities");
  const note = problemNote("identities-problem");
  const node = section("identities-section", "Apple and Google sign-in", list, note);
  node.load = async () => {
    const identities = await get("/auth/identities");
    list.replaceChildren(...(identities.length
      ? identities.map((idn) => {
          const name = PROVIDERS[idn.provider] || idn.provider;
          const row = h("li.row", { dataset: { provider: idn.provider } },
            h("strong", {}, name),
            h("span", {}, idn.email || ""),
            h("span.muted", {}, `linked ${when(idn.created)}${idn.last_used ? `, last used ${when(idn.last_used)}` : ""}`),
            h("button", {
              type: "button", "aria-label": `Unlink ${name}`,
              onclick: async () => {
                const ok = await busy(row, note, async () => {
                  await del(`/auth/identities/${idn.id}`);
                  return true;
                });
                if (ok) {
                  toast(`${name} is unlinked.`);
                  node.load();
                }
              },
            }, "Unlink"),
          );
          return row;
        })
      : [h("li.muted", {}, "No Apple or Google sign-in is linked. The mobile app links one.")]));
  };
  return node;
}

function exportSection() {
  const list = h("ul.plain#exports");
  const note = problemNote("export-problem");
  const ask = h("button", { type: "button", id: "request-export" }, "Prepare an export");
  const node = section("export-section", "Export my data",
    h("p.muted", {}, "A file of everything the service holds about you, prepared in the background."),
    h("div.row", {}, ask), note, list);
  node.hidden = true;
  let timer = null;
  node.load = async () => {
    clearTimeout(timer);
    const answer = await get("/account/exports");
    const exports = Array.isArray(answer) ? answer : answer.results || [];
    list.replaceChildren(...exports.map((x) => {
      const state = EXPORT_STATES[x.status] || x.status;
      const row = h("li.row", { dataset: { export: x.id, status: x.status } },
        h("span", {}, `Asked ${when(x.created_at)}`),
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
                toast(`Saved as ${saved}.`);
                node.load();
              }
            },
          }, "Download"),
          x.expires_at ? h("span.muted", {}, `until ${when(x.expires_at)}`) : null,
          rowNote,
        );
      } else if (x.ready_at && (x.status === "pending" || x.status === "running")) {
        row.append(h("span.muted", {}, `ready by ${when(x.ready_at)}`));
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
      toast("Your export is being prepared.");
      node.load();
    }
  });
  return node;
}

function deletionSection(me, signOut) {
  const password = h("input", { type: "password", id: "delete-password", name: "password", autocomplete: "current-password", required: true, maxlength: 128 });
  const typed = h("input", { id: "delete-confirm", name: "confirm", autocomplete: "off", required: true });
  const send = h("button.danger", { type: "submit", id: "delete-account", disabled: true }, "Delete my account");
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
        ? `Your account is to be deleted on ${when(answer.erase_at)}. You are signed out.`
        : "Your account is deleted. You are signed out.");
    },
  },
    h("p", {}, "Your account and what it holds will be erased, and you are signed out here at once."),
    h("label", {}, "Password", password),
    h("label", {}, `Type your username (${me.username}) to confirm`, typed),
    h("div.row", {}, send),
  );
  const node = section("delete-section", "Delete my account", form, note);
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
      h("h1", {}, "Account settings"),
      h("p.muted#account-name", {}, "Loading…"),
      note,
      h("div.settings-grid", {}, email, password, identities, exportsNode, slot),
    ),
  );
  document.title = "Account · Ticket to Ride";

  (async () => {
    try {
      const me = await get("/auth/me");
      if (!alive) return;
      root.querySelector("#account-name").textContent = `Signed in as ${me.username}, since ${when(me.date_joined)}.`;
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
