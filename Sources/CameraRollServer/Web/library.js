// The Photos app: the library's views (Library, Recently Added, Favourites, Albums, captures not
// saved, Recently Deleted) as a timeline (timeline.js) with a date scrubber; a select mode with
// the actions each view allows, on many items at once; a viewer (viewer.js); albums; and the
// uploader (upload-panel.js). Views are addressed by the URL's hash, so Back and a reload work.
import { json, sendJSON } from "./api.js";
import { plainButton } from "./elements.js";
import { offerLink } from "./share-link.js";
import { offerSignOut } from "./sign-out.js";
import { monthName, Timeline } from "./timeline.js";
import { SearchField } from "./search-field.js";
import { Snackbar } from "./snackbar.js";
import { startUploads } from "./upload-panel.js";
import { Viewer } from "./viewer.js";

const status = document.querySelector("#status");
const snackbar = new Snackbar(document.querySelector("#snackbar"));
const grid = document.querySelector("#grid");
const title = document.querySelector("#title");
const selectButton = document.querySelector("#select");
const selectionBar = document.querySelector("#selection-bar");
const selectionCount = document.querySelector("#selection-count");
const albumList = document.querySelector("#albums");
const frame = document.querySelector(".timeline-frame");
const empty = document.querySelector("#empty");
const scrubber = document.querySelector("#scrubber");
const currentDate = document.querySelector("#current-date");

const timeline = new Timeline(grid, { label: "Library" });

// What each view shows and lets one do with a selection.
const views = {
  library: { title: "Library", query: { collection: "library" }, actions: ["album", "favorite", "download", "link", "trash"],
    empty: ["No Photos or Videos", "Add photos and videos with the buttons above, by dropping them here, or take some with the Camera."] },
  recent: { title: "Recently Added", query: { collection: "recentlyAdded" }, actions: ["album", "favorite", "download", "link", "trash"],
    empty: ["Nothing Added Yet", "What you add appears here first, whenever it was taken."] },
  favorites: { title: "Favourites", query: { collection: "favorites" }, actions: ["album", "favorite", "download", "link", "trash"],
    empty: ["No Favourites", "Mark photos and videos as favourites with ♡ in the viewer or with Select."] },
  unsaved: { title: "Captures Not Saved", query: { collection: "unsavedCaptures" }, actions: ["save", "download", "trash"],
    empty: ["No Unsaved Captures", "Photos and videos taken with the camera that nobody saved to the Camera Roll appear here until they expire."],
    note: "Camera captures nobody saved to the Camera Roll. Save them, or they expire after a week." },
  deleted: { title: "Recently Deleted", query: { collection: "recentlyDeleted" }, actions: ["restore", "delete"],
    empty: ["No Recently Deleted Items", "What you delete stays here for 30 days before it is deleted for good."],
    note: "Items are deleted for good 30 days after they were deleted." },
};

let view = null;

// A search of the library: its items whose place, words read in the photo, camera or file name
// holds the text.
function searchView(text) {
  return { title: `“${text}”`, search: text, query: { collection: "library", search: text }, actions: views.library.actions,
    empty: ["No Results", `Nothing in your library matches “${text}”. Search finds places, countries, words in photos, cameras and file names.`] };
}

const searchField = new SearchField(document.querySelector("#search-form"));
searchField.addEventListener("search", ({ detail }) => {
  location.hash = detail.text ? `#/search/${encodeURIComponent(detail.text)}` : "#/library";
});
searchField.addEventListener("year", ({ detail }) => { location.hash = `#/library/${detail.year}`; });
// "/" goes to the search field from anywhere but a field, as in other photo libraries.
document.addEventListener("keydown", (event) => {
  if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest("input, textarea, select, [contenteditable], dialog[open]")) return;
  event.preventDefault();
  searchField.input.focus();
});

// What each role may do with an album's items: a viewer looks, an editor takes out what they
// added, its owner does everything.
const memberActions = { viewer: [], editor: ["remove"] };

