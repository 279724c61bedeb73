// The library page's uploader: resumable uploads (uploads.js) of files from a button, a folder,
// drag and drop or paste, two at a time, each in a row with its thumbnail, progress and what can
// be done with it (pause, resume, retry now, cancel, dismiss). A duplicate says so with a link to
// the item; a refusal says why in plain words. Above the rows, one line sums them up ("12 added,
// 1 refused") with the whole batch's progress, a Clear for the finished ones, and a switch that
// folds the rows away, which otherwise scroll in a band of their own so the photos stay in
// sight. Leaving the page mid-upload asks first.
import { json } from "./api.js";
import { Upload, unfinishedUploads } from "./uploads.js";

const sending = 2;
const mediaName = /\.(jpe?g|png|gif|webp|heic|heif|avif|tiff?|mp4|m4v|mov|webm|mkv|avi|3gp)$/i;
const isMedia = (file) => file.type.startsWith("image/") || file.type.startsWith("video/") || mediaName.test(file.name);

function button(text, action) {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = text;
  element.addEventListener("click", action);
  return element;
}

// The first frame of a video this browser plays, as a picture `size` pixels on its short side
// (a data URL); null when it cannot play it.
function firstFrame(file, size) {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const video = document.createElement("video");
    video.muted = true;
    video.preload = "auto";
    const end = (picture) => {
      clearTimeout(timer);
      video.removeAttribute("src");
      video.load();
      URL.revokeObjectURL(url);
      resolve(picture);
    };
    // A codec the browser lacks may load the metadata and then nothing, without an error.
    const timer = setTimeout(() => end(null), 10000);
    video.addEventListener("loadeddata", () => {
      const scale = size / Math.max(1, Math.min(video.videoWidth, video.videoHeight));
      const canvas = document.createElement("canvas");
      canvas.width = Math.max(1, Math.round(video.videoWidth * scale));
      canvas.height = Math.max(1, Math.round(video.videoHeight * scale));
      canvas.getContext("2d").drawImage(video, 0, 0, canvas.width, canvas.height);
      end(canvas.toDataURL("image/jpeg", 0.85));
    }, { once: true });
    video.addEventListener("error", () => end(null), { once: true });
    video.src = url;
  });
}

// A row's picture: an image file itself, a video's first frame, or, for a file this browser
// cannot show (a HEIC, a codec it lacks), the server's thumbnail once the upload is done.
function thumbnail(upload) {
  const thumb = document.createElement("img");
  thumb.className = "thumb";
  thumb.alt = "";
  const fromServer = async () => {
    if (thumb.getAttribute("src") || upload.state !== "done") return;
    const asset = await json(`/api/assets/${upload.assetID}`).catch(() => null);
    if (asset && !thumb.getAttribute("src")) thumb.src = asset.urls.thumbnail256;
  };
  upload.addEventListener("done", fromServer);
  if (upload.file.type.startsWith("image/")) {
    const url = URL.createObjectURL(upload.file);
    thumb.addEventListener("load", () => URL.revokeObjectURL(url), { once: true });
    thumb.addEventListener("error", () => {
      URL.revokeObjectURL(url);
      thumb.removeAttribute("src");
      fromServer();
    }, { once: true });
    thumb.src = url;
  } else if (upload.file.type.startsWith("video/")) {
    firstFrame(upload.file, Math.round(48 * window.devicePixelRatio)).then((picture) => {
      if (picture) thumb.src = picture;
      else fromServer();
    });
  }
  return thumb;
}

