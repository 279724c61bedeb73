// The Camera screen: a live preview, Photo and Video modes limited to the configured media
// types, the shutter, then Retake or Use Photo / Use Video. A capture is uploaded with
// source=camera (stored, but in no album until someone saves it) as a resumable upload
// (uploads.js), which goes on by itself after a dropped connection or a restarted server; the
// bytes stay in the page until the server has acknowledged them, and when the server cannot be
// reached the capture is also kept in the outbox (outbox.js).
// A recording is streamed to the server while it is shot (StreamUpload), so a page that dies
// mid-recording loses only its last seconds; Use Video then only tells the server it has ended.
// Offline (no picker session), every capture goes to the outbox and `onQueued` hears of it.
import { forget, hold, keep } from "./outbox.js";
import { noShelf, StreamUpload, Upload } from "./uploads.js";
import { clock } from "./time.js";
import { elements } from "./elements.js";

export class CameraUnavailable extends Error {}

// WebM first: Chromium's MP4 recorder gives nothing until Stop, whatever the timeslice, so only
// WebM streams while it is shot there; Safari records MP4 alone, in fragments it does hand over.
const recordingTypes = [
  "video/webm;codecs=vp9,opus", "video/webm;codecs=vp8,opus", "video/webm",
  "video/mp4;codecs=avc1,mp4a.40.2", "video/mp4;codecs=avc1,opus", "video/mp4;codecs=avc1", "video/mp4",
];

export function cameraProblem() {
  if (!window.isSecureContext) {
    const port = location.port ? `:${location.port}` : "";
    return `The camera works only on a secure page. Open CameraRoll over HTTPS, or on the computer it runs on at http://127.0.0.1${port}.`;
  }
  if (!navigator.mediaDevices?.getUserMedia) return "Device doesn't support that media source.";
  return null;
}

export async function hasCamera() {
  if (cameraProblem()) return false;
  const devices = await navigator.mediaDevices.enumerateDevices();
  return devices.some((device) => device.kind === "videoinput");
}

export class Camera {
  constructor(root, { onUse, onQueued = null }) {
    this.root = root;
    this.onUse = onUse;
    this.onQueued = onQueued;
    Object.assign(this, elements(root, {
      preview: "#preview", reviewPhoto: "#review-photo", reviewVideo: "#review-video", shutter: "#shutter",
      elapsed: "#elapsed", flip: "#flip", progress: "#upload-progress", uploadMessage: "#upload-message",
      retry: "#upload-retry", use: "#use",
    }));
    this.modeButtons = [...root.querySelectorAll("[data-mode]")];
    this.stream = null;
    this.capture = null;
    this.recorder = null;
    // Bumped by every start and close: what an older one finishes late is stopped, not shown.
    this.generation = 0;

    this.shutter.addEventListener("click", () => this.shoot());
    this.flip.addEventListener("click", () => this.switchCamera());
    root.querySelector("#retake").addEventListener("click", () => this.retake());
    this.use.addEventListener("click", () => this.send());
    this.retry.addEventListener("click", () => this.retryNow());
    for (const button of this.modeButtons) button.addEventListener("click", () => this.setMode(button.dataset.mode));
    window.addEventListener("beforeunload", (event) => {
      if (this.capture) event.preventDefault();
    });
  }

  // Starts the preview for a configuration; throws CameraUnavailable when there is no camera,
  // the page is not secure, or permission is refused.
  async open(configuration) {
    this.configuration = configuration;
    const problem = cameraProblem();
    if (problem) throw new CameraUnavailable(problem);
    const modes = [];
    if (configuration.mediaTypes.includes("public.image")) modes.push("photo");
    if (configuration.mediaTypes.includes("public.movie")) modes.push("video");
    for (const button of this.modeButtons) button.hidden = !modes.includes(button.dataset.mode);
    this.root.querySelector("#modes").hidden = modes.length < 2;
    this.facing = configuration.cameraDevice === "front" ? "user" : "environment";
    // The camera Switch Camera chose; until then the configured side picks one.
    this.deviceId = null;
    this.mode = modes.includes(configuration.cameraCaptureMode) ? configuration.cameraCaptureMode : modes[0];
    this.root.hidden = false;
    await this.start();
    const devices = await navigator.mediaDevices.enumerateDevices();
    this.flip.hidden = devices.filter((device) => device.kind === "videoinput").length < 2;
    this.showMode();
  }

