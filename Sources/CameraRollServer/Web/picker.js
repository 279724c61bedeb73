// The picker page: one session of the picker service (/api/picker/sessions/<id>). The page
// reports the user's steps as events; the server's state machine answers with the screen to
// show next, builds the result info from the library, and whoever presented the picker
// long-polls for it. An opener or embedding page also hears the end through postMessage.
import { json, sendJSON } from "./api.js";
import { Camera, CameraUnavailable, cameraProblem, hasCamera } from "./camera.js";
import { MoveAndScale } from "./move-and-scale.js";
import { describe, privacyChoice, remember, startPrivacy } from "./pick-privacy.js";
import { arrowKeys } from "./radio-group.js";
import { SearchField } from "./search-field.js";
import { Timeline } from "./timeline.js";
import { Trim } from "./trim.js";

const sessionID = location.pathname.split("/").pop();
const api = `/api/picker/sessions/${sessionID}`;
const picker = document.querySelector("#picker");
const grid = document.querySelector("#grid");
const status = document.querySelector("#status");
const bookMessage = "Device doesn't support that media source.";
let configuration = null;
// The other site the picker is for ({origin, name}), when it is not for a page of ours.
let client = null;
let source = null;
let libraryScroll = 0;
// The library's grid is the Photos app's timeline; a tap on an item is a pick (or, in a
// multiple selection, selects it), and the picker's selection is what the grid shows selected.
const timeline = new Timeline(grid, { label: "Library", selectable: false });

// /picker/offline is the camera without a server (picker-client.js opens it when the server
// cannot be reached): captures go to the outbox and the page reports them as queued.
const offline = sessionID === "offline";
const camera = new Camera(document.querySelector("#camera"), {
  onUse: (asset) => step("choose", asset.id),
  onQueued: offline ? (outboxID) => end({ status: "queued", outboxID }) : null,
});
const editor = new MoveAndScale(document.querySelector("#editor"), { onChoose: finishCrop, onBack: () => step("back") });
const trim = new Trim(document.querySelector("#trim"), { onChoose: finishTrim, onBack: () => step("back") });

for (const group of document.querySelectorAll('[role="radiogroup"]')) arrowKeys(group);

function show(screen) {
  if (picker.dataset.screen === "library") libraryScroll = grid.scrollTop;
  picker.dataset.screen = screen;
  document.querySelector("#library").hidden = screen !== "library";
  if (screen !== "camera") camera.close();
  if (screen !== "editor") editor.close();
  if (screen !== "trim") trim.close();
  document.querySelector("#done").hidden = screen !== "done";
  status.textContent = "";
  if (screen === "library") grid.scrollTop = libraryScroll;
}

// Sends an event and carries out the actions the session answers with.
async function step(event, assetID, extra = {}) {
  try {
    // What is picked goes with the privacy switches as they are now.
    const privacy = ["choose", "add", "edited"].includes(event) ? privacyChoice() : {};
    const session = await sendJSON(`${api}/events`, "POST", { event, ...(assetID ? { assetID } : {}), ...privacy, ...extra });
    for (const action of session.actions ?? []) await perform(action, session);
  } catch (error) {
    status.textContent = `That did not work: ${error.message}`;
  }
}

async function perform(action, session) {
  switch (action.action) {
    case "showLibrary": return show("library");
    case "showCamera": return openCamera();
    case "showEditor": return openEditor(action.assetID);
    default: return end(session);
  }
}

async function openCamera() {
  show("camera");
  try {
    await camera.open(configuration);
  } catch (error) {
    if (!(error instanceof CameraUnavailable)) throw error;
    alertUnavailable(error.message);
  }
}

async function openEditor(assetID) {
  const asset = await json(`/api/assets/${assetID}`);
  const back = configuration.sourceType === "camera" ? "Retake" : "Back";
  if (asset.mediaType === "public.movie") {
    show("trim");
    await trim.open(asset, back);
  } else {
    show("editor");
    editor.open({ id: asset.id, width: asset.width, height: asset.height, display: asset.urls.display }, back);
  }
}

// The edit goes with the pick, to the caller; the library's asset stays as it is.
async function finishCrop(asset, cropRect) {
  await step("edited", asset.id, { edit: { cropRect } });
}

async function finishTrim(asset, range) {
  await step("edited", asset.id, { edit: range.whole ? {} : { trim: { start: range.start, end: range.end } } });
}

