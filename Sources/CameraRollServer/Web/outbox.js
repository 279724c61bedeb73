// Captures waiting for the server: a capture whose upload fails is kept in this browser
// (IndexedDB) and uploaded, to the Camera Roll, once the server answers again. An item leaves
// the outbox only after the server has acknowledged it, so none is ever lost.
import { json } from "./api.js";
import { objectStore } from "./stored.js";
import { newID, Upload } from "./uploads.js";

const transaction = objectStore("cameraroll-outbox", "captures", "id");

// Keeps a capture; its id names it until the server gives it an asset id. `saveToCameraRoll`
// false uploads it without saving it (an unsaved capture, as the Camera app's switch says).
export async function keep(blob, filename, { saveToCameraRoll = true } = {}) {
  const id = newID();
  await transaction("readwrite", (captures) => captures.put({ id, blob, filename, takenAt: Date.now(), saveToCameraRoll }));
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

// Where an item's upload is kept between tries and pages: on the item itself ({url, offset}),
// so that the next try goes on from what the server acknowledged. The item leaves with forget.
function shelf(item) {
  return {
    put: ({ url, offset }) => transaction("readwrite", (captures) => captures.put({ ...item, upload: { url, offset } })).catch(() => {}),
    remove: async () => {},
  };
}

// Uploads every waiting capture to the Camera Roll (resumable, see uploads.js), one page at a
// time (a Web Lock), and reports each one the server took as (outbox id, asset, whether it went
// to the Camera Roll). A capture the
// server refuses (too large, not a photo or video) is kept and marked with why, and the others
// still go; when the server cannot be reached or wants a sign-in, the rest wait for the next
// try, which goes on from the bytes the server has.
export async function send(onUploaded = () => {}) {
  const run = async () => {
    for (const item of await waiting()) {
      if (item.refused) continue;
      await unlessHeld(item.id, async () => {
        const upload = new Upload({
          file: item.blob, filename: item.filename, key: item.id,
          // Kept before the switch existed: to the Camera Roll, as then.
          metadata: { source: "camera", ...(item.saveToCameraRoll === false ? {} : { album: "cameraRoll" }) },
          url: item.upload?.url ?? null, offset: item.upload?.offset ?? 0, shelf: shelf(item),
        });
        await upload.sendOnce();
        if (upload.state === "refused") {
          await transaction("readwrite", (captures) => captures.put({ ...item, refused: upload.message }));
          return;
        }
        const asset = await json(`/api/assets/${upload.assetID}`);
        await forget(item.id);
        onUploaded(item.id, asset, item.saveToCameraRoll !== false);
      });
    }
  };
  return navigator.locks ? navigator.locks.request("cameraroll-outbox", run) : run();
}
