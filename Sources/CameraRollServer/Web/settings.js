// The settings page: the sites allowed to open the picker (/api/apps), as `cameraroll apps`
// lists, adds and removes them.
import { ApiError, json, sendJSON } from "./api.js";
import { namedRow, plainButton } from "./elements.js";
import { addPasskey, passkeyFailure, passkeysUnavailable } from "./passkeys.js";

const list = document.querySelector("#apps");
const status = document.querySelector("#status");

function lifetimeText(seconds) {
  const units = [[86400, "day"], [3600, "hour"], [60, "minute"], [1, "second"]];
  const [size, name] = units.find(([size]) => seconds % size === 0 && seconds >= size) ?? [1, "second"];
  const count = seconds / size;
  return `${count} ${name}${count === 1 ? "" : "s"}`;
}

function row(app) {
  const item = namedRow(app.name, `${app.origin} · links last ${lifetimeText(app.linkLifetime)}`, "app-origin");
  item.append(plainButton("Remove", `Remove ${app.name}`, async () => {
    try {
      await json(`/api/apps/${app.id}`, { method: "DELETE" });
      status.textContent = `${app.name} may no longer use your picker; its links no longer work.`;
      await load();
    } catch (error) {
      status.textContent = `${app.name} could not be removed: ${error.message}`;
    }
  }));
  return item;
}

async function load() {
  const { apps } = await json("/api/apps");
  list.replaceChildren(...apps.map(row));
  document.querySelector("#no-apps").hidden = apps.length > 0;
}

document.querySelector("#add").addEventListener("submit", async (event) => {
  event.preventDefault();
  const origin = document.querySelector("#origin").value.trim();
  const name = document.querySelector("#name").value.trim();
  try {
    const app = await sendJSON("/api/apps", "POST", {
      origin, ...(name ? { name } : {}), linkLifetime: Number(document.querySelector("#lifetime").value),
    });
    status.textContent = `${app.name} (${app.origin}) may use your picker.`;
    event.target.reset();
    await load();
  } catch (error) {
    status.textContent = error instanceof ApiError ? error.message : "That did not work. Try again.";
  }
});

load().catch((error) => { status.textContent = `The allowed apps could not be loaded: ${error.message}`; });

// People: everyone may change their own password; admins list, add and remove people and set
// anyone's password (/api/users, as `cameraroll users` does).
const people = document.querySelector("#people");
const peopleStatus = document.querySelector("#people-status");

// Opens a dialog of this page and settles with the button that closed it ("cancel" for Escape).
function ask(dialog) {
  return new Promise((resolve) => {
    const cancel = dialog.querySelector('button[value="cancel"]');
    const onCancel = () => dialog.close("cancel");
    cancel.addEventListener("click", onCancel);
    dialog.addEventListener("close", () => {
      cancel.removeEventListener("click", onCancel);
      resolve(dialog.returnValue || "cancel");
    }, { once: true });
    dialog.returnValue = "";
    dialog.showModal();
  });
}

// A size as phones show one: decimal units, one decimal below 100.
function sizeText(bytes) {
  if (bytes < 1000) return `${bytes} byte${bytes === 1 ? "" : "s"}`;
  const [unit, size] = [["TB", 1e12], ["GB", 1e9], ["MB", 1e6], ["KB", 1e3]].find(([, size]) => bytes >= size);
  const value = bytes / size;
  return `${value >= 100 ? Math.round(value) : Math.round(value * 10) / 10} ${unit}`;
}

function usageText(used, quota) {
  return quota ? `Uses ${sizeText(used)} of ${sizeText(quota)}` : `Uses ${sizeText(used)}`;
}

function personRow(person, me, admins) {
  const detail = [person.admin ? "Admin" : "", person.id === me.id ? "you" : "", person.passwordSet ? "" : "no password yet",
    usageText(person.used, person.quota)].filter(Boolean).join(" · ");
  const item = namedRow(person.name, detail, "person-badge");
  item.append(
    plainButton("Password", `Set ${person.name}'s password`, () => setPasswordOf(person)),
    plainButton("Storage", `Set ${person.name}'s storage`, () => setQuotaOf(person)));
  // Someone's library needs an admin other than them to go to.
  const receivers = admins.filter((admin) => admin.id !== person.id);
  if (receivers.length) item.append(plainButton("Remove", `Remove ${person.name}`, () => removePerson(person, receivers)));
  return item;
}

async function setPasswordOf(person) {
  const dialog = document.querySelector("#set-password");
  dialog.querySelector("h2").textContent = `New password for ${person.name}`;
  const input = dialog.querySelector("#their-password");
  input.value = "";
  if (await ask(dialog) !== "set") return;
  try {
    await sendJSON(`/api/users/${person.id}/password`, "PUT", { password: input.value });
    peopleStatus.textContent = `${person.name}'s password is set; their devices signed in with the old one are signed out.`;
    await loadPeople();
  } catch (error) {
    peopleStatus.textContent = `${person.name}'s password was not set: ${error.message}`;
  } finally {
    input.value = "";
  }
}

