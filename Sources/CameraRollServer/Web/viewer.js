// The Photos app's viewer: one item at a time over the whole view, full screen.
// - Next and previous: the arrow keys, the side buttons, a swipe.
// - A photo shows its thumbnail at once, then the server's render of exactly the stage's size
//   × devicePixelRatio; zoom (wheel, pinch, double-tap or double-click, + and -) scales it and,
//   once the zoom settles, loads a render as sharp as the zoomed size (never past the original).
// - GIF and WebP show their original, so that an animation plays.
// - A movie plays in a player; one browsers cannot play waits for its rendition, with its
//   progress, and a rendition that failed says why and offers Try again: never a dead player.
// - An info panel (date, camera, lens, exposure, size, file name, place), Favourite, Download
//   original and Delete.
// - Edit: Move and Scale with Rotate and Flip, stored as the photo's edit (never its original),
//   and Revert to Original.
import { sendJSON } from "./api.js";
import { livePhoto } from "./live-photo.js";
import { MoveAndScale } from "./move-and-scale.js";
import { arrowKeys } from "./radio-group.js";
import { kindOf } from "./timeline.js";
import { seekBar } from "./seek-preview.js";
import { RenditionFailed, playableVideoURL, retryRendition } from "./video-source.js";
import { elements } from "./elements.js";

const animatedTypes = new Set(["image/gif", "image/webp"]);
const maxZoom = 8;

function exposure(asset) {
  const parts = [];
  if (asset.fNumber) parts.push(`ƒ/${Number(asset.fNumber.toFixed(1))}`);
  if (asset.exposureTime) {
    parts.push(asset.exposureTime >= 1 ? `${Number(asset.exposureTime.toFixed(1))} s` : `1/${Math.round(1 / asset.exposureTime)} s`);
  }
  if (asset.iso) parts.push(`ISO ${asset.iso}`);
  if (asset.focalLength) parts.push(`${Number(asset.focalLength.toFixed(1))} mm`);
  return parts.join(" · ");
}

function megabytes(bytes) {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1e3))} KB`;
}

// What the info panel lists of an asset, as [term, description or node] pairs.
export function details(asset) {
  const rows = [["Date", new Date(asset.captureDate ?? asset.importDate).toLocaleString(undefined, { dateStyle: "full", timeStyle: "short" })]];
  // "Canon Canon EOS 600D" says the make twice: a model that names it stands alone.
  const model = asset.cameraModel ?? "";
  const camera = asset.cameraMake && !model.toLowerCase().startsWith(asset.cameraMake.toLowerCase().split(" ")[0])
    ? `${asset.cameraMake} ${model}`.trim() : model || asset.cameraMake || "";
  if (camera) rows.push(["Camera", camera]);
  if (asset.lensModel) rows.push(["Lens", asset.lensModel]);
  if (exposure(asset)) rows.push(["Exposure", exposure(asset)]);
  const duration = asset.duration != null ? ` · ${Math.round(asset.duration)} s` : "";
  rows.push(["Size", `${asset.width} × ${asset.height} · ${megabytes(asset.byteSize)}${duration}`]);
  if (asset.originalFilename) rows.push(["File", asset.originalFilename]);
  if (asset.latitude != null && asset.longitude != null) {
    const link = document.createElement("a");
    link.href = `https://www.openstreetmap.org/?mlat=${asset.latitude}&mlon=${asset.longitude}#map=15/${asset.latitude}/${asset.longitude}`;
    link.rel = "noopener noreferrer";
    link.target = "_blank";
    link.textContent = `${asset.latitude.toFixed(5)}, ${asset.longitude.toFixed(5)}`;
    // The town, region and country first, named on the server; the position links to a map.
    const place = document.createElement("span");
    if (asset.place) {
      const { name, region, country } = asset.place;
      place.className = "place";
      place.append([name, region, country].filter(Boolean).join(", "), document.createElement("br"));
    }
    place.append(link);
    rows.push(["Place", place]);
  }
  return rows;
}