// Tells whoever presented the picker: our own page (opener or frame), or the other site's page
// that opened this window, at that site's origin only.
function end(session) {
  const message = {
    picker: sessionID, status: session.status, info: session.info ?? null, results: session.results ?? null,
    outboxID: session.outboxID ?? null,
  };
  if (client) {
    window.opener?.postMessage(message, client.origin);
  } else {
    for (const host of new Set([window.opener, window.parent !== window ? window.parent : null])) {
      host?.postMessage(message, location.origin);
    }
  }
  show("done");
  document.querySelector("#albums").hidden = true;
  addButton.hidden = true;
}

function alertUnavailable(message = bookMessage) {
  document.querySelector("#alert-message").textContent = message;
  document.querySelector("#alert").hidden = false;
  document.querySelector("#drat").focus();
}

async function cancel() {
  const session = await sendJSON(`${api}/events`, "POST", { event: "cancel" }).catch(() => null);
  end(session ?? { status: "cancelled" });
}

document.querySelector("#drat").addEventListener("click", () => {
  document.querySelector("#alert").hidden = true;
  cancel();
});
document.querySelector("#cancel").addEventListener("click", cancel);
document.addEventListener("keydown", (event) => {
  // The search field's Escape closes its suggestions or clears it first (and says so).
  if (event.key === "Escape" && !event.defaultPrevented && picker.dataset.screen !== "done") cancel();
});

timeline.addEventListener("open", ({ detail }) => {
  remember([detail.asset]);
  choose(detail.asset);
});
timeline.addEventListener("shown", ({ detail }) => {
  if (detail.count === 0) return showEmpty();
  // What the line above the grid says of preselected items, read with the first screen.
  remember(timeline.loaded);
  markSelection();
  jump();
});
timeline.addEventListener("failed", ({ detail }) => {
  status.textContent = `The library could not be loaded: ${detail.message}`;
});

// PHPicker's multiple selection, when the configuration allows more than one item: a tap
// selects or deselects, Add finishes with the items in the order they were selected.
let selected = [];
const addButton = document.querySelector("#add");

function multiple() {
  return configuration.selectionLimit > 1;
}

function choose(asset) {
  if (!multiple()) return step("choose", asset.id);
  const at = selected.indexOf(asset.id);
  if (at >= 0) selected.splice(at, 1);
  else if (selected.length < configuration.selectionLimit) selected.push(asset.id);
  else status.textContent = `You can select up to ${configuration.selectionLimit} items.`;
  markSelection();
}

function markSelection() {
  if (!multiple()) return;
  timeline.mark(selected, { numbered: configuration.selection === "ordered" });
  addButton.disabled = selected.length === 0;
  addButton.textContent = selected.length ? `Add (${selected.length})` : "Add";
  addButton.setAttribute("aria-label", `Add ${selected.length} of at most ${configuration.selectionLimit}`);
  describe(selected);
  if (selected.length < configuration.selectionLimit && status.textContent.startsWith("You can select")) status.textContent = "";
}

addButton.addEventListener("click", () => {
  if (selected.length) step("add", null, { assetIDs: [...selected] });
});

// What the picker's title says, as UIImagePickerController's does: the album shown, and
// "Videos" for a library that offers only movies.
function libraryTitle(name) {
  if (name === "savedPhotosAlbum") return "Camera Roll";
  return configuration.mediaTypes.every((type) => type === "public.movie") ? "Videos" : "Photos";
}

// The media types a listing holds: a Live Photo (com.apple.live-photo) is a photo there.
function listedTypes() {
  return configuration.mediaTypes.filter((type) => type.startsWith("public."));
}

// What the picker offers, in words: "photos or videos", "videos" or "photos" (or one of them).
function offered({ several }) {
  const kinds = listedTypes();
  if (kinds.length > 1) return several ? "photos or videos" : "a photo or video";
  if (kinds[0] === "public.movie") return several ? "videos" : "a video";
  return several ? "photos" : "a photo";
}

// What a source's listing holds, as /api/assets and /api/timeline take it: the media types
// offered, of the kinds the filter admits.
function sourceQuery(name) {
  const query = new URLSearchParams({ source: name, mediaTypes: listedTypes().join(",") });
  if (configuration.filter) query.set("filter", JSON.stringify(configuration.filter));
  return query;
}