async function setQuotaOf(person) {
  const dialog = document.querySelector("#set-quota");
  dialog.querySelector("h2").textContent = `Storage for ${person.name}`;
  dialog.querySelector("#set-quota-text").textContent =
    `${usageText(person.used, person.quota)}. Uploads that would take their library past its size are refused; nothing there is removed.`;
  const select = dialog.querySelector("#quota");
  const current = person.quota ? String(person.quota) : "";
  if (current && ![...select.options].some((option) => option.value === current)) {
    select.append(new Option(sizeText(person.quota), current));
  }
  select.value = current;
  if (await ask(dialog) !== "set") return;
  try {
    const changed = await sendJSON(`/api/users/${person.id}/quota`, "PUT", { quota: select.value ? Number(select.value) : null });
    peopleStatus.textContent = changed.quota
      ? `${changed.name}'s library may hold ${sizeText(changed.quota)}.` : `${changed.name}'s library may hold any amount.`;
    await loadPeople();
  } catch (error) {
    peopleStatus.textContent = `${person.name}'s storage was not changed: ${error.message}`;
  }
}

async function removePerson(person, receivers) {
  const dialog = document.querySelector("#remove-person");
  dialog.querySelector("h2").textContent = `Remove ${person.name}?`;
  dialog.querySelector("#remove-person-text").textContent =
    `${person.name} is signed out everywhere. Their photos and videos go to the Recently Deleted of the admin you choose, ` +
    `to keep or let go; their albums become that admin's.`;
  const select = dialog.querySelector("#receiver");
  select.replaceChildren(...receivers.map((admin) => new Option(admin.name, admin.id)));
  if (await ask(dialog) !== "remove") return;
  try {
    const outcome = await json(`/api/users/${person.id}?to=${encodeURIComponent(select.value)}`, { method: "DELETE" });
    const { moved, merged, albums } = outcome.library;
    peopleStatus.textContent = `${person.name} is removed. ${outcome.receiver.name}'s Recently Deleted holds their ` +
      `${moved} item${moved === 1 ? "" : "s"}${merged ? ` (and ${merged} ${outcome.receiver.name} had already)` : ""}; ` +
      `${albums} album${albums === 1 ? " is" : "s are"} ${outcome.receiver.name}'s now.`;
    await loadPeople();
  } catch (error) {
    peopleStatus.textContent = `${person.name} was not removed: ${error.message}`;
  }
}

let me = null;

async function loadPeople() {
  const { users } = await json("/api/users");
  const admins = users.filter((person) => person.admin);
  people.replaceChildren(...users.map((person) => personRow(person, me, admins)));
}

// Partners: whom one shares one's whole library with, and whose libraries one may see.
const partnersStatus = document.querySelector("#partners-status");

async function loadPartners(partners) {
  const { sharingWith, sharedWithMe } = partners ?? await json("/api/partners");
  document.querySelector("#partners").replaceChildren(...sharingWith.map((person) => {
    const item = namedRow(person.name, "Sees your library", "app-origin");
    item.append(plainButton("Stop", `Stop sharing your library with ${person.name}`, async () => {
      try {
        await loadPartners(await json(`/api/partners/${person.id}`, { method: "DELETE" }));
        partnersStatus.textContent = `${person.name} no longer sees your library.`;
      } catch (error) {
        partnersStatus.textContent = `That did not work: ${error.message}`;
      }
    }));
    return item;
  }));
  document.querySelector("#shared-with-me").replaceChildren(...sharedWithMe.map((person) => {
    const item = namedRow(person.name, "Shares their library with you", "app-origin");
    const link = document.createElement("a");
    link.className = "plain-link";
    link.href = `/library#/partner/${person.id}`;
    link.textContent = `Open ${person.name}'s Library`;
    // Shown inside one's own Library view, or apart: one's own choice, per library.
    const shown = document.createElement("label");
    shown.className = "toggle";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = person.inTimeline;
    box.addEventListener("change", async () => {
      try {
        await loadPartners(await sendJSON(`/api/partners/${person.id}`, "PUT", { inTimeline: box.checked }));
        partnersStatus.textContent = box.checked ? `${person.name}'s photos show in your Library now.`
          : `${person.name}'s photos show apart now.`;
      } catch (error) {
        box.checked = !box.checked;
        partnersStatus.textContent = `That did not work: ${error.message}`;
      }
    });
    shown.append(box, " Show in my Library");
    item.append(shown, link);
    return item;
  }));
  document.querySelector("#none-shared").hidden = sharedWithMe.length > 0;
}

document.querySelector("#add-partner").addEventListener("submit", async (event) => {
  event.preventDefault();
  const user = document.querySelector("#partner-name").value.trim();
  try {
    await loadPartners(await sendJSON("/api/partners", "POST", { user }));
    partnersStatus.textContent = `${user} sees your library now.`;
    event.target.reset();
  } catch (error) {
    partnersStatus.textContent = error instanceof ApiError ? error.message : "That did not work. Try again.";
  }
});