export class Viewer extends EventTarget {
  // `timeline`: where the items come from (assetAt(index), count); `actions`: what the
  // buttons do to an item (favorite, remove), supplied by the page, and whether an item is the
  // viewer's own to change (owns): another's, in a shared album or library, is only seen.
  constructor(dialog, timeline, actions) {
    super();
    this.dialog = dialog;
    this.timeline = timeline;
    this.actions = actions;
    Object.assign(this, elements(dialog, {
      stage: ".stage", title: ".viewer-title", info: ".info", status: ".viewer-status",
      favorite: ".favorite-button", download: ".download-button", deleteButton: ".delete-button",
    }));
    this.zoom = { scale: 1, x: 0, y: 0 };
    dialog.querySelector(".close-button").addEventListener("click", () => dialog.close());
    dialog.querySelector(".previous-button").addEventListener("click", () => this.step(-1));
    dialog.querySelector(".next-button").addEventListener("click", () => this.step(1));
    this.infoButton = dialog.querySelector(".info-button");
    this.infoButton.addEventListener("click", () => this.showInfo(this.info.hidden));
    // A key or the focus in the bars brings them back after a tap hid them.
    dialog.addEventListener("keydown", () => dialog.classList.remove("bare"), { capture: true });
    dialog.addEventListener("focusin", (event) => {
      if (event.target.closest(".viewer-bar, .side")) dialog.classList.remove("bare");
    });
    this.favorite.addEventListener("click", () => this.toggleFavorite());
    this.editButton = dialog.querySelector(".edit-button");
    this.editButton.addEventListener("click", () => this.startEditing());
    this.editor = dialog.querySelector("#editor");
    this.cropper = new MoveAndScale(this.editor, {
      onChoose: (photo, cropRect) => this.saveEdit(photo, cropRect),
      onBack: () => this.stopEditing(),
    });
    arrowKeys(this.editor.querySelector('[role="radiogroup"]'));
    dialog.querySelector("#rotate").addEventListener("click", () => this.reorient((turns) => turns + 3, false));
    dialog.querySelector("#flip-photo").addEventListener("click", () => this.reorient((turns) => turns, true));
    dialog.querySelector("#revert").addEventListener("click", () => this.storeEdit({}));
    this.deleteButton.addEventListener("click", () => this.remove());
    // From wherever the focus is while the viewer is open (a button hidden under it leaves it on
    // the page's body), but not from a dialog over it (the ? sheet).
    document.addEventListener("keydown", (event) => {
      const over = event.target.closest?.("dialog");
      if (dialog.open && (!over || over === dialog)) this.key(event);
    });
    dialog.addEventListener("close", () => {
      this.stage.replaceChildren();
      dialog.classList.remove("bare");
      this.dispatchEvent(new CustomEvent("closed", { detail: { index: this.index >= 0 ? this.index : null } }));
    });
    this.gestures();
  }

  async open(index) {
    if (!this.dialog.open) this.dialog.showModal();
    await this.showIndex(index);
  }

  // An item the view has not read (or does not hold): shown alone, with no next or previous.
  openAsset(asset) {
    if (!this.dialog.open) this.dialog.showModal();
    this.index = -1;
    this.asset = asset;
    this.show(asset);
  }

  async step(delta) {
    if (this.index < 0) return;
    const next = this.index + delta;
    if (next < 0 || next >= this.timeline.count) return;
    await this.showIndex(next);
  }

  async showIndex(index) {
    const asset = await this.timeline.assetAt(index);
    if (!asset) return;
    this.index = index;
    this.asset = asset;
    this.show(asset);
  }

  show(asset) {
    this.stopEditing();
    this.resetZoom();
    this.status.textContent = "";
    const when = new Date(asset.captureDate ?? asset.importDate);
    this.title.textContent = `${when.toLocaleDateString(undefined, { dateStyle: "medium" })} · ${when.toLocaleTimeString(undefined, { timeStyle: "short" })}`;
    const alone = this.index < 0;
    this.dialog.setAttribute("aria-label", alone ? kindOf(asset) : `${kindOf(asset)} ${this.index + 1} of ${this.timeline.count}`);
    this.dialog.querySelector(".previous-button").disabled = alone || this.index === 0;
    this.dialog.querySelector(".next-button").disabled = alone || this.index >= this.timeline.count - 1;
    this.favorite.setAttribute("aria-pressed", String(Boolean(asset.favorite)));
    const mine = this.actions.owns(asset);
    this.favorite.hidden = !mine;
    this.deleteButton.hidden = !mine;
    this.editButton.hidden = !mine || asset.mediaType === "public.movie";
    this.download.href = asset.urls.original;
    this.download.download = asset.originalFilename ?? "";
    const list = document.createElement("dl");
    for (const [term, description] of details(asset)) {
      const dt = document.createElement("dt");
      dt.textContent = term;
      const dd = document.createElement("dd");
      dd.append(description);
      list.append(dt, dd);
    }
    this.info.replaceChildren(list);
    if (asset.mediaType === "public.movie") this.showMovie(asset);
    else this.showPhoto(asset);
  }