// The search box lists the source again as one types (and suggests places, countries, cameras
// and years of the library); the month and year jumps scroll the grid to the
// newest item of that month or year, or the newest before it, as the Photos app's scrubber
// does. The month, when one is set, is the finer of the two, so setting either clears the other.
const searchBox = document.querySelector("#search");
const monthBox = document.querySelector("#month");
const yearBox = document.querySelector("#year");

function finding() {
  const month = monthBox.value || (yearBox.value ? `${yearBox.value}-12` : "");
  return { search: searchBox.value.trim(), month, period: monthBox.value ? "month" : "year" };
}

function jump() {
  const { month, period } = finding();
  if (!month || timeline.count === 0) return;
  const found = timeline.jumpTo(`${month}-31`);
  status.textContent = found ? "" : `Nothing here is from that ${period} or before; the oldest items are shown.`;
}

// The years the source holds, newest first, from its timeline's days; asked again only when
// the source changes. The year chosen stays chosen if the new source holds it too.
let yearsOf = null;
async function listYears(name) {
  if (yearsOf === name) return;
  yearsOf = name;
  try {
    const { days } = await json(`/api/timeline?${sourceQuery(name)}`);
    if (yearsOf !== name) return;
    const years = [...new Set(days.map(({ day }) => day.slice(0, 4)))];
    const chosen = yearBox.value;
    yearBox.replaceChildren(new Option("Any year", ""), ...years.map((year) => new Option(year, year)));
    yearBox.value = years.includes(chosen) ? chosen : "";
  } catch {
    // Without the years, the month jump still goes anywhere; the next source asks again.
    yearsOf = null;
  }
}

let typing = null;
searchBox.addEventListener("input", () => {
  clearTimeout(typing);
  typing = setTimeout(() => showSource(source), 250);
});
monthBox.addEventListener("change", () => {
  if (monthBox.value) yearBox.value = "";
  jump();
});
yearBox.addEventListener("change", () => {
  if (yearBox.value) monthBox.value = "";
  jump();
});
// Enter, a suggestion, or Escape's clearing lists at once; a year suggested jumps to it.
const searchField = new SearchField(document.querySelector("#finder"));
searchField.addEventListener("search", () => {
  clearTimeout(typing);
  showSource(source);
});
searchField.addEventListener("year", ({ detail }) => {
  // The whole source again, laid out at the year's newest item (the year jump's own way).
  clearTimeout(typing);
  searchBox.value = "";
  monthBox.value = "";
  if (![...yearBox.options].some((option) => option.value === detail.year)) yearBox.add(new Option(detail.year, detail.year));
  yearBox.value = detail.year;
  showSource(source);
});

// An empty album is an empty state, as in Photos, not the alert for a source the device lacks.
function showEmpty() {
  const { search } = finding();
  if (search) {
    document.querySelector("#empty-title").textContent = "No Results";
    document.querySelector("#empty-hint").textContent = `Nothing here matches “${search}”.`;
    document.querySelector("#empty-add").hidden = true;
    document.querySelector("#empty-state").hidden = false;
    return;
  }
  if (configuration.filter) {
    // A filter of one kind names it; a combination is only "matching".
    const kinds = { images: "Photos", videos: "Videos", livePhotos: "Live Photos", screenshots: "Screenshots", slomoVideos: "Slo-mo Videos" };
    document.querySelector("#empty-title").textContent = `No ${kinds[configuration.filter] ?? "Matching Items"}`;
    document.querySelector("#empty-hint").textContent = "Nothing here is of the kind this site or app asked for.";
    document.querySelector("#empty-add").hidden = true;
    document.querySelector("#empty-state").hidden = false;
    return;
  }
  document.querySelector("#empty-add").hidden = false;
  const noun = offered({ several: true });
  const nouns = noun.replace(" or ", " and ");
  const title = noun.split(" ").map((word) => (word === "or" ? word : word[0].toUpperCase() + word.slice(1))).join(" ");
  document.querySelector("#empty-title").textContent = `No ${title}`;
  document.querySelector("#empty-hint").textContent = source === "savedPhotosAlbum"
    ? `The ${nouns} you take with the camera and save to the Camera Roll appear here.`
    : `The ${nouns} you take with the camera or add to your library appear here.`;
  document.querySelector("#empty-add").textContent = `Add ${nouns} in your library`;
  document.querySelector("#empty-state").hidden = false;
}

