// The Move and Scale screen: the chosen image under a crop frame, moved by dragging or the
// arrow keys and scaled by pinching, the wheel or + and −, in one of the aspect choices. The
// crop is computed by CropGeometry in the image's upright pixels; Choose hands it on.
import { CropGeometry } from "./crop-geometry.js";
import { elements } from "./elements.js";

const margin = 20;
const smallestFrame = 48;

const aspectNames = { original: "Original", square: "Square", fourByThree: "4:3", sixteenByNine: "16:9", free: "Free" };

// The stage and its aspect and zoom controls are written here once, into the places a page
// gives them (`data-crop="stage"`, `"aspects"` with its choices in order, `"zoom"`): the
// library's editor and the picker's Move and Scale are the same component.
function build(root) {
  const stage = root.querySelector('[data-crop="stage"]');
  Object.assign(stage, { id: "crop-stage", className: "crop-stage", tabIndex: 0 });
  stage.setAttribute("role", "group");
  stage.setAttribute("aria-label", "Crop. Drag or use the arrow keys to move; pinch, the wheel or the + and − keys to scale.");
  stage.setAttribute("aria-describedby", "crop-size");
  stage.innerHTML = `<img id="crop-image" alt="" draggable="false">
    <div id="crop-frame" class="crop-frame"><span id="crop-handle" class="crop-handle" hidden></span></div>`;
  const aspects = root.querySelector('[data-crop="aspects"]');
  aspects.classList.add("segments");
  aspects.setAttribute("role", "radiogroup");
  aspects.setAttribute("aria-label", "Aspect");
  aspects.innerHTML = aspects.dataset.choices.split(" ").map((aspect, index) =>
    `<button type="button" role="radio" data-aspect="${aspect}" aria-checked="${index === 0}">${aspectNames[aspect]}</button>`).join("");
  const zoom = root.querySelector('[data-crop="zoom"]');
  zoom.classList.add("zoom");
  zoom.innerHTML = `<button type="button" id="zoom-out" class="round" aria-label="Zoom out">−</button>
    <output id="crop-size" aria-label="Crop size in pixels"></output>
    <button type="button" id="zoom-in" class="round" aria-label="Zoom in">+</button>`;
}

export class MoveAndScale {
  constructor(root, { onChoose, onBack }) {
    build(root);
    this.root = root;
    Object.assign(this, elements(root, {
      stage: "#crop-stage", image: "#crop-image", frameBox: "#crop-frame", handle: "#crop-handle",
      size: "#crop-size",
    }));
    this.aspectButtons = [...root.querySelectorAll("[data-aspect]")];
    this.pointers = new Map();
    this.geometry = null;
    this.resizing = null;
    this.loadedSide = 0;

    root.querySelector("#editor-choose").addEventListener("click", () => onChoose(this.asset, this.geometry.cropRect));
    root.querySelector("#editor-back").addEventListener("click", () => onBack(this.asset));
    root.querySelector("#zoom-in").addEventListener("click", () => this.zoom(1.25));
    root.querySelector("#zoom-out").addEventListener("click", () => this.zoom(0.8));
    for (const button of this.aspectButtons) {
      button.addEventListener("click", () => this.setAspect(button.dataset.aspect));
    }
    this.stage.addEventListener("pointerdown", (event) => this.pointerDown(event));
    this.stage.addEventListener("pointermove", (event) => this.pointerMove(event));
    for (const type of ["pointerup", "pointercancel"]) this.stage.addEventListener(type, (event) => this.pointerUp(event));
    this.stage.addEventListener("wheel", (event) => this.wheel(event), { passive: false });
    this.stage.addEventListener("keydown", (event) => this.key(event));
    new ResizeObserver(() => this.render()).observe(this.stage);
  }

  // Shows a photo: `photo` is {id, width, height, display} (upright width and height as the
  // server reports them; `display`, the URL of its display renders, which may name an edit).
  // The picker starts from a square crop (a crop made there is the pick's, so one the library
  // keeps is not where it starts); the library's editor from the crop its edit has, else the
  // whole photo.
  open(photo, backLabel, { crop = null, aspect = "square" } = {}) {
    this.asset = photo;
    this.root.querySelector("#editor-back").textContent = backLabel;
    this.geometry = crop ? CropGeometry.fromCropRect(photo.width, photo.height, crop)
      : new CropGeometry(photo.width, photo.height, aspect);
    this.loadedSide = 0;
    this.shownSide = 0;
    this.image.removeAttribute("src");
    this.image.alt = `The photo being cropped, ${photo.width} by ${photo.height} pixels`;
    this.markAspect();
    this.root.hidden = false;
    this.render();
    this.stage.focus();
  }

  setAspect(aspect) {
    this.geometry = this.geometry.withAspect(aspect);
    this.markAspect();
    this.render();
  }

  markAspect() {
    for (const button of this.aspectButtons) {
      button.setAttribute("aria-checked", String(button.dataset.aspect === this.geometry.aspect));
    }
    this.handle.hidden = this.geometry.aspect !== "free";
  }

  zoom(factor, anchorX = 0.5, anchorY = 0.5) {
    this.geometry.zoomBy(factor, anchorX, anchorY);
    this.render();
  }