  showPhoto(asset) {
    const image = document.createElement("img");
    image.className = "photo";
    image.alt = `${kindOf(asset)}${asset.originalFilename ? `, ${asset.originalFilename}` : ""}`;
    image.draggable = false;
    // The thumbnail is in the cache already: something to see at once while the render loads.
    image.src = asset.urls.thumbnail512;
    const sharp = new Image();
    sharp.decoding = "async";
    sharp.src = animatedTypes.has(asset.mimeType) ? asset.urls.original : this.renderURL(asset, 1);
    sharp.decode().then(() => { if (this.asset === asset) image.src = sharp.src; }).catch(() => {});
    this.image = image;
    this.stage.replaceChildren(asset.livePhoto ? livePhoto(asset, image) : image);
  }

  // The server's render of what the library shows (the photo as its edit makes it) at the
  // stage's size × devicePixelRatio × zoom.
  renderURL(asset, scale) {
    const url = new URL(asset.urls.shown, location.href);
    url.searchParams.set("w", String(Math.round(this.stage.clientWidth)));
    url.searchParams.set("h", String(Math.round(this.stage.clientHeight)));
    url.searchParams.set("dpr", String(Math.min(8, Math.round(devicePixelRatio * scale * 100) / 100)));
    return url.pathname + url.search;
  }

  // Editing: the photo turned and mirrored as its edit says, under Move and Scale from its crop.
  startEditing() {
    const edit = this.asset.edit ?? {};
    this.editing = { turns: (edit.rotation ?? 0) / 90, mirrored: Boolean(edit.flipped), crop: edit.cropRect ?? null };
    this.openEditor();
  }

  openEditor() {
    const { turns, mirrored, crop } = this.editing;
    const asset = this.asset;
    const sideways = turns % 2 === 1;
    const turned = turns !== 0 || mirrored ? `/media/${asset.id}/edited?edit=t${turns}${mirrored ? "m" : ""}` : asset.urls.display;
    this.cropper.open(
      { id: asset.id, width: sideways ? asset.height : asset.width, height: sideways ? asset.width : asset.height, display: turned },
      "Cancel", { crop, aspect: "original" });
  }

  // Rotate and Flip start the crop over, on the whole photo as it is now turned.
  reorient(turn, flip) {
    this.editing.turns = turn(this.editing.turns) % 4;
    if (flip) this.editing.mirrored = !this.editing.mirrored;
    this.editing.crop = null;
    this.openEditor();
  }

  stopEditing() {
    const wasEditing = this.editing != null;
    this.cropper.close();
    this.editing = null;
    // Back where the edit began, not on the page's body.
    if (wasEditing && this.dialog.open && !this.editButton.hidden) this.editButton.focus({ preventScroll: true });
  }

  saveEdit(photo, cropRect) {
    const { turns, mirrored } = this.editing;
    const whole = cropRect.x === 0 && cropRect.y === 0 && cropRect.width === photo.width && cropRect.height === photo.height;
    const edit = {};
    if (turns) edit.rotation = turns * 90;
    if (mirrored) edit.flipped = true;
    if (!whole) edit.cropRect = cropRect;
    return this.storeEdit(edit);
  }

  async storeEdit(edit) {
    try {
      const updated = await sendJSON(`/api/assets/${this.asset.id}/edit`, "PUT", edit);
      this.asset = updated;
      this.show(updated);
      this.status.textContent = updated.edit ? "Edited. The original is kept as it was." : "Back to the original.";
      this.dispatchEvent(new CustomEvent("edited", { detail: { asset: updated } }));
    } catch (error) {
      this.status.textContent = `The edit was not saved: ${error.message}`;
    }
  }