function albumView(album) {
  const owned = album.builtIn ? ["album", "favorite", "download", "link", "remove", "trash"]
    : ["album", "favorite", "cover", "download", "link", "remove", "trash"];
  return { title: album.title, album, query: { album: album.id },
    actions: memberActions[album.role] ?? owned,
    empty: ["No Photos or Videos", album.builtIn ? "Photos and videos saved to the Camera Roll appear here." : "Add items to this album with Select and Add to Album."] };
}

// A library a partner shares: seen whole, changed never.
function partnerView(partner) {
  return { title: `${partner.name}'s Library`, query: { partner: partner.id }, actions: [],
    empty: ["No Photos or Videos", `${partner.name} shares their library with you; it has nothing in it yet.`] };
}

// The libraries shared with one, as views of their own beside one's albums.
async function showPartnerLinks() {
  const { sharedWithMe } = await json("/api/partners");
  const nav = document.querySelector("#views");
  nav.querySelectorAll("[data-partner]").forEach((link) => link.remove());
  const albums = nav.querySelector('[data-view="albums"]');
  albums.after(...sharedWithMe.map((partner) => {
    const link = document.createElement("a");
    link.href = `#/partner/${partner.id}`;
    link.dataset.view = `partner/${partner.id}`;
    link.dataset.partner = partner.name;
    link.textContent = `${partner.name}'s Library`;
    return link;
  }));
  return sharedWithMe;
}

// The view the URL's hash names: #/library (#/library/<year> at that year), #/recent,
// #/favorites, #/albums, #/album/<id>, #/partner/<id>, #/unsaved, #/deleted, #/search/<text>. Anything else (a skip link's #grid) leaves the view
// as it is.
async function route() {
  const hash = location.hash || "#/library";
  if (!hash.startsWith("#/")) return;
  const [name, id] = hash.slice(2).split("/");
  setSelecting(false);
  // A partner's view is among the links once the list of them is in.
  const partners = name === "partner" ? await partnersShown : [];
  document.querySelectorAll("#views a").forEach((link) => {
    const current = link.dataset.view === name || link.dataset.view === hash.slice(2) || (name === "album" && link.dataset.view === "albums");
    if (current) {
      link.setAttribute("aria-current", "page");
      revealInRow(link);
    } else {
      link.removeAttribute("aria-current");
    }
  });
  try {
    if (name === "albums") return await showAlbums();
    if (name === "album") return await showView(albumView(await json(`/api/albums/${encodeURIComponent(id)}`)));
    if (name === "partner") {
      const partner = partners.find((shared) => String(shared.id) === id);
      if (!partner) throw new Error("That library is not shared with you.");
      return await showView(partnerView(partner));
    }
    if (name === "search" && id) return await showView(searchView(decodeURIComponent(id)));
    await showView(views[name] ?? views.library);
    if (name === "library" && /^\d{4}$/.test(id ?? "")) timeline.jumpTo(`${id}-12-31`);
  } catch (error) {
    status.textContent = `The library could not be loaded: ${error.message}`;
  }
}

// On a phone the views are one row that scrolls sideways: the current one is scrolled into it
// (only the row moves; scrollIntoView would move the page too).
function revealInRow(link) {
  const row = link.parentElement;
  const box = link.getBoundingClientRect();
  const edge = row.getBoundingClientRect();
  if (box.left < edge.left) row.scrollLeft -= edge.left - box.left;
  else if (box.right > edge.right) row.scrollLeft += box.right - edge.right;
}

async function showView(next) {
  view = next;
  searchField.show(next.search ?? "");
  document.body.classList.toggle("in-album", Boolean(next.album));
  title.textContent = next.title;
  document.title = next.title;
  albumList.hidden = true;
  frame.hidden = false;
  selectButton.hidden = false;
  showAlbumBar(next.album);
  const note = document.querySelector("#view-note");
  note.textContent = next.note ?? "";
  note.hidden = !next.note;
  grid.setAttribute("aria-label", next.title);
  await timeline.show(next.query);
}