  // Where the frame sits in the stage and how many screen pixels an image pixel takes.
  layout() {
    const width = this.stage.clientWidth;
    const height = this.stage.clientHeight;
    const crop = this.geometry.frame;
    let frameWidth;
    let frameHeight;
    if (this.resizing) {
      frameWidth = crop.width * this.resizing.scale;
      frameHeight = crop.height * this.resizing.scale;
    } else {
      frameWidth = Math.max(1, width - 2 * margin);
      frameHeight = frameWidth / this.geometry.ratio;
      if (frameHeight > height - 2 * margin) {
        frameHeight = Math.max(1, height - 2 * margin);
        frameWidth = frameHeight * this.geometry.ratio;
      }
    }
    const left = this.resizing ? this.resizing.left : (width - frameWidth) / 2;
    const top = this.resizing ? this.resizing.top : (height - frameHeight) / 2;
    return { left, top, width: frameWidth, height: frameHeight, scale: this.geometry.scale(frameWidth), crop };
  }

  render() {
    if (!this.geometry || this.root.hidden) return;
    const frame = this.layout();
    Object.assign(this.frameBox.style, {
      left: `${frame.left}px`, top: `${frame.top}px`, width: `${frame.width}px`, height: `${frame.height}px`,
    });
    const imageWidth = this.geometry.imageWidth * frame.scale;
    const imageHeight = this.geometry.imageHeight * frame.scale;
    Object.assign(this.image.style, {
      width: `${imageWidth}px`, height: `${imageHeight}px`,
      transform: `translate(${frame.left - frame.crop.x * frame.scale}px, ${frame.top - frame.crop.y * frame.scale}px)`,
    });
    const rect = this.geometry.cropRect;
    this.size.textContent = `${rect.width} × ${rect.height}`;
    this.loadSharpEnough(Math.max(imageWidth, imageHeight) * window.devicePixelRatio);
  }

  // Loads the display size that is sharp at the current zoom, in steps, so zooming in fetches a
  // few sizes rather than one per frame. The old image stays until the new one has arrived.
  loadSharpEnough(devicePixels) {
    const longSide = Math.max(this.asset.width, this.asset.height);
    const side = Math.min(longSide, 2 ** Math.ceil(Math.log2(Math.max(devicePixels, 512))));
    if (side <= this.loadedSide) return;
    this.loadedSide = side;
    const sized = new URL(this.asset.display, location.href);
    for (const [name, value] of [["w", side], ["h", side], ["dpr", 1]]) sized.searchParams.set(name, String(value));
    const url = sized.pathname + sized.search;
    const asset = this.asset;
    const next = new Image();
    // A smaller size that arrives late never replaces a larger one already shown.
    next.addEventListener("load", () => {
      if (this.asset !== asset || side < (this.shownSide ?? 0)) return;
      this.shownSide = side;
      this.image.src = url;
    });
    next.src = url;
  }

  anchor(clientX, clientY) {
    const bounds = this.stage.getBoundingClientRect();
    const frame = this.layout();
    return [(clientX - bounds.left - frame.left) / frame.width, (clientY - bounds.top - frame.top) / frame.height];
  }

  pointerDown(event) {
    this.stage.setPointerCapture(event.pointerId);
    this.stage.focus();
    if (event.target === this.handle) {
      const frame = this.layout();
      this.resizing = { scale: frame.scale, left: frame.left, top: frame.top };
    }
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
  }

  pointerMove(event) {
    const previous = this.pointers.get(event.pointerId);
    if (!previous) return;
    const before = centroid(this.pointers);
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const after = centroid(this.pointers);
    if (this.resizing) {
      this.resize(event.clientX - previous.x, event.clientY - previous.y);
      return;
    }
    const frame = this.layout();
    if (this.pointers.size > 1 && before.spread > 0) {
      this.geometry.zoomBy(after.spread / before.spread, ...this.anchor(after.x, after.y));
    }
    this.geometry.pan(after.x - before.x, after.y - before.y, frame.width);
    this.render();
  }

  pointerUp(event) {
    this.pointers.delete(event.pointerId);
    if (this.pointers.size === 0 && this.resizing) {
      this.resizing = null;
      this.render();
    }
  }

  // A free crop's corner handle: the crop's top left stays, its far corner follows the pointer.
  resize(dx, dy) {
    const frame = this.layout();
    const width = Math.max(smallestFrame, Math.min(frame.width + dx, this.stage.clientWidth - frame.left - margin / 2));
    const height = Math.max(smallestFrame, Math.min(frame.height + dy, this.stage.clientHeight - frame.top - margin / 2));
    const crop = frame.crop;
    this.geometry = CropGeometry.fromCropRect(this.asset.width, this.asset.height, {
      x: crop.x, y: crop.y, width: crop.width * (width / frame.width), height: crop.height * (height / frame.height),
    });
    this.resizing.scale = width / this.geometry.frame.width;
    this.render();
  }

  wheel(event) {
    event.preventDefault();
    this.zoom(Math.exp(-event.deltaY * 0.0015), ...this.anchor(event.clientX, event.clientY));
  }

  key(event) {
    const step = event.shiftKey ? 50 : 10;
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (moves[event.key]) {
      this.geometry.pan(...moves[event.key], this.layout().width);
      this.render();
    } else if (event.key === "+" || event.key === "=") {
      this.zoom(1.25);
    } else if (event.key === "-" || event.key === "_") {
      this.zoom(0.8);
    } else {
      return;
    }
    event.preventDefault();
  }

  close() {
    this.root.hidden = true;
    this.pointers.clear();
    this.resizing = null;
  }
}

function centroid(pointers) {
  const points = [...pointers.values()];
  const x = points.reduce((sum, point) => sum + point.x, 0) / points.length;
  const y = points.reduce((sum, point) => sum + point.y, 0) / points.length;
  const spread = points.length > 1 ? Math.hypot(points[0].x - points[1].x, points[0].y - points[1].y) : 0;
  return { x, y, spread };
}
