// The Camera app of the book's chapter: an image view above New Photo or Video and Pick from
// Library. Each presents the picker; on finish the view shows the image shrunk by the server
// to exactly the view's size × devicePixelRatio, or a player for a movie. Cancel changes
// nothing. The last choice is kept in localStorage and shown again after a reload.
import { json } from "./api.js";
import { cameraProblem, hasCamera } from "./camera.js";
import { capture, keep, send, waiting } from "./outbox.js";
import { presentPicker } from "./picker-client.js";
import { offerSignOut } from "./sign-out.js";
import { playableVideoURL, RenditionFailed, retryRendition } from "./video-source.js";

const view = document.querySelector("#view");
const image = document.querySelector("#image");
const placeholder = document.querySelector("#placeholder");
const status = document.querySelector("#status");
const newButton = document.querySelector("#new");
const saveNow = document.querySelector("#save-now");
const retryVideo = document.querySelector("#retry-video");
const saveCaptures = document.querySelector("#save-captures");
// A line of its own, so that the wait for a video never takes the place of "Saved to Camera Roll".
const videoProgress = document.querySelector("#video-progress");
const choiceKey = "cameraroll.lastChoice";
const saveKey = "cameraroll.saveCaptures";
let player = null;
let shownSize = null;

function lastChoice() {
  try {
    return JSON.parse(localStorage.getItem(choiceKey));
  } catch {
    return null;
  }
}

// The view's size in whole CSS pixels: what the server is asked to fit.
function viewSize() {
  const bounds = view.getBoundingClientRect();
  return { width: Math.max(1, Math.round(bounds.width)), height: Math.max(1, Math.round(bounds.height)) };
}

function removePlayer() {
  videoProgress.hidden = true;
  if (!player) return;
  if (player.src.startsWith("blob:")) URL.revokeObjectURL(player.src);
  player.pause();
  player.removeAttribute("src");
  player.load();
  player.remove();
  player = null;
}

function showImage(choice) {
  removePlayer();
  const { width, height } = viewSize();
  const dpr = window.devicePixelRatio;
  shownSize = `${width}x${height}@${dpr}`;
  const size = `w=${width}&h=${height}&dpr=${dpr}`;
  const url = choice.edit ? `/media/${choice.assetID}/edited?edit=${choice.edit}&${size}`
    : choice.edited ? `/media/${choice.assetID}/edited?${size}` : `/media/${choice.assetID}/display?${size}`;
  if (image.dataset.url === url) return;
  image.dataset.url = url;
  const next = new Image();
  next.addEventListener("load", () => {
    if (image.dataset.url !== url) return;
    image.src = url;
    // Device pixels shown one to one: the CSS size is the pixel size over the ratio.
    image.style.width = `${next.naturalWidth / dpr}px`;
    image.style.height = `${next.naturalHeight / dpr}px`;
    image.alt = choice.edit || choice.edited ? "The chosen photo, cropped" : "The chosen photo";
    image.hidden = false;
    placeholder.hidden = true;
  });
  next.addEventListener("error", () => {
    if (image.dataset.url !== url) return;
    image.hidden = true;
    placeholder.hidden = false;
    placeholder.textContent = "The last photo is no longer in the library.";
  });
  next.src = url;
}

// A new player each time, as the book makes a new MPMoviePlayerController; the image view and
// the player never show at once.
function newPlayer(label) {
  image.hidden = true;
  image.removeAttribute("src");
  delete image.dataset.url;
  removePlayer();
  placeholder.hidden = true;
  const video = document.createElement("video");
  video.controls = true;
  video.playsInline = true;
  video.setAttribute("aria-label", label);
  player = video;
  view.append(video);
  return video;
}

