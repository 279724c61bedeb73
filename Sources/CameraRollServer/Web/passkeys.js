// Passkeys in the browser: the server's options (WebAuthn's JSON forms, byte strings as
// base64url) made into what navigator.credentials takes, and its answer made back into JSON.
// Written out rather than PublicKeyCredential.parseCreationOptionsFromJSON and toJSON, which
// browsers of a few years ago lack.
import { json, sendJSON } from "./api.js";

function bytes(text) {
  const plain = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(plain, (character) => character.charCodeAt(0)).buffer;
}

function text(buffer) {
  let plain = "";
  for (const byte of new Uint8Array(buffer)) plain += String.fromCharCode(byte);
  return btoa(plain).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
}

// Why this page cannot use a passkey, or null when it can. WebAuthn needs a secure context and
// a site named by a name: an IP address is no relying party.
export function passkeysUnavailable() {
  if (!window.PublicKeyCredential || !navigator.credentials) return "This browser has no passkeys.";
  if (!window.isSecureContext) return "Passkeys need this page over HTTPS.";
  if (/^[\d.]+$|^\[/.test(location.hostname)) {
    return `Passkeys need CameraRoll opened at its name, not at the address ${location.hostname}.`;
  }
  return null;
}

// A new passkey for the person signed in, named `name`: the server's list of their passkeys.
export async function addPasskey(name) {
  const options = await json("/api/passkeys/options", { method: "POST" });
  const credential = await navigator.credentials.create({
    publicKey: {
      ...options,
      challenge: bytes(options.challenge),
      user: { ...options.user, id: bytes(options.user.id) },
      excludeCredentials: options.excludeCredentials.map((entry) => ({ ...entry, id: bytes(entry.id) })),
    },
  });
  return sendJSON("/api/passkeys", "POST", {
    name,
    challenge: options.challenge,
    clientDataJSON: text(credential.response.clientDataJSON),
    attestationObject: text(credential.response.attestationObject),
  });
}

// Signs in with one of this site's passkeys the browser offers: the new session's state.
export async function signInWithPasskey() {
  const options = await json("/api/session/passkey/options", { method: "POST" });
  const credential = await navigator.credentials.get({
    publicKey: { ...options, challenge: bytes(options.challenge), allowCredentials: [] },
  });
  return sendJSON("/api/session/passkey", "POST", {
    challenge: options.challenge,
    id: text(credential.rawId),
    clientDataJSON: text(credential.response.clientDataJSON),
    authenticatorData: text(credential.response.authenticatorData),
    signature: text(credential.response.signature),
  });
}

// What a browser says when the person closes its passkey sheet or takes too long, in words.
export function passkeyFailure(error) {
  if (error?.name === "NotAllowedError") return "No passkey was used.";
  if (error?.name === "InvalidStateError") return "This device has a passkey here already.";
  return error?.message ?? "The passkey did not work. Try again.";
}
