// Presents the picker to a page of this origin, as UIImagePickerController is presented: a
// session is created on the server, its page fills the window in a modal dialog, and the
// promise settles with {status: "finished", info} or {status: "cancelled"}. The picker page
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

export async function presentPicker(configuration) {
  const session = await sendJSON("/api/picker/sessions", "POST", configuration);
  const api = `/api/picker/sessions/${session.id}`;
  const { dialog, frame } = sheet();
  document.body.append(dialog);
  frame.src = session.url;
  dialog.showModal();
  return new Promise((resolve) => {
    let settled = false;
    const settle = async (reason) => {
      if (settled) return;
      settled = true;
      window.removeEventListener("message", onMessage);
      if (reason === "escape") await sendJSON(`${api}/events`, "POST", { event: "cancel" }).catch(() => {});
      const result = await json(api).catch(() => ({ status: "cancelled" }));
      dialog.close();
      dialog.remove();
      resolve(result.status === "finished" ? { status: "finished", info: result.info } : { status: "cancelled" });
    };
    const onMessage = (event) => {
      if (event.origin === location.origin && event.data?.picker === session.id) settle("ended");
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