  async showMovie(asset) {
    this.image = null;
    const video = document.createElement("video");
    video.controls = true;
    video.playsInline = true;
    video.poster = asset.urls.poster;
    video.setAttribute("aria-label", `Video${asset.originalFilename ? `, ${asset.originalFilename}` : ""}`);
    const movie = document.createElement("div");
    movie.className = "movie";
    movie.append(video, seekBar(video, asset));
    this.stage.replaceChildren(movie);
    try {
      const url = await playableVideoURL(asset, (progress) => {
        if (this.asset === asset) this.status.textContent = `Preparing the video… ${Math.round(progress * 100)}%`;
      }, { video });
      if (this.asset !== asset) return;
      this.status.textContent = "";
      video.src = url;
      video.play().catch(() => {});
    } catch (error) {
      if (this.asset !== asset) return;
      if (!(error instanceof RenditionFailed)) {
        this.status.textContent = `The video could not be shown: ${error.message}`;
        return;
      }
      const retry = document.createElement("button");
      retry.type = "button";
      retry.className = "button";
      retry.textContent = "Try again";
      retry.addEventListener("click", async () => {
        await retryRendition(asset).catch(() => {});
        if (this.asset === asset) this.showMovie(asset);
      });
      const message = document.createElement("p");
      message.className = "failure";
      message.textContent = `This video cannot be played: ${error.message}`;
      this.stage.replaceChildren(message, retry);
    }
  }

  async toggleFavorite() {
    const asset = this.asset;
    const favorite = !asset.favorite;
    try {
      await this.actions.favorite([asset.id], favorite);
      asset.favorite = favorite;
      if (this.asset === asset) this.show(asset);
    } catch (error) {
      this.status.textContent = `That did not work: ${error.message}`;
    }
  }

  async remove() {
    const asset = this.asset;
    try {
      await this.actions.remove([asset.id]);
      this.dialog.close();
    } catch (error) {
      this.status.textContent = `That did not work: ${error.message}`;
    }
  }

  showInfo(shown) {
    this.info.hidden = !shown;
    this.infoButton.setAttribute("aria-expanded", String(shown));
  }

