// The settings page: the sites allowed to open the picker (/api/apps), as `cameraroll apps`
// lists, adds and removes them.
import { ApiError, json, sendJSON } from "./api.js";

const list = document.querySelector("#apps");
const status = document.querySelector("#status");

function lifetimeText(seconds) {
  const units = [[86400, "day"], [3600, "hour"], [60, "minute"], [1, "second"]];
  const [size, name] = units.find(([size]) => seconds % size === 0 && seconds >= size) ?? [1, "second"];
  const count = seconds / size;
  return `${count} ${name}${count === 1 ? "" : "s"}`;
}

function row(app) {
  const item = document.createElement("li");
  const text = document.createElement("span");
  text.className = "app-text";
  const name = document.createElement("strong");
  name.textContent = app.name;
  const origin = document.createElement("span");
  origin.className = "app-origin";
  origin.textContent = `${app.origin} · links last ${lifetimeText(app.linkLifetime)}`;
  text.append(name, origin);
  const remove = document.createElement("button");
  remove.type = "button";
  remove.className = "plain";
  remove.textContent = "Remove";
  remove.setAttribute("aria-label", `Remove ${app.name}`);
  remove.addEventListener("click", async () => {
    try {
      await json(`/api/apps/${app.id}`, { method: "DELETE" });
      status.textContent = `${app.name} may no longer use your picker; its links no longer work.`;
      await load();
    } catch (error) {
      status.textContent = `${app.name} could not be removed: ${error.message}`;
    }
  });
  item.append(text, remove);
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