timeline.addEventListener("shown", ({ detail }) => {
  document.querySelector("#trash-bar").hidden = view !== views.deleted || detail.count === 0;
  empty.hidden = detail.count > 0;
  frame.hidden = detail.count === 0;
  if (detail.count === 0) {
    document.querySelector("#empty-title").textContent = view.empty[0];
    document.querySelector("#empty-hint").textContent = view.empty[1];
  }
  drawScrubber();
});
timeline.addEventListener("failed", ({ detail }) => { status.textContent = `The library could not be loaded: ${detail.message}`; });
timeline.addEventListener("open", ({ detail }) => viewer.open(detail.index));
timeline.addEventListener("selection", showSelection);
timeline.addEventListener("selectall", () => selectAll());
timeline.addEventListener("scrolled", ({ detail }) => {
  currentDate.textContent = detail.day && !detail.headingShown ? monthName(detail.day) : "";
  placeScrubberThumb(detail.day);
  followScroll();
});

// Select mode.
function setSelecting(selecting) {
  timeline.setSelecting(selecting);
}

function showSelection() {
  const selecting = timeline.selecting;
  selectButton.textContent = selecting ? "Cancel" : "Select";
  selectButton.setAttribute("aria-pressed", String(selecting));
  selectionBar.hidden = !selecting;
  const count = timeline.selected.size;
  selectionCount.textContent = count === 0 ? "Select items" : `${count.toLocaleString()} selected`;
  const allowed = new Set(view?.actions ?? []);
  // A partner's items shown in one's Library are seen, downloaded, never changed.
  const othersSelected = selectedAssets().some((asset) => !actions.owns(asset));
  for (const button of selectionBar.querySelectorAll("[data-action]")) {
    const action = button.dataset.action;
    button.hidden = !["all", "done"].includes(action) && !allowed.has(action);
    button.disabled = !["all", "done"].includes(action)
      && (count === 0 || (action === "cover" && count !== 1) || (othersSelected && changesOwnItems.has(action)));
  }
  const favorite = selectionBar.querySelector("[data-action=favorite]");
  favorite.querySelector(".label").textContent = allFavorite() ? "Unfavourite" : "Favourite";
  // Filled when pressing it takes the favourites away.
  favorite.classList.toggle("filled", allFavorite());
}

function selectedAssets() {
  return timeline.items?.assets.filter((asset) => asset && timeline.selected.has(asset.id)) ?? [];
}

function allFavorite() {
  const assets = selectedAssets();
  return assets.length > 0 && assets.every((asset) => asset.favorite);
}

async function selectAll() {
  if (timeline.count > 10000) {
    status.textContent = "At most 10,000 items can be changed at once; select a day or a range instead.";
    return;
  }
  status.textContent = timeline.count > 500 ? "Selecting…" : "";
  await timeline.selectRange(0, timeline.count - 1, true);
  status.textContent = "";
}

selectButton.addEventListener("click", () => setSelecting(!timeline.selecting));
const shortcuts = document.querySelector("#shortcuts");
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && timeline.selecting && !document.querySelector("dialog[open]")) setSelecting(false);
  // ? shows the keyboard shortcuts, from the grid and the viewer alike.
  if (event.key === "?" && !event.target.closest("input, textarea, select") && !shortcuts.open) {
    event.preventDefault();
    shortcuts.showModal();
  }
});

// What the buttons do, for the selection bar and the viewer alike.
// Who is looking (GET /api/session's user): their own items are theirs to change.
let me = null;

// The most ids one change names (the server's Library.maxBatch).
const maxBatch = 10000;
const trash = (ids) => sendJSON("/api/assets/trash", "POST", { ids });
const restore = (ids) => sendJSON("/api/assets/restore", "POST", { ids });

const actions = {
  owns: (asset) => !me || asset.owner === me.id,
  favorite: (ids, favorite) => sendJSON("/api/assets/favorite", "POST", { ids, favorite }),
  remove: (ids) => trash(ids).then(() => refresh(`Moved ${count(ids)} to Recently Deleted.`,
    () => restore(ids).then(() => refresh(`${count(ids)} back from Recently Deleted.`)))),
};

// The actions that change items, which only their owner may do.
const changesOwnItems = new Set(["album", "favorite", "link", "trash"]);

