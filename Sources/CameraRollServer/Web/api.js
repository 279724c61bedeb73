// The server's JSON API as the pages use it: every error a client can cause comes back as
// {code, message}, turned here into an ApiError the page can show and act on.
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

let csrfToken = null;

// A signed-in browser sends its session's CSRF token with every change; on the server's own
// computer there is none and none is needed.
export async function csrfHeaders(method = "GET") {
  if (method === "GET" || method === "HEAD") return {};
  if (csrfToken === null) csrfToken = (await json("/api/session")).csrfToken ?? "";
  return csrfToken ? { "X-CSRF-Token": csrfToken } : {};
}

// A session that ended sends the whole window (not a picker's frame) to the sign-in page.
function signInAgain() {
  const page = window.top ?? window;
  page.location.assign(`/signin?next=${encodeURIComponent(page.location.pathname + page.location.search)}`);
}

export function failure(status, body) {
  if (body.code === "csrf") csrfToken = null;
  return new ApiError(status, body.code ?? "http_error", body.message ?? `HTTP ${status}`);
}

export async function json(url, options = {}) {
  let response;
  try {
    const headers = { ...(await csrfHeaders(options.method)), ...(options.headers ?? {}) };
    response = await fetch(url, { ...options, headers });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(0, "offline", "The server could not be reached. Check the connection and try again.");
  }
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    if (response.status === 401 && body.code === "sign_in_required") signInAgain();
    throw failure(response.status, body);
  }
  return body;
}

// Whether a failed upload should be kept to send again: the server was unreachable, failed,
// or wants a sign-in first; not when it refused the file itself.
export function worthRetrying(error) {
  return error.status === 0 || error.status === 401 || error.status === 403 || error.status === 429 || error.status >= 500;
}

export function sendJSON(url, method, value) {
  return json(url, { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(value) });
}
