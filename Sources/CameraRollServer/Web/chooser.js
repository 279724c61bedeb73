// CameraRoll's chooser for other sites: include it with one <script src=".../app/chooser.js">
// (or `import ".../app/chooser.js"`), then, in a click handler,
//
//   const result = await CameraRoll.choose({ sourceType: "photoLibrary", mediaTypes: ["public.image"] });
//   if (result.status === "finished") show(result.info.editedImage ?? result.info.originalImage);
//
// It opens CameraRoll's picker in a popup (a tab on phones): a page of the server's own, so the
// camera works there and the user sees whose page it is and signs in there. The promise settles
// with {status: "finished", info, results} (the book's keys, and one info per item in the user's order; URLs absolute, loadable from this page
// until they expire), {status: "cancelled", closed} (closed: the user closed the window) or
// {status: "denied"} (the owner did not allow this site); it rejects with a ChooserError
// ({code, message}) when the popup cannot open or the server cannot be asked.
//
// Messages go only between this page and the popup it opened: each side checks the other's
// window and origin, and names the other's origin as the only one that may receive.
(() => {
  const scriptOrigin = document.currentScript?.src ? new URL(document.currentScript.src).origin : null;

  class ChooserError extends Error {
    constructor(code, message) {
      super(message);
      this.code = code;
    }
  }

  function nonce() {
    return [...crypto.getRandomValues(new Uint8Array(16))].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  }

  // The server's word on a session, read without credentials: this site's origin is all it needs.
  async function session(server, id, init = {}) {
    const response = await fetch(`${server}/api/picker/sessions/${id}`, { credentials: "omit", ...init });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new ChooserError(body.code ?? "http_error", body.message ?? `HTTP ${response.status}`);
    return body;
  }

  function cancel(server, id) {
    return session(server, `${id}/events`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ event: "cancel" }),
    }).catch(() => null);
  }

  // The info's links are the server's paths: made absolute here, so this page can use them as they are.
  function absolute(server, info) {
    if (!info) return info;
    const copy = { ...info };
    for (const key of ["originalImage", "editedImage", "mediaURL"]) {
      if (copy[key]) copy[key] = new URL(copy[key], server).href;
    }
    if (copy.livePhoto) {
      const { imageURL, movieURL } = copy.livePhoto;
      copy.livePhoto = { imageURL: new URL(imageURL, server).href, movieURL: new URL(movieURL, server).href };
    }
    return copy;
  }

  function choose(options = {}) {
    const { server: given, windowFeatures = "popup,width=520,height=760", ...configuration } = options;
    let server;
    try {
      server = new URL(given ?? scriptOrigin).origin;
    } catch {
      return Promise.reject(new ChooserError("no_server", "Name the CameraRoll server: CameraRoll.choose({server: \"https://…\"})."));
    }
    const token = nonce();
    // Opened before anything is awaited, while the click still counts: browsers block popups later.
    const popup = window.open(`${server}/choose#origin=${encodeURIComponent(location.origin)}&nonce=${token}`,
      `cameraroll-${token}`, windowFeatures);
    if (!popup) {
      return Promise.reject(new ChooserError("popup_blocked", "The browser blocked CameraRoll's window; allow pop-ups for this site."));
    }
    return new Promise((resolve, reject) => {
      let sessionID = null;
      let ending = false;
      let settled = false;
      const settle = (outcome) => {
        if (settled) return;
        settled = true;
        window.removeEventListener("message", onMessage);
        clearInterval(watch);
        if (!popup.closed) popup.close();
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      // Once: the popup's last word and its closing may both come.
      const finish = async (told) => {
        if (ending) return;
        ending = true;
        if (told?.status === "denied") return settle({ status: "denied" });
        if (!sessionID) return settle({ status: "cancelled", closed: told === null });
        try {
          const result = await session(server, sessionID);
          if (result.status === "finished") {
            const results = (result.results ?? [result.info]).map((info) => absolute(server, info));
            return settle({ status: "finished", info: absolute(server, result.info), results });
          }
          if (result.status === "pending") await cancel(server, sessionID);
          settle({ status: "cancelled", closed: told === null });
        } catch (error) {
          settle(error instanceof ChooserError ? error : new ChooserError("offline", "The CameraRoll server could not be reached."));
        }
      };
      const onMessage = (event) => {
        const data = event.data;
        if (event.source !== popup || event.origin !== server || typeof data !== "object" || data === null) return;
        if (data.cameraroll === "ready" && data.nonce === token) {
          popup.postMessage({ cameraroll: "request", nonce: token, configuration }, server);
        } else if (data.cameraroll === "session" && data.nonce === token && typeof data.id === "string") {
          sessionID = data.id;
          // The popup navigates to the picker only once it knows this page has the id.
          popup.postMessage({ cameraroll: "session-received", nonce: token, id: data.id }, server);
        } else if (data.cameraroll === "denied" && data.nonce === token) {
          finish({ status: "denied" });
        } else if (data.picker && data.picker === sessionID) {
          finish(data);
        }
      };
      window.addEventListener("message", onMessage);
      // Nothing tells an opener that its popup closed; it looks.
      const watch = setInterval(() => {
        if (popup.closed) finish(null);
      }, 400);
    });
  }

  globalThis.CameraRoll = Object.freeze({ choose, ChooserError });
})();