const items = (number) => (number === 1 ? "1 item" : `${number.toLocaleString()} items`);
const count = (ids) => items(ids.length);

async function perform(action) {
  const ids = [...timeline.selected];
  const run = {
    all: () => selectAll(),
    done: () => setSelecting(false),
    album: () => chooseAlbum(ids),
    save: () => addToAlbum("cameraRoll", ids, () => `Saved ${count(ids)} to the Camera Roll.`),
    favorite: async () => {
      const favorite = !allFavorite();
      // Only those this changes are changed back.
      const changed = selectedAssets().filter((asset) => asset.favorite !== favorite).map((asset) => asset.id);
      await actions.favorite(ids, favorite);
      await refresh(favorite ? `Marked ${count(ids)} as favourites.` : `${count(ids)} no longer favourites.`,
        () => actions.favorite(changed, !favorite).then(() => refresh("Favourites as they were.")));
    },
    cover: async () => {
      const before = view.album.coverAssetID ?? null;
      await sendJSON(`/api/albums/${view.album.id}`, "PATCH", { coverAssetID: ids[0] });
      await refresh("That item is the album's cover now.",
        () => sendJSON(`/api/albums/${view.album.id}`, "PATCH", { coverAssetID: before }).then(() => refresh("The cover as it was.")));
    },
    remove: async () => {
      const album = view.album.id;
      await sendJSON(`/api/albums/${album}/assets/remove`, "POST", { ids });
      await refresh(`Took ${count(ids)} out of the album.`,
        () => sendJSON(`/api/albums/${album}/assets`, "POST", { ids }).then(() => refresh(`${count(ids)} back in the album.`)));
    },
    download: () => download(ids),
    link: () => offerLink({ assetIDs: ids }, count(ids)),
    trash: () => actions.remove(ids),
    restore: () => restore(ids).then(() => refresh(`Restored ${count(ids)}.`,
      () => trash(ids).then(() => refresh(`${count(ids)} back in Recently Deleted.`)))),
    delete: async () => {
      if (!confirm(`Delete ${count(ids)} for good? This cannot be undone.`)) return;
      await sendJSON("/api/assets/delete", "POST", { ids });
      await refresh(`Deleted ${count(ids)} for good.`);
    },
  }[action];
  await attempt(run);
}

// A change, its failure said on the status line.
async function attempt(run) {
  try {
    await run();
  } catch (error) {
    status.textContent = `That did not work: ${error.message}`;
  }
}

selectionBar.addEventListener("click", (event) => {
  const button = event.target.closest("[data-action]");
  if (button) perform(button.dataset.action);
});

// The view again after a change, keeping the place on screen and select mode (the selection
// done with); `message` says what was done, with Undo when `undo` takes it back (without one,
// the status line stays as it is: an upload's progress).
async function refresh(message = null, undo = null) {
  const top = grid.scrollTop;
  await timeline.show(view.query);
  grid.scrollTop = top;
  if (timeline.selected.size > 0) timeline.toggle([...timeline.selected], false);
  if (message) {
    status.textContent = "";
    snackbar.show(message, undo);
  }
}

// Recently Deleted as a whole. Recover All's Undo moves the same items back (their 30 days
// start again); Delete All is asked first and cannot be undone.
document.querySelector("#recover-all").addEventListener("click", () => attempt(async () => {
  const { ids } = await json("/api/trash/restore", { method: "POST" });
  await refresh(`Recovered ${count(ids)}.`, async () => {
    for (let start = 0; start < ids.length; start += maxBatch) await trash(ids.slice(start, start + maxBatch));
    await refresh(`${count(ids)} back in Recently Deleted.`);
  });
}));
document.querySelector("#delete-all").addEventListener("click", () => attempt(async () => {
  if (!confirm(`Delete ${items(timeline.count)} for good? This cannot be undone.`)) return;
  const { changed } = await json("/api/trash/empty", { method: "POST" });
  await refresh(`Deleted ${items(changed)} for good.`);
}));