async function showMovie(choice) {
  const video = newPlayer("The chosen video");
  try {
    const trimmed = choice.edit ? `/media/${choice.assetID}/trimmed?edit=${choice.edit}`
      : choice.trimmed ? `/media/${choice.assetID}/trimmed` : null;
    video.src = trimmed ?? await playableVideoURL({ id: choice.assetID }, (progress) => {
      if (player !== video) return;
      videoProgress.textContent = `Preparing the video… ${Math.round(progress * 100)}%`;
      videoProgress.hidden = false;
    }, { video });
    if (player !== video) return;
    videoProgress.hidden = true;
    video.play().catch(() => {});
  } catch (error) {
    if (player !== video) return;
    videoProgress.hidden = true;
    if (!(error instanceof RenditionFailed)) {
      status.textContent = `The video could not be shown: ${error.message}`;
      return;
    }
    // Nothing to play: the reason, and the one way to have it made again.
    removePlayer();
    status.textContent = `This video cannot be played: ${error.message}`;
    retryVideo.hidden = false;
    retryVideo.dataset.asset = choice.assetID;
  }
}

// A capture still in the outbox is shown from this browser's copy until the server has it.
async function showQueued(choice) {
  const item = await capture(choice.queued).catch(() => null);
  if (!item || lastChoice()?.queued !== choice.queued) return;
  shownSize = null;
  const url = URL.createObjectURL(item.blob);
  status.textContent = "Waiting for the server: this capture is kept on this device until the server has it.";
  if (item.blob.type.startsWith("video/")) {
    newPlayer("The video just recorded, not uploaded yet").src = url;
    return;
  }
  removePlayer();
  delete image.dataset.url;
  placeholder.hidden = true;
  image.onload = () => URL.revokeObjectURL(url);
  image.style.width = "";
  image.style.height = "";
  image.src = url;
  image.alt = "The photo just taken, not uploaded yet";
  image.hidden = false;
}

function updateDisplay() {
  const choice = lastChoice();
  retryVideo.hidden = true;
  if (!choice) return;
  if (choice.queued) showQueued(choice);
  else if (choice.mediaType === "public.movie") showMovie(choice);
  else showImage(choice);
}

// Uploads what the outbox holds; the capture on show becomes the library's asset.
let sending = false;
async function sendWaiting() {
  if (sending) return;
  sending = true;
  try {
    if (!(await waiting()).some((item) => !item.refused)) return;
    await send((outboxID, asset, saved) => {
      if (lastChoice()?.queued !== outboxID) return;
      localStorage.setItem(choiceKey, JSON.stringify({ assetID: asset.id, mediaType: asset.mediaType, edit: null }));
      if (saved) status.textContent = "Saved to Camera Roll";
      else notSaved(asset.id);
      updateDisplay();
    });
    const refused = (await waiting()).filter((item) => item.refused);
    if (refused.length) status.textContent = `Not uploaded: ${refused[0].refused} (kept on this device).`;
  } catch (error) {
    // Unreachable: the next attempt comes with the next tick or the browser's online event. A
    // session that ended sends the page to sign in; the captures wait in the outbox.
    if (error.status === 401) location.assign("/signin?next=/");
  } finally {
    sending = false;
  }
}
window.addEventListener("online", sendWaiting);
setInterval(sendWaiting, 3000);
sendWaiting();

async function saveToCameraRoll(assetID) {
  try {
    await json(`/api/assets/${assetID}/albums/cameraRoll`, { method: "POST" });
    status.textContent = "Saved to Camera Roll";
    saveNow.hidden = true;
  } catch (error) {
    status.textContent = `Not saved to Camera Roll: ${error.message}`;
    saveNow.hidden = false;
    saveNow.dataset.asset = assetID;
  }
}

function notSaved(assetID) {
  status.textContent = "Not saved: unsaved captures are removed after 7 days.";
  saveNow.hidden = false;
  saveNow.dataset.asset = assetID;
}

async function present(configuration) {
  status.textContent = "";
  let result;
  try {
    result = await presentPicker(configuration);
  } catch (error) {
    status.textContent = `The picker could not open: ${error.message}`;
    return;
  }
  if (result.status === "queued") {
    localStorage.setItem(choiceKey, JSON.stringify({ queued: result.outboxID }));
    saveNow.hidden = true;
    updateDisplay();
    return;
  }
  if (result.status !== "finished") return;
  const { info } = result;
  // The pick's edit is kept with the choice as the server spelled it in the pick's link (the
  // library keeps none for it; choices kept by an earlier version say only edited or trimmed,
  // and show the library's).
  const edited = info.editedImage ?? (info.trim ? info.mediaURL : null);
  const edit = edited ? new URL(edited, location.href).searchParams.get("edit") : null;
  const choice = { assetID: info.assetID, mediaType: info.mediaType, edit };
  localStorage.setItem(choiceKey, JSON.stringify(choice));
  saveNow.hidden = true;
  if (configuration.sourceType === "camera") {
    if (saveCaptures.checked) await saveToCameraRoll(info.assetID);
    else notSaved(info.assetID);
  }
  updateDisplay();
}

