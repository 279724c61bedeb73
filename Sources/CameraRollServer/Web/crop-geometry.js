// The Move and Scale arithmetic of the ImagePicker module (CropGeometry.swift), for the page:
// a crop frame of fixed shape over the upright image, moved and zoomed, giving cropRect in
// the image's pixels. It must round exactly as the Swift model does, so both agree on a crop.
export const aspects = ["square", "original", "fourByThree", "sixteenByNine", "free"];

function ratioFor(aspect, width, height) {
  const landscape = width >= height;
  switch (aspect) {
    case "square": return 1;
    case "fourByThree": return landscape ? 4 / 3 : 3 / 4;
    case "sixteenByNine": return landscape ? 16 / 9 : 9 / 16;
    default: return width / height;
  }
}

export class CropGeometry {
  constructor(imageWidth, imageHeight, aspect = "square", ratio = ratioFor(aspect, imageWidth, imageHeight)) {
    this.imageWidth = imageWidth;
    this.imageHeight = imageHeight;
    this.aspect = aspect;
    this.ratio = ratio;
    this.zoom = 1;
    this.centerX = imageWidth / 2;
    this.centerY = imageHeight / 2;
  }

  // The geometry that reproduces a crop already made; a free crop keeps the crop's own shape.
  static fromCropRect(imageWidth, imageHeight, rect, aspect = "free") {
    const ratio = aspect === "free" ? rect.width / rect.height : ratioFor(aspect, imageWidth, imageHeight);
    const geometry = new CropGeometry(imageWidth, imageHeight, aspect, ratio);
    geometry.zoom = Math.min(Math.max(geometry.baseWidth / rect.width, 1), geometry.maxZoom);
    geometry.centerX = rect.x + rect.width / 2;
    geometry.centerY = rect.y + rect.height / 2;
    geometry.clamp();
    return geometry;
  }

  // The crop's width at the least zoom: the largest rectangle of `ratio` inside the image.
  get baseWidth() {
    return this.imageWidth / this.imageHeight >= this.ratio ? this.imageHeight * this.ratio : this.imageWidth;
  }

  // Zooming stops when the crop is 32 pixels across its short side (or at 1 for tiny images).
  get maxZoom() {
    return Math.max(1, Math.min(this.baseWidth, this.baseWidth / this.ratio) / 32);
  }

  // The crop in image pixels before rounding: what the screen shows.
  get frame() {
    const width = this.baseWidth / this.zoom;
    const height = width / this.ratio;
    return { x: this.centerX - width / 2, y: this.centerY - height / 2, width, height };
  }

  get cropRect() {
    let width = Math.max(1, Math.round(this.baseWidth / this.zoom));
    let height = Math.max(1, Math.round(width / this.ratio));
    if (this.aspect === "square") height = width;
    width = Math.min(width, this.imageWidth);
    height = Math.min(height, this.imageHeight);
    if (this.aspect === "square") {
      width = Math.min(width, height);
      height = width;
    }
    const x = Math.min(Math.max(Math.round(this.centerX - width / 2), 0), this.imageWidth - width);
    const y = Math.min(Math.max(Math.round(this.centerY - height / 2), 0), this.imageHeight - height);
    return { x, y, width, height };
  }

  // Screen pixels per image pixel when the crop frame is `frameWidth` screen pixels wide.
  scale(frameWidth) {
    return frameWidth / (this.baseWidth / this.zoom);
  }

  // Dragging the image by (dx, dy) screen pixels moves the crop the other way.
  pan(dx, dy, frameWidth) {
    const scale = this.scale(frameWidth);
    this.centerX -= dx / scale;
    this.centerY -= dy / scale;
    this.clamp();
  }

  // Zooms by `factor`, keeping the image point under the anchor ((0, 0) top left of the frame
  // to (1, 1) bottom right) still.
  zoomBy(factor, anchorX = 0.5, anchorY = 0.5) {
    if (!Number.isFinite(factor) || factor <= 0) return;
    const before = this.frame;
    const pointX = before.x + anchorX * before.width;
    const pointY = before.y + anchorY * before.height;
    this.zoom = Math.min(Math.max(this.zoom * factor, 1), this.maxZoom);
    const after = this.frame;
    this.centerX = pointX - anchorX * after.width + after.width / 2;
    this.centerY = pointY - anchorY * after.height + after.height / 2;
    this.clamp();
  }

  // The same place and size of crop with another shape: the crop keeps its centre and area.
  withAspect(aspect, ratio = ratioFor(aspect, this.imageWidth, this.imageHeight)) {
    const { width, height } = this.frame;
    const area = width * height;
    const newWidth = Math.sqrt(area * ratio);
    const next = new CropGeometry(this.imageWidth, this.imageHeight, aspect, ratio);
    next.zoom = Math.min(Math.max(next.baseWidth / newWidth, 1), next.maxZoom);
    next.centerX = this.centerX;
    next.centerY = this.centerY;
    next.clamp();
    return next;
  }

  clamp() {
    const { width, height } = this.frame;
    this.centerX = Math.min(Math.max(this.centerX, width / 2), this.imageWidth - width / 2);
    this.centerY = Math.min(Math.max(this.centerY, height / 2), this.imageHeight - height / 2);
  }
}
