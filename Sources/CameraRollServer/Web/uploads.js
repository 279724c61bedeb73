// Resumable uploads over tus 1.0 (the server's /api/uploads), for every page that sends files:
// the library page's uploader, the picker's captures and the Camera app's outbox.
// A file goes up in pieces; when a piece fails the upload asks the server where it is (HEAD)
// and goes on from there, after a pause that grows from 1 s to 30 s while the network is down.
// Each file is kept in this browser (IndexedDB) until the server has it, so a reload, a closed
// tab or a restarted server resumes it without sending an acknowledged byte again.
// A recording is streamed while it is shot (StreamUpload): its length is told with its last piece.
import { ApiError, csrfHeaders, failure, worthRetrying } from "./api.js";
import { objectStore } from "./stored.js";

const pieceBytes = 8 << 20;
const tusHeaders = { "Tus-Resumable": "1.0.0" };

function metadataHeader(metadata) {
  const base64 = (text) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));
  return Object.entries(metadata).filter(([, value]) => value != null).map(([key, value]) => `${key} ${base64(String(value))}`).join(",");
}

// One tus request by XHR (only XHR reports upload progress): its status, headers and JSON.
async function request(method, url, { headers = {}, body = null, onProgress = null, track = null } = {}) {
  const all = { ...tusHeaders, ...(await csrfHeaders(method)), ...headers };
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const [name, value] of Object.entries(all)) xhr.setRequestHeader(name, value);
    xhr.responseType = "json";
    if (onProgress) xhr.upload.addEventListener("progress", (event) => onProgress(event.loaded));
    xhr.addEventListener("load", () => {
      const reply = { status: xhr.status, header: (name) => xhr.getResponseHeader(name), body: xhr.response ?? {} };
      if (xhr.status >= 200 && xhr.status < 300) resolve(reply);
      else reject(failure(xhr.status, reply.body));
    });
    const offline = () => reject(new ApiError(0, "offline", "The server could not be reached. Check the connection; the upload goes on by itself."));
    xhr.addEventListener("error", offline);
    xhr.addEventListener("timeout", offline);
    xhr.addEventListener("abort", () => reject(new ApiError(0, "aborted", "Paused.")));
    track?.(xhr);
    xhr.send(body);
  });
}

// The library page's files waiting for the server, in IndexedDB: {key, file, filename,
// metadata, url, offset}. A shelf is where an upload keeps its record until the server has the
// file: put(record) after each acknowledged piece, remove(key) at the end.
const transaction = objectStore("cameraroll-uploads", "uploads", "key");

const libraryShelf = {
  put: (record) => transaction("readwrite", (uploads) => uploads.put(record)).catch(() => {}),
  remove: (key) => transaction("readwrite", (uploads) => uploads.delete(key)).catch(() => {}),
};

// For an upload whose file the page keeps elsewhere until the server has it (a capture, which
// goes to the outbox when the server does not take it).
export const noShelf = { put: async () => {}, remove: async () => {} };

// The uploads a closed or reloaded library page left unfinished, to resume.
export async function unfinishedUploads() {
  const records = await transaction("readonly", (uploads) => uploads.getAll()).catch(() => []);
  return records.map((record) => new Upload(record));
}

// A random id for an upload or a capture. crypto.randomUUID is for secure pages alone, and a
// phone on plain HTTP on the LAN still uploads.
export function newID() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const hex = [...crypto.getRandomValues(new Uint8Array(16))].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// One file on its way. Events: "progress" (this.sent of this.size), "state" (this.state:
// waiting, uploading, retrying, paused, done, refused, cancelled; this.message says why, and
// this.error is the last failure), and "done" (this.assetID, this.duplicate).
export class Upload extends EventTarget {
  constructor({ file, filename = file.name, metadata = {}, key = newID(), url = null, offset = 0, shelf = libraryShelf }) {
    super();
    Object.assign(this, { file, filename, metadata, key, url, offset, shelf });
    this.size = file.size;
    this.sent = offset;
    this.state = "waiting";
    this.message = "";
    this.error = null;
    this.xhr = null;
    this.running = null;
  }

  get active() { return ["waiting", "uploading", "retrying"].includes(this.state); }