newButton.addEventListener("click", () => {
  const mediaTypes = "MediaRecorder" in window ? ["public.image", "public.movie"] : ["public.image"];
  present({ sourceType: "camera", mediaTypes, allowsEditing: true });
});
document.querySelector("#pick").addEventListener("click", () => {
  present({ sourceType: "photoLibrary", mediaTypes: ["public.image", "public.movie"], allowsEditing: true });
});
document.querySelector("#pick-roll").addEventListener("click", () => {
  present({ sourceType: "savedPhotosAlbum", mediaTypes: ["public.image", "public.movie"], allowsEditing: true });
});
saveNow.addEventListener("click", () => saveToCameraRoll(saveNow.dataset.asset));
retryVideo.addEventListener("click", async () => {
  retryVideo.hidden = true;
  status.textContent = "Preparing the video…";
  try {
    await retryRendition({ id: retryVideo.dataset.asset });
  } catch (error) {
    status.textContent = `This video cannot be played: ${error.message}`;
    retryVideo.hidden = false;
    return;
  }
  updateDisplay();
});

saveCaptures.checked = localStorage.getItem(saveKey) !== "false";
saveCaptures.addEventListener("change", () => localStorage.setItem(saveKey, String(saveCaptures.checked)));

// Where the live camera cannot run (a page on plain HTTP on the LAN, a browser without
// getUserMedia), the device's own camera app takes the photo or video (a file input's
// `capture`); what it gives is kept in the outbox and uploaded as any capture is.
const nativeCapture = [[document.querySelector("#take-photo"), document.querySelector("#photo-input")],
  [document.querySelector("#record-video"), document.querySelector("#video-input")]];
for (const [button, input] of nativeCapture) {
  button.addEventListener("click", () => input.click());
  input.addEventListener("change", async () => {
    const [file] = input.files;
    input.value = "";
    if (!file) return;
    status.textContent = "";
    try {
      const id = await keep(file, file.name || `capture.${file.type.split("/")[1] ?? "jpg"}`, { saveToCameraRoll: saveCaptures.checked });
      localStorage.setItem(choiceKey, JSON.stringify({ queued: id }));
    } catch (error) {
      status.textContent = `The capture could not be kept: ${error.message}`;
      return;
    }
    saveNow.hidden = true;
    updateDisplay();
    sendWaiting();
  });
}

// The book hides the camera button where there is no camera (viewDidLoad); where only the live
// camera is missing, the device's camera app stands in, and the page says why.
async function offerCamera() {
  const problem = cameraProblem();
  const note = document.querySelector("#camera-note");
  note.hidden = !problem;
  if (problem) {
    note.textContent = window.isSecureContext
      ? "This browser has no live camera here; your device's camera app takes photos and videos instead."
      : "The live camera needs a secure page (HTTPS, or CameraRoll's own computer); your device's camera app takes photos and videos instead.";
  }
  for (const [button] of nativeCapture) button.hidden = !problem;
  newButton.hidden = !(await hasCamera().catch(() => false));
}
offerCamera();
navigator.mediaDevices?.addEventListener?.("devicechange", offerCamera);

// A new size or a rotation fetches the image again at the new exact size.
let resizeTimer = null;
new ResizeObserver(() => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    const { width, height } = viewSize();
    const choice = lastChoice();
    if (choice?.mediaType === "public.image" && shownSize !== `${width}x${height}@${window.devicePixelRatio}`) showImage(choice);
  }, 150);
}).observe(view);

offerSignOut(document.querySelector("#sign-out"));

// The shell is kept by a service worker, so the app and its camera open without the server.
navigator.serviceWorker?.register("/sw.js").catch(() => {});

// viewDidAppear → updateDisplay: on load and on coming back to the page.
window.addEventListener("pageshow", updateDisplay);