  // Single keys, as Photos apps have them (the library's ? sheet lists them): a button's key
  // does what the button does, and nothing when the button is not offered (another's item).
  // With Ctrl, ⌘ or Alt a key is the browser's.
  key(event) {
    if (event.target.closest("video, input, textarea, select") || this.editing) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const press = (button) => () => { if (!button.hidden && !button.disabled) button.click(); };
    const keys = {
      ArrowLeft: () => this.step(-1), ArrowRight: () => this.step(1),
      "+": () => this.zoomBy(1.5), "=": () => this.zoomBy(1.5), "-": () => this.zoomBy(1 / 1.5), "0": () => this.resetZoom(),
      i: press(this.infoButton), f: press(this.favorite), e: press(this.editButton),
      Delete: press(this.deleteButton), Backspace: press(this.deleteButton),
    };
    const action = keys[event.key.length === 1 ? event.key.toLowerCase() : event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  }

  resetZoom() {
    this.zoom = { scale: 1, x: 0, y: 0 };
    this.applyZoom();
  }

  zoomBy(factor, around = null) {
    if (!this.image) return;
    const scale = Math.max(1, Math.min(maxZoom, this.zoom.scale * factor));
    const real = scale / this.zoom.scale;
    if (around) {
      // The point under the pointer stays under it.
      const box = this.stage.getBoundingClientRect();
      const cx = around.x - box.left - box.width / 2;
      const cy = around.y - box.top - box.height / 2;
      this.zoom.x = cx - (cx - this.zoom.x) * real;
      this.zoom.y = cy - (cy - this.zoom.y) * real;
    } else {
      this.zoom.x *= real;
      this.zoom.y *= real;
    }
    this.zoom.scale = scale;
    if (scale === 1) this.zoom = { scale: 1, x: 0, y: 0 };
    this.applyZoom();
    clearTimeout(this.sharpen);
    this.sharpen = setTimeout(() => this.loadSharper(), 250);
  }

  applyZoom() {
    if (!this.image) return;
    const { scale, x, y } = this.zoom;
    this.image.style.transform = scale === 1 ? "" : `translate(${x}px, ${y}px) scale(${scale})`;
    this.stage.classList.toggle("zoomed", scale > 1);
  }

  // A render for the zoomed size, so that a zoomed photo is as sharp as the screen.
  loadSharper() {
    const asset = this.asset;
    if (!this.image || animatedTypes.has(asset.mimeType) || this.zoom.scale <= 1) return;
    const sharp = new Image();
    sharp.src = this.renderURL(asset, this.zoom.scale);
    sharp.decode().then(() => { if (this.asset === asset && this.image) this.image.src = sharp.src; }).catch(() => {});
  }

  // Swipe for next and previous, drag to pan a zoomed photo, pinch and double-tap to zoom,
  // the wheel to zoom.
  gestures() {
    const pointers = new Map();
    let pinch = null;
    let swipe = null;
    let lastTap = 0;
    let lastPointerType = "mouse";
    this.stage.addEventListener("pointerdown", (event) => {
      lastPointerType = event.pointerType;
      if (event.target.closest("video, button, .live-button, .seek-bar")) return;
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        pinch = { distance: Math.hypot(a.x - b.x, a.y - b.y), scale: this.zoom.scale };
        swipe = null;
      } else {
        swipe = { x: event.clientX, y: event.clientY, panX: this.zoom.x, panY: this.zoom.y };
      }
    });
    this.stage.addEventListener("pointermove", (event) => {
      if (!pointers.has(event.pointerId)) return;
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (pinch && pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const factor = (pinch.scale * Math.hypot(a.x - b.x, a.y - b.y)) / pinch.distance / this.zoom.scale;
        this.zoomBy(factor, { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
      } else if (swipe && this.zoom.scale > 1) {
        this.zoom.x = swipe.panX + event.clientX - swipe.x;
        this.zoom.y = swipe.panY + event.clientY - swipe.y;
        this.applyZoom();
      } else if (swipe && event.pointerType !== "mouse") {
        // A finger pulling the photo down takes it with it, fading, until it lets go.
        const dy = event.clientY - swipe.y;
        const down = dy > 0 && dy > Math.abs(event.clientX - swipe.x) ? dy : 0;
        this.stage.style.transform = down ? `translateY(${down}px)` : "";
        this.stage.style.opacity = down ? String(Math.max(0.3, 1 - down / 400)) : "";
      }
    });
    let tapTimer = null;
    const end = (event) => {
      if (!pointers.has(event.pointerId)) return;
      pointers.delete(event.pointerId);
      if (pointers.size < 2) pinch = null;
      if (!swipe || pointers.size > 0) return;
      const dx = event.clientX - swipe.x;
      const dy = event.clientY - swipe.y;
      swipe = null;
      this.stage.style.transform = "";
      this.stage.style.opacity = "";
      const vertical = this.zoom.scale === 1 && Math.abs(dy) > 80 && Math.abs(dy) > Math.abs(dx) * 1.5;
      if (this.zoom.scale === 1 && Math.abs(dx) > 60 && Math.abs(dx) > Math.abs(dy) * 1.5) {
        this.step(dx < 0 ? 1 : -1);
      } else if (vertical && event.pointerType !== "mouse") {
        // Down closes (the info first, when it shows); up shows the info.
        if (dy < 0) this.showInfo(true);
        else if (!this.info.hidden) this.showInfo(false);
        else this.dialog.close();
      } else if (Math.abs(dx) < 10 && Math.abs(dy) < 10 && event.pointerType !== "mouse") {
        // A double tap zooms in on its place, or back out; a single tap (once no second came)
        // hides the bars or brings them back.
        const now = performance.now();
        clearTimeout(tapTimer);
        if (now - lastTap < 300) {
          this.zoom.scale > 1 ? this.resetZoom() : this.zoomBy(2.5, { x: event.clientX, y: event.clientY });
          lastTap = 0;
        } else {
          lastTap = now;
          tapTimer = setTimeout(() => this.dialog.classList.toggle("bare"), 300);
        }
      }
    };
    this.stage.addEventListener("pointerup", end);
    this.stage.addEventListener("pointercancel", end);
    // A double-click is the mouse's: browsers send one after a double tap too, which the taps
    // above have zoomed already, and a second zoom would undo it.
    this.stage.addEventListener("dblclick", (event) => {
      if (event.target.closest("video") || lastPointerType !== "mouse") return;
      this.zoom.scale > 1 ? this.resetZoom() : this.zoomBy(2.5, { x: event.clientX, y: event.clientY });
    });
    this.stage.addEventListener("wheel", (event) => {
      if (!this.image) return;
      event.preventDefault();
      this.zoomBy(Math.exp(-event.deltaY / 300), { x: event.clientX, y: event.clientY });
    }, { passive: false });
  }
}