function showTitle(title) {
  document.querySelector("#picker-title").textContent = title;
  if (!client) document.title = title;
}

// A newer showing replaces one still on its way (the timeline drops the older answers).
async function showSource(name) {
  source = name;
  showTitle(libraryTitle(name));
  document.querySelector("#empty-state").hidden = true;
  for (const button of document.querySelectorAll("#albums button")) {
    button.setAttribute("aria-pressed", String(button.dataset.source === name));
  }
  listYears(name);
  const query = sourceQuery(name);
  const { search } = finding();
  if (search) query.set("search", search);
  // Another source or search starts at its newest item (then at a jump, once it is laid out).
  grid.scrollTop = 0;
  try {
    await timeline.show(query);
  } catch (error) {
    status.textContent = `The library could not be loaded: ${error.message}`;
  }
}

async function startLibrary(state) {
  if (multiple()) {
    selected = [...configuration.preselectedAssetIdentifiers];
    addButton.hidden = false;
    markSelection();
  }
  if (configuration.sourceType === "photoLibrary") {
    document.querySelector("#albums").hidden = false;
    document.querySelector("#albums [data-source='photoLibrary']").textContent = `All ${libraryTitle("photoLibrary")}`;
    for (const button of document.querySelectorAll("#albums button")) {
      button.addEventListener("click", () => showSource(button.dataset.source));
    }
  }
  await resume(state);
  showSource(configuration.sourceType);
}

async function startCamera(state) {
  const problem = cameraProblem();
  if (problem) return alertUnavailable(problem);
  if (!(await hasCamera())) return alertUnavailable();
  await resume(state);
}

// A reloaded page picks the session up where it was; an editor is left for the screen before it.
async function resume(state) {
  if (state === "presented") return step("open");
  if (state === "editing") return step("back");
  return perform({ action: state === "capturing" ? "showCamera" : "showLibrary" });
}

async function startOffline() {
  configuration = { mediaTypes: ["public.image"], cameraCaptureMode: "photo", cameraDevice: "rear", videoMaximumDuration: 600,
    videoQuality: "medium", ...JSON.parse(decodeURIComponent(location.hash.slice(1)) || "{}") };
  document.querySelector("#picker-title").textContent = "Camera";
  const problem = cameraProblem();
  if (problem) return alertUnavailable(problem);
  if (!(await hasCamera())) return alertUnavailable();
  await openCamera();
  status.textContent = "The server cannot be reached: what you take is kept on this device and uploaded when it is back.";
}

// Whoever gets what is picked is always in view: "Choose a photo for My blog (blog.example)".
function nameTheSite() {
  const several = multiple() && configuration.sourceType !== "camera";
  const noun = several ? `up to ${configuration.selectionLimit} ${offered({ several })}` : offered({ several });
  const line = `${configuration.sourceType === "camera" ? "Take" : "Choose"} ${noun} for ${client.name}`;
  document.querySelector("#picker-for-text").textContent = line;
  document.querySelector("#picker-for-origin").textContent = new URL(client.origin).host;
  document.querySelector("#picker-for").hidden = false;
  document.title = `${line} — CameraRoll`;
}

async function start() {
  if (offline) return startOffline();
  const session = await json(api);
  configuration = session.configuration;
  client = session.client ?? null;
  showTitle(configuration.sourceType === "camera" ? "Camera" : libraryTitle(configuration.sourceType));
  if (client) nameTheSite();
  if (configuration.sourceType !== "camera") startPrivacy(configuration);
  if (session.status !== "pending") return end(session);
  if (configuration.sourceType === "camera") return startCamera(session.state);
  return startLibrary(session.state);
}

start().catch((error) => { status.textContent = `The picker could not start: ${error.message}`; });

// Before a single pick, the item the keyboard is on or the mouse is over says what it carries;
// a multiple selection says it for the items selected. A finger's tap picks at once: nothing
// is said before it.
function describeItemAt(event) {
  const asset = timeline.asset(Number(event.target.closest(".tile[data-asset]")?.dataset.index));
  if (!asset || multiple()) return;
  remember([asset]);
  describe([asset.id]);
}
let touched = false;
grid.addEventListener("pointerdown", (event) => { touched = event.pointerType !== "mouse"; });
grid.addEventListener("focusin", (event) => { if (!touched) describeItemAt(event); });
grid.addEventListener("pointerover", (event) => { if (event.pointerType === "mouse") describeItemAt(event); });
