// The server's JSON API as the pages use it: every error a client can cause comes back as
// {code, message}, turned here into an ApiError the page can show and act on.
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function json(url, options = {}) {
  let response;
  try {
    response = await fetch(url, options);
  } catch {
    throw new ApiError(0, "offline", "The server could not be reached. Check the connection and try again.");
  }
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, body.code ?? "http_error", body.message ?? `HTTP ${response.status}`);
  return body;
}

export function sendJSON(url, method, value) {
  return json(url, { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(value) });
}

// Uploads a file or blob as the body of POST /api/assets, reporting progress (0…1). XHR, not
// fetch, because only XHR reports upload progress.
export function upload(blob, { filename, query = "", onProgress = () => {} }) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", `/api/assets${query}`);
    request.setRequestHeader("Content-Type", blob.type || "application/octet-stream");
    if (filename) request.setRequestHeader("X-Filename", encodeURIComponent(filename));
    request.responseType = "json";
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    request.addEventListener("load", () => {
      const body = request.response ?? {};
      if (request.status >= 200 && request.status < 300) resolve(body);
      else reject(new ApiError(request.status, body.code ?? "http_error", body.message ?? `HTTP ${request.status}`));
    });
    const offline = () => reject(new ApiError(0, "offline", "The upload did not reach the server. Check the connection and try again."));
    request.addEventListener("error", offline);
    request.addEventListener("timeout", offline);
    request.send(blob);
  });
}