// `onAdded(assetID)`: a new item is in the library; `onShow(assetID)`: the user asks to see one.
export async function startUploads({ status, onAdded, onShow }) {
  const list = document.querySelector("#upload-list");
  const section = document.querySelector("#uploads");
  const summary = document.querySelector("#upload-summary");
  const total = document.querySelector("#upload-total");
  const details = document.querySelector("#upload-details");
  const clear = document.querySelector("#upload-clear");
  const uploads = [];
  const rows = new Map();
  const finished = (upload) => ["done", "refused", "cancelled"].includes(upload.state);
  let wasActive = false;
  // Files of the batch that were not photos or videos, counted until Clear.
  let leftOut = 0;

  // The batch in one line, at most once a frame (every upload's progress asks for it); said on
  // the status line too once the last one ends.
  let summaryFrame = 0;
  function summarise() {
    summaryFrame ||= requestAnimationFrame(() => {
      summaryFrame = 0;
      writeSummary();
    });
  }

  function writeSummary() {
    const count = (test) => uploads.filter(test).length;
    const added = count((upload) => upload.state === "done" && !upload.duplicate);
    const parts = [
      [added, "added"], [count((upload) => upload.duplicate), "already in your library"],
      [count((upload) => upload.state === "refused"), "refused"], [count((upload) => upload.state === "paused"), "paused"],
      [count((upload) => upload.state === "cancelled"), "cancelled"],
      [leftOut, leftOut === 1 ? "not a photo or video" : "not photos or videos"],
    ].filter(([number]) => number > 0).map(([number, words]) => `${number.toLocaleString()} ${words}`);
    const active = uploads.filter((upload) => upload.active);
    const sending = uploads.filter((upload) => upload.active || upload.state === "done");
    summary.textContent = active.length === 0 ? parts.join(", ")
      : [`Uploading ${active.length.toLocaleString()} of ${uploads.length.toLocaleString()}`, ...parts].join(" · ");
    total.hidden = active.length === 0;
    total.value = sending.reduce((sum, upload) => sum + upload.sent, 0) / Math.max(1, sending.reduce((sum, upload) => sum + upload.size, 0));
    clear.hidden = !uploads.some(finished) && leftOut === 0;
    if (wasActive && active.length === 0 && parts.length > 0) status.textContent = `Uploads: ${parts.join(", ")}.`;
    wasActive = active.length > 0;
  }

  function forget(upload) {
    rows.get(upload)?.remove();
    rows.delete(upload);
    uploads.splice(uploads.indexOf(upload), 1);
    section.hidden = uploads.length === 0;
    summarise();
  }

  details.addEventListener("click", () => {
    const open = details.getAttribute("aria-expanded") !== "true";
    details.setAttribute("aria-expanded", String(open));
    details.textContent = open ? "Hide Details" : "Show Details";
    list.hidden = !open;
  });
  clear.addEventListener("click", () => {
    leftOut = 0;
    for (const upload of uploads.filter(finished)) forget(upload);
    if (section.hidden) document.querySelector("#add").focus();
  });

  function row(upload) {
    const item = document.createElement("li");
    item.className = "upload-row";
    const thumb = thumbnail(upload);
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = upload.filename;
    const progress = document.createElement("progress");
    progress.max = 1;
    progress.value = 0;
    progress.setAttribute("aria-label", `${upload.filename} sent`);
    const message = document.createElement("span");
    message.className = "message";
    const controls = document.createElement("span");
    controls.className = "controls";
    const pause = button("Pause", () => { upload.pause(); });
    const resume = button("Resume", () => { upload.resume(); schedule(); });
    const retry = button("Retry now", () => upload.retryNow());
    const cancel = button("Cancel", () => upload.cancel());
    const dismiss = button("Dismiss", () => forget(upload));
    for (const control of [pause, resume, retry, cancel, dismiss]) control.setAttribute("aria-label", `${control.textContent} ${upload.filename}`);
    controls.append(pause, resume, retry, cancel, dismiss);
    const title = document.createElement("span");
    title.append(name, progress);
    item.append(thumb, title, controls, message);

    const render = () => {
      const { state } = upload;
      item.className = `upload-row ${state}`;
      pause.hidden = !["uploading", "retrying", "waiting"].includes(state);
      resume.hidden = state !== "paused";
      retry.hidden = state !== "retrying";
      cancel.hidden = !["uploading", "retrying", "waiting", "paused"].includes(state);
      dismiss.hidden = !["done", "refused", "cancelled"].includes(state);
      const words = { waiting: "Waiting…", uploading: `${Math.round((upload.sent / Math.max(upload.size, 1)) * 100)}%` };
      message.textContent = upload.message || words[state] || "";
      if (state === "done") {
        message.replaceChildren(upload.duplicate ? "Already in your library. " : "Added. ");
        const link = document.createElement("a");
        link.href = "#";
        link.textContent = "Show it";
        link.addEventListener("click", (event) => {
          event.preventDefault();
          onShow(upload.assetID);
        });
        message.append(link);
      }
      if (state === "refused") message.textContent = `Not added: ${upload.message}`;
      summarise();
    };
    upload.addEventListener("state", () => { render(); if (!upload.active) schedule(); });
    upload.addEventListener("progress", () => {
      progress.value = upload.sent / Math.max(upload.size, 1);
      if (upload.state === "uploading") render();
      else summarise();
    });
    upload.addEventListener("done", () => { if (!upload.duplicate) onAdded(upload.assetID); });
    render();
    return item;
  }

  // Starts waiting uploads while fewer than `sending` are on their way.
  function schedule() {
    const running = uploads.filter((upload) => upload.state === "uploading" || upload.state === "retrying").length;
    for (const upload of uploads.filter((upload) => upload.state === "waiting" && !upload.running).slice(0, Math.max(0, sending - running))) {
      upload.start();
    }
  }

  function enqueue(upload) {
    uploads.push(upload);
    const item = row(upload);
    rows.set(upload, item);
    list.append(item);
    section.hidden = false;
    summarise();
  }

  function add(files) {
    const media = [...files].filter(isMedia);
    const skipped = files.length - media.length;
    // Counted with a batch that has rows to show it; alone, the status line says it.
    if (media.length > 0) leftOut += skipped;
    for (const file of media) enqueue(new Upload({ file, metadata: { source: "upload" } }));
    status.textContent = skipped ? `${skipped} file${skipped === 1 ? " is" : "s are"} not a photo or video and ${skipped === 1 ? "was" : "were"} left out.` : "";
    schedule();
  }

  const picker = document.querySelector("#upload");
  const folderPicker = document.querySelector("#upload-folder");
  document.querySelector("#add").addEventListener("click", () => picker.click());
  document.querySelector("#add-folder").addEventListener("click", () => folderPicker.click());
  for (const input of [picker, folderPicker]) {
    input.addEventListener("change", () => {
      add(input.files);
      input.value = "";
    });
  }

  const dropHint = document.querySelector("#drop-hint");
  const carriesFiles = (event) => [...(event.dataTransfer?.types ?? [])].includes("Files");
  document.addEventListener("dragover", (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    dropHint.hidden = false;
  });
  document.addEventListener("dragleave", (event) => { if (event.relatedTarget === null) dropHint.hidden = true; });
  document.addEventListener("drop", (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    dropHint.hidden = true;
    add(event.dataTransfer.files);
  });
  document.addEventListener("paste", (event) => {
    if (event.clipboardData?.files.length) add(event.clipboardData.files);
  });

  // Leaving with files on their way would only pause them (they resume on the next visit), but
  // the person may not come back soon: ask.
  window.addEventListener("beforeunload", (event) => {
    if (uploads.some((upload) => upload.active)) event.preventDefault();
  });

  for (const upload of await unfinishedUploads()) enqueue(upload);
  schedule();
}