  record() {
    return { key: this.key, file: this.file, filename: this.filename, metadata: this.metadata, url: this.url, offset: this.offset };
  }

  set(state, message = "") {
    this.state = state;
    this.message = message;
    this.dispatchEvent(new Event("state"));
  }

  // Sends the file, to the end or until paused, cancelled or refused; a failure worth trying
  // again (the server unreachable, a sign-in wanted) is tried again by itself.
  start() {
    return this.go(true);
  }

  // Sends the file to the end or a refusal, but throws the first failure worth trying again,
  // for a caller that tries again on its own schedule (the outbox); the next call goes on
  // from what the server acknowledged.
  sendOnce() {
    return this.go(false);
  }

  go(patient) {
    if (this.running || ["done", "refused", "cancelled"].includes(this.state)) return this.running;
    this.running = this.run(patient).finally(() => { this.running = null; });
    return this.running;
  }

  pause() {
    if (!this.active) return;
    this.set("paused", "Paused.");
    this.xhr?.abort();
  }

  resume() {
    if (this.state !== "paused") return;
    this.set("waiting");
    return this.start();
  }

  // Ends the pause before the next try, for a person who knows the network is back.
  retryNow() {
    this.wake?.();
  }

  // Ends the upload and has the server forget it. Not once it has ended: a finished upload's
  // termination would delete the capture it made.
  async cancel() {
    if (["done", "refused", "cancelled"].includes(this.state)) return;
    const url = this.url;
    this.set("cancelled", "Cancelled.");
    this.xhr?.abort();
    await this.shelf.remove(this.key);
    if (url) await request("DELETE", url).catch(() => {});
  }

  async run(patient) {
    await this.shelf.put(this.record());
    let pause = 1000;
    let resync = this.url !== null;
    while (this.active) {
      try {
        this.set("uploading");
        if (!this.url) {
          await this.create();
        } else if (resync) {
          await this.where();
        }
        resync = false;
        if (this.state !== "uploading") return;
        if (this.offset < this.size) await this.sendPiece();
        else await this.outcome();
        pause = 1000;
      } catch (error) {
        if (!this.active) return;
        resync = true;
        this.error = error;
        if (error.status === 409) continue;
        if (!worthRetrying(error)) return this.refuse(error);
        if (!patient) {
          this.set("waiting", error.message);
          throw error;
        }
        this.set("retrying", `${error.message} Trying again in ${Math.round(pause / 1000)} s.`);
        await new Promise((resolve) => {
          this.wake = resolve;
          setTimeout(resolve, pause);
        });
        this.wake = null;
        pause = Math.min(pause * 2, 30000);
      }
    }
  }

  async create() {
    const reply = await request("POST", "/api/uploads", {
      headers: { "Upload-Length": String(this.size), "Upload-Metadata": metadataHeader({ filename: this.filename, ...this.metadata }) },
    });
    this.url = reply.header("Location");
    this.offset = 0;
    await this.shelf.put(this.record());
  }

  // Where the server has the upload; one it no longer knows (expired) starts again.
  async where() {
    try {
      const reply = await request("HEAD", this.url);
      this.acknowledge(Number(reply.header("Upload-Offset")));
    } catch (error) {
      if (error.status !== 404) throw error;
      this.url = null;
      this.acknowledge(0);
      await this.create();
    }
  }

  async sendPiece() {
    const end = Math.min(this.offset + pieceBytes, this.size);
    const start = this.offset;
    const reply = await request("PATCH", this.url, {
      headers: { "Upload-Offset": String(start), "Content-Type": "application/offset+octet-stream" },
      body: this.file.slice(start, end),
      onProgress: (loaded) => { this.progress(start + loaded); },
      track: (xhr) => { this.xhr = xhr; },
    });
    this.xhr = null;
    this.acknowledge(Number(reply.header("Upload-Offset")));
    await this.shelf.put(this.record());
    if (reply.header("X-Asset-ID")) await this.finish(reply.header("X-Asset-ID"), reply.header("X-Asset-Duplicate") === "true");
  }

  // Every byte is in, but the answer was lost (the connection or the server went): ask for it.
  async outcome() {
    const status = (await request("GET", this.url)).body;
    if (status.state === "done") return this.finish(status.assetID, status.duplicate === true);
    if (status.state === "refused") return this.refuse(new ApiError(422, status.error?.code, status.error?.message));
    throw new ApiError(503, "importing", "The server is still adding the file.");
  }

