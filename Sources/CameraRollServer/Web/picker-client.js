// Presents the picker to a page of this origin, as UIImagePickerController is presented: a
// session is created on the server, its page fills the window in a modal dialog, and the
// promise settles with {status: "finished", info, results} (`results`: one info per item, in the
// user's order; `info` is the first) or {status: "cancelled"} (or, for the camera
// while the server cannot be reached, {status: "queued", outboxID}). The picker page
// announces its end by postMessage; the result itself is read from the server.
import { json, sendJSON } from "./api.js";

function sheet() {
  const dialog = document.createElement("dialog");
  dialog.setAttribute("aria-label", "Picker");
  Object.assign(dialog.style, {
    padding: "0", border: "none", width: "100vw", height: "100dvh", maxWidth: "none", maxHeight: "none", margin: "0",
    background: "Canvas",
  });
  const frame = document.createElement("iframe");
  frame.title = "Picker";
  frame.allow = "camera; microphone";
  Object.assign(frame.style, { border: "none", width: "100%", height: "100%", display: "block" });
  dialog.append(frame);
  return { dialog, frame };
}

// Shows a picker page in the dialog until the page posts its end (resolving with that message)
// or Escape cancels the dialog itself, with focus outside the page (resolving with null).
function showUntilEnd(url, pickerID) {
  const { dialog, frame } = sheet();
  document.body.append(dialog);
  frame.src = url;
  dialog.showModal();
  return new Promise((resolve) => {
    const end = (message) => {
      window.removeEventListener("message", onMessage);
      dialog.close();
      dialog.remove();
      resolve(message);
    };
    const onMessage = (event) => {
      if (event.origin === location.origin && event.data?.picker === pickerID) end(event.data);
    };
    window.addEventListener("message", onMessage);
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      end(null);
    });
  });
}

export async function presentPicker(configuration) {
  let session;
  try {
    session = await sendJSON("/api/picker/sessions", "POST", configuration);
  } catch (error) {
    if (error.code !== "offline" || configuration.sourceType !== "camera") throw error;
    // Without the server, the camera still works: captures are queued in the outbox.
    const told = await showUntilEnd(`/picker/offline#${encodeURIComponent(JSON.stringify(configuration))}`, "offline");
    return told?.status === "queued" ? { status: "queued", outboxID: told.outboxID } : { status: "cancelled" };
  }
  const api = `/api/picker/sessions/${session.id}`;
  const told = await showUntilEnd(session.url, session.id);
  if (!told) await sendJSON(`${api}/events`, "POST", { event: "cancel" }).catch(() => {});
  // The server's word first; what the picker page said if the server cannot be asked.
  const result = await json(api).catch(() => told ?? { status: "cancelled" });
  return result.status === "finished" ? { status: "finished", info: result.info, results: result.results ?? [result.info] }
    : { status: "cancelled" };
}
