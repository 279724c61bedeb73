// Presents the picker to a page of this origin, as UIImagePickerController is presented: a
// session is created on the server, its page fills the window in a modal dialog, and the
// promise settles with {status: "finished", info} or {status: "cancelled"} (or, for the camera
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

function show(url) {
  const { dialog, frame } = sheet();
  document.body.append(dialog);
  frame.src = url;
  dialog.showModal();
  return dialog;
}

function close(dialog) {
  dialog.close();
  dialog.remove();
}

// Without the server, the camera still works: captures are queued in the outbox and the
// promise settles with {status: "queued", outboxID}.
function presentOffline(configuration) {
  const dialog = show(`/picker/offline#${encodeURIComponent(JSON.stringify(configuration))}`);
  return new Promise((resolve) => {
    const settle = (result) => {
      window.removeEventListener("message", onMessage);
      close(dialog);
      resolve(result);
    };
    const onMessage = (event) => {
      if (event.origin !== location.origin || event.data?.picker !== "offline") return;
      settle(event.data.status === "queued" ? { status: "queued", outboxID: event.data.outboxID } : { status: "cancelled" });
    };
    window.addEventListener("message", onMessage);
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      settle({ status: "cancelled" });
    });
  });
}

export async function presentPicker(configuration) {
  let session;
  try {
    session = await sendJSON("/api/picker/sessions", "POST", configuration);
  } catch (error) {
    if (error.code === "offline" && configuration.sourceType === "camera") return presentOffline(configuration);
    throw error;
  }
  const api = `/api/picker/sessions/${session.id}`;
  const dialog = show(session.url);
  return new Promise((resolve) => {
    let settled = false;
    const settle = async (reason, told = null) => {
      if (settled) return;
      settled = true;
      window.removeEventListener("message", onMessage);
      if (reason === "escape") await sendJSON(`${api}/events`, "POST", { event: "cancel" }).catch(() => {});
      // The server's word first; what the picker page said if the server cannot be asked.
      const result = await json(api).catch(() => told ?? { status: "cancelled" });
      close(dialog);
      resolve(result.status === "finished" ? { status: "finished", info: result.info } : { status: "cancelled" });
    };
    const onMessage = (event) => {
      if (event.origin === location.origin && event.data?.picker === session.id) settle("ended", event.data);
    };
    window.addEventListener("message", onMessage);
    // Escape outside the picker's own page (focus on the dialog itself) cancels, as its
    // Cancel button does.
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      settle("escape");
    });
  });
}