  acknowledge(offset) {
    this.offset = offset;
    this.progress(offset);
  }

  progress(sent) {
    this.sent = sent;
    this.dispatchEvent(new Event("progress"));
  }

  async finish(assetID, duplicate) {
    this.assetID = assetID;
    this.duplicate = duplicate;
    this.progress(this.size);
    await this.shelf.remove(this.key);
    this.set("done", duplicate ? "Already in your library." : "Added.");
    this.dispatchEvent(new Event("done"));
  }

  async refuse(error) {
    await this.shelf.remove(this.key);
    this.set("refused", error.message);
  }
}

// A recording sent while it is shot: pieces go up in order as the recorder gives them, and
// `finish` tells the length with the last. Opened without a length (Upload-Defer-Length), so
// that if the page dies the server keeps what came: it finishes a stream that gets no piece for
// `serve --stream-idle` seconds (30) with the bytes it has. A page still alive can meet that
// too, after a review or a network outage longer than that: the server then answers the next
// piece with 409, and GET tells what it made of the stream, which only the whole recording
// makes usable.
export class StreamUpload {
  constructor({ filename, metadata = {} }) {
    this.filename = filename;
    this.metadata = metadata;
    this.url = null;
    // Every piece so far, so that what the server lacks can be sent from wherever it is; they
    // are the recording's own blobs, which the page holds anyway.
    this.pieces = [];
    this.size = 0;
    this.offset = 0;
    // What the server made of the stream when it finished it without us (GET's JSON).
    this.ended = null;
    this.cancelled = false;
    this.chain = this.open();
  }

  async open() {
    const reply = await request("POST", "/api/uploads", {
      headers: { "Upload-Defer-Length": "1", "Upload-Metadata": metadataHeader({ filename: this.filename, ...this.metadata }) },
    });
    this.url = reply.header("Location");
  }

  // Queues a piece; what fails to go is sent again with the next.
  append(blob) {
    if (this.cancelled) return;
    this.pieces.push(blob);
    this.size += blob.size;
    this.chain = this.chain.then(() => this.flush()).catch(() => {});
  }

  // Sends what the server lacks, with the length when given; the reply, or null once the
  // server has ended the stream.
  async flush(length = null) {
    if (!this.url) await this.open();
    // Out of step with the server (the bytes of a try whose answer was lost got in, or it ended
    // the stream) a few times at most: a 409 that asking does not explain is the caller's.
    for (let conflicts = 0; !this.ended; conflicts += 1) {
      const headers = { "Upload-Offset": String(this.offset), "Content-Type": "application/offset+octet-stream" };
      if (length !== null) headers["Upload-Length"] = String(length);
      try {
        const reply = await request("PATCH", this.url, { headers, body: new Blob(this.pieces).slice(this.offset, this.size) });
        this.offset = Number(reply.header("Upload-Offset"));
        return reply;
      } catch (error) {
        if (error.status !== 409 || conflicts === 2) throw error;
      }
      const status = (await request("GET", this.url)).body;
      if (status.state === "receiving") this.offset = status.offset;
      else this.ended = status;
    }
    return null;
  }

  // Ends the stream unused: the server forgets what came, and deletes the capture it made of
  // the stream if it had finished it already.
  async cancel() {
    this.cancelled = true;
    await this.chain.catch(() => {});
    if (this.url) await request("DELETE", this.url).catch(() => {});
  }

  // Sends what is left with the length; the asset's id. Throws when the server will not make
  // the whole recording of this stream (it ended the stream with part of it, or refused it, or
  // cannot be reached): the caller then sends the recording whole.
  async finish() {
    await this.chain;
    const reply = await this.flush(this.size);
    if (this.ended) {
      if (this.ended.state === "done" && this.ended.offset === this.size) return this.ended.assetID;
      throw new ApiError(409, "stream_ended", "The server ended the recording's upload before all of it was in.");
    }
    const assetID = reply.header("X-Asset-ID");
    if (!assetID) throw new ApiError(503, "importing", "The server is still adding the recording.");
    return assetID;
  }
}