  // Photos want the camera's full resolution; videos the configured quality, to keep
  // recordings a sensible size.
  videoConstraints() {
    const [width, height] = {
      high: [1920, 1080], hd1920x1080: [1920, 1080], medium: [1280, 720], hd1280x720: [1280, 720],
      low: [480, 360], vga640x480: [640, 480],
    }[this.configuration.videoQuality] ?? [1280, 720];
    const size = this.mode === "photo" ? { width: { ideal: 4096 }, height: { ideal: 3072 } } : { width: { ideal: width }, height: { ideal: height } };
    const camera = this.deviceId ? { deviceId: { exact: this.deviceId } } : { facingMode: { ideal: this.facing } };
    return { ...camera, ...size };
  }

  async start() {
    this.stop();
    const generation = ++this.generation;
    const wantsAudio = this.configuration.mediaTypes.includes("public.movie");
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: this.videoConstraints(), audio: wantsAudio });
    } catch (error) {
      if (wantsAudio && error.name !== "NotAllowedError") stream = await this.videoOnly();
      else throw new CameraUnavailable("Device doesn't support that media source.");
    }
    if (generation !== this.generation) {
      for (const track of stream.getTracks()) track.stop();
      return;
    }
    this.stream = stream;
    this.preview.srcObject = this.stream;
    const settings = this.stream.getVideoTracks()[0].getSettings();
    // Only the front camera's preview is a mirror, as on a phone; the pictures never are.
    this.preview.classList.toggle("mirrored", settings.facingMode === "user");
    await this.preview.play().catch(() => {});
    if (generation === this.generation) this.shutter.disabled = false;
  }

  async videoOnly() {
    try {
      return await navigator.mediaDevices.getUserMedia({ video: this.videoConstraints() });
    } catch {
      throw new CameraUnavailable("Device doesn't support that media source.");
    }
  }

  // The next camera of the system's list, round: asking for the other side would keep the same
  // camera where cameras do not say which way they face (most webcams, Chromium's fakes).
  async switchCamera() {
    const cameras = (await navigator.mediaDevices.enumerateDevices()).filter((device) => device.kind === "videoinput");
    const current = this.stream?.getVideoTracks()[0]?.getSettings().deviceId;
    const next = cameras[(cameras.findIndex((camera) => camera.deviceId === current) + 1) % cameras.length];
    if (!next) return;
    this.deviceId = next.deviceId;
    await this.start();
  }

  async setMode(mode) {
    if (mode === this.mode || this.recorder) return;
    this.mode = mode;
    this.showMode();
    await this.start();
  }

  showMode() {
    for (const button of this.modeButtons) button.setAttribute("aria-checked", String(button.dataset.mode === this.mode));
    this.shutter.textContent = this.mode === "photo" ? "Take Photo" : "Record";
    this.shutter.classList.toggle("video", this.mode === "video");
    this.use.textContent = this.mode === "photo" ? "Use Photo" : "Use Video";
    this.elapsed.hidden = this.mode === "photo";
    this.elapsed.textContent = `${clock(0)} / ${clock(this.configuration.videoMaximumDuration)}`;
  }

  async shoot() {
    if (this.capture || !this.stream) return;
    if (this.mode === "photo") {
      this.shutter.disabled = true;
      try {
        const photo = await this.takePhoto();
        if (photo && this.stream) this.review(photo);
      } finally {
        this.shutter.disabled = !this.stream;
      }
      return;
    }
    if (this.recorder) return this.recorder.stop();
    this.record();
  }

  // ImageCapture gives the sensor's full resolution where the browser has it; otherwise the
  // largest frame the track delivers, drawn to a canvas.
  async takePhoto() {
    const track = this.stream.getVideoTracks()[0];
    if ("ImageCapture" in window) {
      try {
        const photo = await new ImageCapture(track).takePhoto();
        if (photo.size > 0) return photo;
      } catch {
        // Some cameras refuse takePhoto; the frame below is the fallback.
      }
    }
    const canvas = document.createElement("canvas");
    canvas.width = this.preview.videoWidth;
    canvas.height = this.preview.videoHeight;
    canvas.getContext("2d").drawImage(this.preview, 0, 0);
    return new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.92));
  }

  record() {
    const type = recordingTypes.find((candidate) => MediaRecorder.isTypeSupported(candidate)) ?? "";
    const chunks = [];
    const recorder = new MediaRecorder(this.stream, type ? { mimeType: type } : {});
    const generation = this.generation;
    const started = performance.now();
    const limit = this.configuration.videoMaximumDuration;
    const extension = recorder.mimeType.startsWith("video/mp4") ? "mp4" : "webm";
    const filename = `${this.filename("Video")}.${extension}`;
    // Offline (the outbox's page) there is no server to stream to.
    const stream = this.onQueued ? null : new StreamUpload({ filename, metadata: { source: "camera" } });
    recorder.addEventListener("dataavailable", (event) => {
      if (event.data.size === 0) return;
      chunks.push(event.data);
      stream?.append(event.data);
    });
    recorder.addEventListener("stop", () => {
      clearInterval(this.timer);
      this.recorder = null;
      this.shutter.textContent = "Record";
      this.shutter.classList.remove("recording");
      this.setModesEnabled(true);
      // A recording cut short by Cancel or Back is not offered for use, nor kept.
      if (generation !== this.generation) {
        stream?.cancel();
        return;
      }
      const blob = new Blob(chunks, { type: recorder.mimeType.split(";")[0] || "video/webm" });
      this.review(blob, { filename, stream });
    });
    this.timer = setInterval(() => {
      const seconds = (performance.now() - started) / 1000;
      this.elapsed.textContent = `${clock(Math.floor(seconds))} / ${clock(limit)}`;
      if (seconds >= limit && recorder.state === "recording") recorder.stop();
    }, 250);
    recorder.start(1000);
    this.recorder = recorder;
    this.shutter.textContent = "Stop";
    this.shutter.classList.add("recording");
    this.setModesEnabled(false);
  }

  setModesEnabled(enabled) {
    for (const button of [...this.modeButtons, this.flip]) button.disabled = !enabled;
  }

  filename(kind) {
    return `${kind} ${new Date().toISOString().replace(/[:.]/g, "-")}`;
  }

  review(blob, { filename = null, stream = null } = {}) {
    const extension = { "image/png": "png", "image/webp": "webp", "video/mp4": "mp4", "video/webm": "webm" }[blob.type] ?? "jpg";
    this.capture = { blob, filename: filename ?? `${this.filename(this.mode === "photo" ? "Photo" : "Video")}.${extension}`, stream };
    const url = URL.createObjectURL(blob);
    const view = this.mode === "photo" ? this.reviewPhoto : this.reviewVideo;
    view.src = url;
    view.hidden = false;
    this.showReview(true);
    this.enableReview({ use: true, retake: true });
    this.use.focus();
  }

  retake() {
    const capture = this.capture;
    // A capture kept in the outbox stays there, and the Camera page sends it; an upload, or a
    // recording streamed to the server, goes, as it was never used.
    capture?.release?.();
    capture?.upload?.cancel();
    capture?.stream?.cancel();
    for (const view of [this.reviewPhoto, this.reviewVideo]) {
      if (view.src) URL.revokeObjectURL(view.src);
      view.removeAttribute("src");
      view.hidden = true;
    }
    this.capture = null;
    this.showReview(false);
    this.root.querySelector("#upload-state").hidden = true;
    this.shutter.focus();
  }

  // The review of a capture (its controls) in place of the live preview (the shutter's), or back.
  showReview(reviewing) {
    this.preview.hidden = reviewing;
    this.root.classList.toggle("reviewing", reviewing);
    this.root.querySelector("#shoot-controls").hidden = reviewing;
    this.root.querySelector("#review-controls").hidden = !reviewing;
  }

  // Use: a recording streamed while it was shot is told it has ended; anything else (a photo,
  // a recording whose stream failed or was ended by the server with part of it) goes up as a
  // resumable upload. Retake stays possible while the server cannot be reached.
  async send() {
    const capture = this.capture;
    if (!capture || capture.sending) return;
    if (this.onQueued) return this.queue();
    capture.sending = true;
    this.root.querySelector("#upload-state").hidden = false;
    this.retry.hidden = true;
    this.progress.value = 0;
    this.enableReview({ use: false, retake: false });
    let assetID = null;
    try {
      assetID = await this.finishStream(capture);
    } catch {
      // What the server made of the stream goes (see StreamUpload.cancel), and the recording
      // goes up whole below.
      capture.stream.cancel();
      capture.stream = null;
    }
    if (this.capture !== capture) return;
    assetID ??= await this.upload(capture);
    capture.sending = false;
    if (!assetID || this.capture !== capture) return;
    if (capture.outboxID) await forget(capture.outboxID).catch(() => {});
    capture.release?.();
    this.capture = null;
    this.uploadMessage.textContent = "Uploaded.";
    await this.onUse({ id: assetID });
  }

  // The asset a recording streamed while it was shot became, once told it has ended; null
  // for a capture that was not streamed.
  async finishStream(capture) {
    const stream = capture.stream;
    if (!stream) return null;
    this.uploadMessage.textContent = "Finishing the upload…";
    const assetID = await stream.finish();
    this.progress.value = 1;
    capture.stream = null;
    return assetID;
  }

  // The capture sent as a resumable upload; the asset's id, or null when the server refused it
  // or it was retaken. While the server cannot be reached the upload goes on trying, and the
  // capture is kept in the outbox meanwhile, so that closing the picker loses nothing: the
  // Camera page sends it from there.
  async upload(capture) {
    const upload = new Upload({ file: capture.blob, filename: capture.filename, metadata: { source: "camera" }, shelf: noShelf });
    capture.upload = upload;
    upload.addEventListener("progress", () => { this.progress.value = upload.sent / Math.max(upload.size, 1); });
    upload.addEventListener("state", async () => {
      if (upload.state === "retrying" && !capture.outboxID) {
        capture.outboxID = await keep(capture.blob, capture.filename).catch(() => null);
        if (capture.outboxID) capture.release = hold(capture.outboxID);
      }
      if (this.capture === capture && capture.upload === upload) this.showUpload(capture);
    });
    await upload.start();
    return upload.state === "done" ? upload.assetID : null;
  }

  showUpload(capture) {
    const { upload } = capture;
    const kind = capture.blob.type.startsWith("video/") ? "video" : "photo";
    // Once a try has failed, Retake and Retry stay offered until the upload ends, rather than
    // coming and going with each try.
    const troubled = upload.error !== null;
    const signIn = upload.error?.status === 401 ? " Sign in again on the Camera page to send it." : "";
    const kept = capture.outboxID ? ` Your ${kind} is kept on this device until the server has it.` : "";
    switch (upload.state) {
      case "retrying":
        this.uploadMessage.textContent = `Not uploaded yet: ${upload.message}${kept}${signIn}`;
        break;
      case "refused":
        this.uploadMessage.textContent = `Not uploaded: ${upload.message} Your ${kind} is still here.`;
        break;
      default:
        this.uploadMessage.textContent = troubled ? `Trying again…${kept}` : "Uploading…";
    }
    this.enableReview({ use: upload.state === "refused", retake: troubled });
    const appears = troubled && this.retry.hidden;
    this.retry.hidden = !troubled;
    if (appears) this.retry.focus();
  }

  enableReview({ use, retake }) {
    this.use.disabled = !use;
    this.root.querySelector("#retake").disabled = !retake;
  }

  // Retry: at once for an upload waiting to try again, anew for one the server refused.
  retryNow() {
    const upload = this.capture?.upload;
    if (upload?.state === "retrying") upload.retryNow();
    else this.send();
  }

  async queue() {
    try {
      const id = await keep(this.capture.blob, this.capture.filename);
      this.capture = null;
      this.onQueued(id);
    } catch (error) {
      this.root.querySelector("#upload-state").hidden = false;
      this.uploadMessage.textContent = `This browser could not keep the capture: ${error.message}`;
    }
  }

  // The shutter waits for the next stream: a press before it plays would take nothing.
  stop() {
    this.generation += 1;
    this.shutter.disabled = true;
    if (this.recorder?.state === "recording") this.recorder.stop();
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = null;
    this.preview.srcObject = null;
  }

  close() {
    this.stop();
    this.retake();
    this.root.hidden = true;
  }
}
