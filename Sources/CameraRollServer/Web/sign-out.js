// Whoever signed in can sign out from the page's bar; on the server's computer, unless someone
// signed in there, there is nobody to sign out, and the button stays hidden.
import { json } from "./api.js";

export function offerSignOut(button) {
  json("/api/session").then((session) => {
    button.hidden = !session.signedIn;
    button.addEventListener("click", async () => {
      await json("/api/session", { method: "DELETE" }).catch(() => {});
      location.assign("/signin");
    });
  }).catch(() => {});
}