document.querySelector("#add-person").addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = document.querySelector("#person-name").value.trim();
  try {
    const added = await sendJSON("/api/users", "POST", {
      name, password: document.querySelector("#person-password").value, admin: document.querySelector("#person-admin").checked,
    });
    peopleStatus.textContent = `${added.name} can sign in now${added.admin ? ", as an admin" : ""}, with a library of their own.`;
    event.target.reset();
    await loadPeople();
  } catch (error) {
    peopleStatus.textContent = error instanceof ApiError ? error.message : "That did not work. Try again.";
  }
});

document.querySelector("#change-password").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = document.querySelector("#new-password");
  const passwordStatus = document.querySelector("#password-status");
  try {
    await sendJSON(`/api/users/${me.id}/password`, "PUT", { password: input.value });
    input.value = "";
    passwordStatus.textContent = "Your password is changed. Sign in again with it on this and your other devices.";
  } catch (error) {
    passwordStatus.textContent = `Your password was not changed: ${error.message}`;
  }
});

// Passkeys: one's own, added with this device's authenticator and removed from any device.
const passkeysStatus = document.querySelector("#passkeys-status");

function showPasskeys({ passkeys }) {
  const day = (iso) => new Date(iso).toLocaleDateString(undefined, { dateStyle: "medium" });
  document.querySelector("#passkeys").replaceChildren(...passkeys.map((passkey) => {
    const used = passkey.lastUsed ? `last used ${day(passkey.lastUsed)}` : "not used yet";
    const item = namedRow(passkey.name, `Added ${day(passkey.created)} · ${used}`, "app-origin");
    item.append(plainButton("Remove", `Remove the passkey ${passkey.name}`, async () => {
      try {
        showPasskeys(await json(`/api/passkeys/${encodeURIComponent(passkey.id)}`, { method: "DELETE" }));
        passkeysStatus.textContent = `${passkey.name} no longer signs you in. Remove it from the device too.`;
      } catch (error) {
        passkeysStatus.textContent = `That did not work: ${error.message}`;
      }
    }));
    return item;
  }));
  document.querySelector("#no-passkeys").hidden = passkeys.length > 0;
}

// A name that says which device it is, for the list ("Chrome on Android"); the person may change it.
function deviceName() {
  const brand = navigator.userAgentData?.brands?.find((entry) => !/Not.A.Brand|Chromium/i.test(entry.brand))?.brand ?? "Browser";
  const platform = navigator.userAgentData?.platform || navigator.platform || "this device";
  return `${brand} on ${platform}`;
}

async function loadPasskeys() {
  document.querySelector("#passkeys-section").hidden = false;
  showPasskeys(await json("/api/passkeys"));
  const unavailable = passkeysUnavailable();
  const form = document.querySelector("#add-passkey");
  form.hidden = unavailable !== null;
  if (unavailable) {
    passkeysStatus.textContent = unavailable;
    return;
  }
  document.querySelector("#passkey-name").value = deviceName();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = document.querySelector("#passkey-name").value.trim();
    const button = form.querySelector("button");
    button.disabled = true;
    passkeysStatus.textContent = "Follow your device's steps to make the passkey…";
    try {
      showPasskeys(await addPasskey(name));
      passkeysStatus.textContent = `${name} signs you in now.`;
      document.querySelector("#passkey-name").value = deviceName();
    } catch (error) {
      passkeysStatus.textContent = `No passkey was added: ${error instanceof ApiError ? error.message : passkeyFailure(error)}`;
    } finally {
      button.disabled = false;
    }
  });
}

// What the library works on in the background, looked at again every two seconds while there
// is any.
async function showBackgroundWork() {
  const shown = document.querySelector("#background-work");
  try {
    const { work } = await json("/api/background");
    const count = new Intl.NumberFormat();
    shown.textContent = work.length
      ? work.map((task) => `${task.title}: ${count.format(task.done)} of ${count.format(task.total)}`).join(" · ")
      : "Nothing is being worked on in the background.";
    if (work.length) setTimeout(showBackgroundWork, 2000);
  } catch (error) {
    shown.textContent = `What the library is working on could not be read: ${error.message}`;
  }
}
showBackgroundWork();

json("/api/session").then(async (session) => {
  me = session.user ?? null;
  if (!me) return;
  document.querySelector("#me").textContent = me.name;
  document.querySelector("#own-password").hidden = false;
  document.querySelector("#partners-section").hidden = false;
  await Promise.all([loadPartners(), loadPasskeys()]);
  const usage = await json("/api/usage");
  document.querySelector("#my-usage").textContent = `${usageText(usage.used, usage.quota).replace("Uses", "Your library holds")}.`;
  if (!me.admin) return;
  document.querySelector("#people-section").hidden = false;
  await loadPeople();
}).catch((error) => { peopleStatus.textContent = `The people could not be loaded: ${error.message}`; });
