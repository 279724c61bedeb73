// Captures waiting for the server: a capture whose upload fails is kept in this browser
// (IndexedDB) and uploaded, to the Camera Roll, once the server answers again. An item leaves
// the outbox only after the server has acknowledged it, so none is ever lost.
import { upload, worthRetrying } from "./api.js";
import { objectStore } from "./stored.js";

const transaction = objectStore("cameraroll-outbox", "captures", "id");

// Keeps a capture; its id names it until the server gives it an asset id.
export async function keep(blob, filename) {
  const id = crypto.randomUUID();
  await transaction("readwrite", (captures) => captures.put({ id, blob, filename, takenAt: Date.now() }));
  return id;
}

export function forget(id) {
  return transaction("readwrite", (captures) => captures.delete(id));
}

export function waiting() {
  return transaction("readonly", (captures) => captures.getAll());
}

export function capture(id) {
  return transaction("readonly", (captures) => captures.get(id));
}

// A capture on show in a picker is held by it (a Web Lock named after it) until the picker
// has sent it or let it go, so it is never sent twice, once from each page.
export function hold(id) {
  let release = () => {};
  navigator.locks?.request(`cameraroll-capture-${id}`, () => new Promise((resolve) => { release = resolve; }));
  return () => release();
}

async function unlessHeld(id, work) {
  if (!navigator.locks) return work();
  return navigator.locks.request(`cameraroll-capture-${id}`, { ifAvailable: true }, (lock) => (lock ? work() : null));
}

// Uploads every waiting capture to the Camera Roll, one page at a time (a Web Lock), and
// reports each one the server took as (outbox id, asset). A capture the server refuses (too
// large, not a photo or video) is kept and marked with why, and the others still go; when the
// server cannot be reached or wants a sign-in, the rest wait for the next try.
export async function send(onUploaded = () => {}) {
  const run = async () => {
    for (const item of await waiting()) {
      if (item.refused) continue;
      await unlessHeld(item.id, async () => {
        try {
          const asset = await upload(item.blob, { filename: item.filename, query: "?source=camera&album=cameraRoll" });
          await forget(item.id);
          onUploaded(item.id, asset);
        } catch (error) {
          if (worthRetrying(error)) throw error;
          await transaction("readwrite", (captures) => captures.put({ ...item, refused: error.message }));
        }
      });
    }
  };
  return navigator.locks ? navigator.locks.request("cameraroll-outbox", run) : run();
}