// A zip of the originals, streamed by the server straight to the browser's downloads.
async function download(ids) {
  const prepared = await sendJSON("/api/downloads", "POST", { ids });
  const link = document.createElement("a");
  link.href = prepared.url;
  link.download = prepared.filename ?? "";
  document.body.append(link);
  link.click();
  link.remove();
  snackbar.show(`Downloading ${count(ids)} (${(prepared.size / 1e6).toFixed(1)} MB).`);
}

// Albums: the grid of albums, the chooser for Add to Album, and the album's own actions.
async function showAlbums() {
  view = null;
  searchField.show("");
  document.body.classList.remove("in-album");
  title.textContent = "Albums";
  document.title = "Albums";
  frame.hidden = true;
  empty.hidden = true;
  selectButton.hidden = true;
  document.querySelector("#album-bar").hidden = true;
  document.querySelector("#view-note").hidden = true;
  const { albums } = await json("/api/albums");
  const cards = albums.map((album) => {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `#/album/${encodeURIComponent(album.id)}`;
    link.className = "album-card";
    const cover = document.createElement(album.cover ? "img" : "span");
    cover.className = "cover";
    if (album.cover) {
      cover.src = album.cover;
      cover.alt = "";
    }
    const name = document.createElement("span");
    name.className = "album-title";
    name.textContent = album.title;
    const size = document.createElement("span");
    size.className = "album-count";
    const sharedBy = album.role === "owner" ? "" : ` · Shared by ${album.owner.name}`;
    size.textContent = album.count.toLocaleString() + sharedBy;
    link.setAttribute("aria-label", `${album.title}, ${album.count.toLocaleString()} ${album.count === 1 ? "item" : "items"}${sharedBy ? `, shared by ${album.owner.name}` : ""}`);
    link.append(cover, name, size);
    item.append(link);
    return item;
  });
  const create = document.createElement("li");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "album-card new";
  button.textContent = "New Album";
  button.addEventListener("click", async () => {
    const name = await askTitle("New Album", "");
    if (!name) return;
    try {
      const album = await sendJSON("/api/albums", "POST", { title: name });
      location.hash = `#/album/${album.id}`;
    } catch (error) {
      status.textContent = `The album could not be made: ${error.message}`;
    }
  });
  create.append(button);
  albumList.replaceChildren(...cards, create);
  albumList.hidden = false;
}

// A title from the user in a small dialog; null when cancelled.
function askTitle(heading, current) {
  const dialog = document.querySelector("#album-name");
  dialog.querySelector("h2").textContent = heading;
  const input = dialog.querySelector("input");
  input.value = current;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok" ? input.value.trim() : null), { once: true });
  });
}

// Enter in the chooser's title field adds to a new album (the form's first button is an album).
document.querySelector("#album-chooser input").addEventListener("keydown", (event) => {
  if (event.key !== "Enter") return;
  event.preventDefault();
  document.querySelector("#album-chooser").close("new");
});

async function chooseAlbum(ids) {
  const dialog = document.querySelector("#album-chooser");
  const { albums } = await json("/api/albums");
  const choices = albums.filter((album) => album.id !== view.album?.id && album.role !== "viewer").map((album) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "submit";
    button.className = "album-choice";
    button.value = `album:${album.id}`;
    button.textContent = `${album.title} (${album.count.toLocaleString()})`;
    item.append(button);
    return item;
  });
  dialog.querySelector(".album-choices").replaceChildren(...choices);
  const input = dialog.querySelector("input");
  input.value = "";
  dialog.returnValue = "";
  dialog.showModal();
  const answer = await new Promise((resolve) => dialog.addEventListener("close", () => resolve(dialog.returnValue), { once: true }));
  let album = null;
  if (answer === "new") {
    if (!input.value.trim()) return;
    album = await sendJSON("/api/albums", "POST", { title: input.value.trim() });
  } else if (answer.startsWith("album:")) {
    album = { id: answer.slice(6) };
  } else {
    return;
  }
  await addToAlbum(album.id, ids, (filled) => `Added ${count(ids)} to ${filled.title}.`);
}

// Adds to an album (`said(album)` tells it), with an Undo that takes out only what the add put
// there (the server's `added`).
async function addToAlbum(id, ids, said) {
  const filled = await sendJSON(`/api/albums/${id}/assets`, "POST", { ids });
  await refresh(said(filled), filled.added.length === 0 ? null
    : () => sendJSON(`/api/albums/${id}/assets/remove`, "POST", { ids: filled.added }).then(() => refresh(`Took them out of ${filled.title} again.`)));
}

// The album's own actions: its owner's (share, rename, delete), or a member's (who shared it,
// leave); none for the Camera Roll.
function showAlbumBar(album) {
  const bar = document.querySelector("#album-bar");
  bar.hidden = !album || album.builtIn;
  if (bar.hidden) return;
  const owned = album.role === "owner";
  bar.querySelectorAll("[data-role]").forEach((control) => { control.hidden = (control.dataset.role === "owner") !== owned; });
  document.querySelector("#album-shared-by").textContent = owned ? "" :
    `Shared by ${album.owner.name}${album.role === "viewer" ? " · you can view" : " · you can add your own"}`;
}

// `showMembers(change, said)`: runs a change, then lists the members as they are after it.
function memberRow(albumID, member, showMembers) {
  const item = document.createElement("li");
  const name = document.createElement("span");
  name.className = "member-name";
  name.textContent = member.user.name;
  item.append(name);
  if (member.role === "owner") {
    const role = document.createElement("span");
    role.className = "member-role";
    role.textContent = "Owner";
    item.append(role);
    return item;
  }
  const role = document.createElement("select");
  role.setAttribute("aria-label", `What ${member.user.name} can do`);
  role.append(new Option("View", "viewer"), new Option("Add and view", "editor"));
  role.value = member.role;
  role.addEventListener("change", () => showMembers(sendJSON(`/api/albums/${albumID}/members`, "POST", { user: member.user.name, role: role.value }),
    `${member.user.name} can ${role.value === "editor" ? "add and view" : "view"} now.`));
  const remove = plainButton("Remove", `Stop sharing with ${member.user.name}`,
    () => showMembers(json(`/api/albums/${albumID}/members/${member.user.id}`, { method: "DELETE" }), `${member.user.name} no longer sees this album.`),
    "plain danger");
  item.append(role, remove);
  return item;
}

document.querySelector("#share-album").addEventListener("click", async () => {
  const dialog = document.querySelector("#album-share");
  const albumID = view.album.id;
  const said = dialog.querySelector(".share-status");
  dialog.querySelector("h2").textContent = `Share “${view.album.title}”`;
  said.textContent = "";
  // Runs a change, then shows the members as they are after it.
  const showMembers = async (change, done) => {
    try {
      if (change) await change;
      const { members } = await json(`/api/albums/${albumID}/members`);
      dialog.querySelector(".album-members").replaceChildren(...members.map((member) => memberRow(albumID, member, showMembers)));
      if (done) said.textContent = done;
    } catch (error) {
      said.textContent = error.message;
    }
  };
  await showMembers(null, "");
  const name = dialog.querySelector("#share-name");
  name.value = "";
  dialog.returnValue = "";
  dialog.showModal();
  // Share keeps the sheet open for the next person; Done or Escape closes it.
  dialog.querySelector("form").onsubmit = async (event) => {
    if (event.submitter?.value !== "share") return;
    event.preventDefault();
    const user = name.value.trim();
    if (!user) {
      said.textContent = "Type the name of someone here to share with.";
      return;
    }
    const role = dialog.querySelector("#share-role").value;
    await showMembers(sendJSON(`/api/albums/${albumID}/members`, "POST", { user, role }),
      `${user} can ${role === "editor" ? "add and view" : "view"} this album.`);
    name.value = "";
  };
});

document.querySelector("#link-album").addEventListener("click", () =>
  offerLink({ albumID: view.album.id }, `“${view.album.title}”`).catch((error) => { status.textContent = error.message; }));

document.querySelector("#leave-album").addEventListener("click", async () => {
  if (!confirm(`Leave “${view.album.title}”? What you added to it leaves with you; it stays in your library.`)) return;
  try {
    const { user } = await json("/api/session");
    await json(`/api/albums/${view.album.id}/members/${user.id}`, { method: "DELETE" });
    location.hash = "#/albums";
  } catch (error) {
    status.textContent = `You could not leave the album: ${error.message}`;
  }
});

document.querySelector("#rename-album").addEventListener("click", async () => {
  const name = await askTitle("Rename Album", view.album.title);
  if (!name) return;
  try {
    const album = await sendJSON(`/api/albums/${view.album.id}`, "PATCH", { title: name });
    view.album = album;
    showAlbumBar(album);
    title.textContent = album.title;
    document.title = album.title;
  } catch (error) {
    status.textContent = `The album could not be renamed: ${error.message}`;
  }
});
document.querySelector("#delete-album").addEventListener("click", async () => {
  if (!confirm(`Delete the album “${view.album.title}”? Its photos and videos stay in the library.`)) return;
  try {
    await json(`/api/albums/${view.album.id}`, { method: "DELETE" });
    location.hash = "#/albums";
  } catch (error) {
    status.textContent = `The album could not be deleted: ${error.message}`;
  }
});

// The scrubber: one mark a year, the thumb where the screen is; a click or a drag jumps to
// that month, and as a slider its arrow keys go a month at a time, Page Up and Down a year.
function drawScrubber() {
  const months = timeline.months;
  scrubber.hidden = months.length < 2;
  scrubber.querySelectorAll(".year").forEach((mark) => mark.remove());
  scrubber.setAttribute("aria-valuemin", "0");
  scrubber.setAttribute("aria-valuemax", String(Math.max(0, months.length - 1)));
  const height = timeline.layout?.height || 1;
  let year = null;
  for (const month of months) {
    if (month.month.slice(0, 4) === year) continue;
    year = month.month.slice(0, 4);
    const mark = document.createElement("span");
    mark.className = "year";
    mark.textContent = year;
    mark.style.top = `${(month.top / height) * 100}%`;
    scrubber.append(mark);
  }
  placeScrubberThumb(timeline.currentDay);
}

function monthIndexOf(day) {
  const months = timeline.months;
  const index = months.findIndex((month) => day && month.month <= day.slice(0, 7));
  return index === -1 ? months.length - 1 : index;
}

function placeScrubberThumb(day) {
  const months = timeline.months;
  if (!day || months.length === 0) return;
  const index = monthIndexOf(day);
  const month = months[index];
  scrubber.setAttribute("aria-valuenow", String(index));
  scrubber.setAttribute("aria-valuetext", monthName(month.day));
  const height = timeline.layout?.height || 1;
  scrubber.querySelector(".scrubber-thumb").style.top = `${((timeline.viewport?.top ?? 0) / height) * 100}%`;
}

function scrubTo(clientY) {
  const box = scrubber.getBoundingClientRect();
  const fraction = Math.max(0, Math.min(1, (clientY - box.top) / box.height));
  const months = timeline.months;
  const y = fraction * (timeline.layout?.height ?? 0);
  // The month whose place is nearest above the pointer's share of the whole timeline.
  const month = [...months].reverse().find((candidate) => candidate.top <= y) ?? months[0];
  if (month) grid.scrollTop = month.top;
}

scrubber.addEventListener("pointerdown", (event) => {
  scrubber.setPointerCapture(event.pointerId);
  scrubber.classList.add("dragging");
  scrubTo(event.clientY);
  const move = (moved) => scrubTo(moved.clientY);
  scrubber.addEventListener("pointermove", move);
  const up = () => {
    scrubber.removeEventListener("pointermove", move);
    scrubber.classList.remove("dragging");
    showScrubberAWhile();
  };
  scrubber.addEventListener("pointerup", up, { once: true });
  scrubber.addEventListener("pointercancel", up, { once: true });
});

// On a phone the scrubber is a handle that shows while the photos move, and a while after,
// for a finger to take; its look is the style sheet's.
let scrubberTimer = null;
function showScrubberAWhile() {
  scrubber.classList.add("shown");
  clearTimeout(scrubberTimer);
  scrubberTimer = setTimeout(() => scrubber.classList.remove("shown"), 1500);
}

// On a phone the bar tucks away while the photos scroll down and comes back when they scroll
// up (or reach the top), as Photos apps do; its height is the style sheet's to move it by. Run
// from the timeline's render (once a frame), with the place that render read: no layout here.
const header = document.querySelector(".photos-app > .bar");
let barHeight = 0;
new ResizeObserver(([entry]) => {
  barHeight = entry.borderBoxSize[0].blockSize;
  document.body.style.setProperty("--bar-height", `${barHeight}px`);
}).observe(header);
let lastTop = 0;
function followScroll() {
  const { top, height } = timeline.viewport;
  if (Math.abs(top - lastTop) < 8) return;
  // Tucked only where the photos can take its room and still scroll as far: near the end of a
  // short view, the taller grid would pull the scroll back and bring the bar back at once.
  const tucked = document.body.classList.contains("tucked");
  const room = timeline.layout.height - height - (tucked ? 0 : barHeight);
  document.body.classList.toggle("tucked", top > lastTop && top > barHeight && top <= room);
  lastTop = top;
  showScrubberAWhile();
}
scrubber.addEventListener("keydown", (event) => {
  const months = timeline.months;
  const index = monthIndexOf(timeline.currentDay);
  const target = { ArrowUp: index - 1, ArrowDown: index + 1, PageUp: index - 12, PageDown: index + 12, Home: 0, End: months.length - 1 }[event.key];
  if (target === undefined) return;
  event.preventDefault();
  const month = months[Math.max(0, Math.min(months.length - 1, target))];
  grid.scrollTop = month.top;
});

// The skip link lands on the grid's item in focus, as Tab would.
document.querySelector(".skip-link").addEventListener("click", (event) => {
  event.preventDefault();
  timeline.focusItem(timeline.focusIndex);
});

const viewer = new Viewer(document.querySelector("#viewer"), timeline, actions);
// An edit changes the item's thumbnails (their URLs name it): the view is read again.
viewer.addEventListener("edited", () => refresh());
viewer.addEventListener("closed", ({ detail }) => {
  if (detail.index != null && timeline.count > 0) timeline.focusItem(Math.min(detail.index, timeline.count - 1));
});

offerSignOut(document.querySelector("#sign-out"));

// After a share from another app (the server's /share lands here): what came, said once, and
// the note taken off the address so a reload does not say it again.
function sayWhatWasShared() {
  const params = new URLSearchParams(location.search);
  if (!params.has("shared")) return;
  const added = Number(params.get("shared"));
  const refused = Number(params.get("refused") ?? 0);
  const reason = params.get("reason");
  status.textContent = params.get("shared") === "again"
    ? "You were signed out, so nothing shared came through: share it again."
    : [
      added > 0 ? `${items(added)} shared into your library.` : "Nothing shared was added.",
      refused > 0 ? `${items(refused)} refused${reason ? ` (${reason})` : ""}.` : "",
    ].join(" ").trim();
  history.replaceState(history.state, "", location.pathname + location.hash);
}

// Who looks, and the libraries shared with them, asked beside the first view (the viewer asks
// `owns` only once someone opens an item; a partner's view waits for the list).
const partnersShown = showPartnerLinks().catch(() => []);
json("/api/session").then((session) => { me = session.user ?? null; }).catch(() => {});
window.addEventListener("hashchange", route);
await route();
sayWhatWasShared();

// A new item: the view is read again (once for a burst of uploads), and it takes its place.
let reread = null;
startUploads({
  status,
  onAdded: () => {
    clearTimeout(reread);
    reread = setTimeout(() => { if (view && !timeline.selecting) refresh(); }, 500);
  },
  onShow: async (id) => {
    const asset = await json(`/api/assets/${id}`);
    const index = timeline.indexOf(asset.id);
    if (index >= 0) viewer.open(index);
    else viewer.openAsset(asset);
  },
});
