// The Share Link sheet: a link for people without an account to an album or to chosen items,
// with an expiry, an optional password, and whether it removes locations, allows downloads and
// (an album's) lets guests add to it. The link made is shown to copy or hand to the system's
// share sheet; an album's links are listed, each to copy again or revoke.
import { json, sendJSON } from "./api.js";
import { plainButton } from "./elements.js";

const dialog = document.querySelector("#share-link");
const $ = (selector) => dialog.querySelector(selector);
const said = $(".share-status");

const absolute = (url) => new URL(url, location.origin).href;

// `content`: { albumID } or { assetIDs }; `name`: what the sheet's title says is shared.
export async function offerLink(content, name) {
  $("h2").textContent = `Share Link to ${name}`;
  said.textContent = "";
  $("#link-password").value = "";
  $("#link-made").hidden = true;
  $("#link-upload-row").hidden = !content.albumID;
  $("#link-upload").checked = false;
  $("[value=copy]").hidden = true;
  $("[value=create]").hidden = false;
  dialog.returnValue = "";
  await listLinks(content.albumID);
  dialog.showModal();
  dialog.querySelector("form").onsubmit = async (event) => {
    const action = event.submitter?.value;
    if (action === "cancel") return;
    event.preventDefault();
    if (action === "copy") return copy($("#link-url").value);
    const password = $("#link-password");
    if (!password.checkValidity()) {
      said.textContent = "A password has at least 8 characters; leave it empty for none.";
      password.focus();
      return;
    }
    try {
      const expires = $("#link-expires").value;
      const link = await sendJSON("/api/shares", "POST", {
        ...content,
        expiresIn: expires ? Number(expires) : null,
        password: password.value || undefined,
        removeLocation: $("#link-location").checked,
        allowDownload: $("#link-download").checked,
        allowUpload: content.albumID ? $("#link-upload").checked : false,
      });
      $("#link-url").value = absolute(link.url);
      $("#link-made").hidden = false;
      $("[value=create]").hidden = true;
      $("[value=copy]").hidden = false;
      $("#link-url").select();
      $("#link-made").scrollIntoView({ block: "nearest" });
      said.textContent = "The link is made. Copy it and send it to whoever should see these.";
      await listLinks(content.albumID);
    } catch (error) {
      said.textContent = `The link was not made: ${error.message}`;
    }
  };
}

async function copy(url) {
  try {
    if (navigator.share && matchMedia("(pointer: coarse)").matches) {
      await navigator.share({ url });
      return;
    }
    await navigator.clipboard.writeText(url);
    said.textContent = "Copied.";
  } catch {
    $("#link-url").select();
    said.textContent = "Copy the selected link.";
  }
}

// An album's links, each with what it allows and until when.
async function listLinks(albumID) {
  const list = $(".album-links");
  list.replaceChildren();
  list.hidden = !albumID;
  if (!albumID) return;
  const { links } = await json("/api/shares");
  list.replaceChildren(...links.filter((link) => link.albumID === albumID).map((link) => linkRow(link, albumID)));
}

function linkRow(link, albumID) {
  const item = document.createElement("li");
  const detail = document.createElement("span");
  detail.className = "link-detail";
  const until = link.expired ? "Expired" : link.expiresAt
    ? `Until ${new Date(link.expiresAt).toLocaleDateString(undefined, { dateStyle: "medium" })}` : "Never expires";
  detail.textContent = [until, link.hasPassword && "password", link.removeLocation && "no location",
    link.allowDownload && "downloads", link.allowUpload && "guests add"].filter(Boolean).join(" · ");
  item.append(detail,
    plainButton("Copy", `Copy the link: ${detail.textContent}`, () => copy(absolute(link.url))),
    plainButton("Revoke", `Revoke the link: ${detail.textContent}`, async () => {
      try {
        await json(`/api/shares/${link.id}`, { method: "DELETE" });
        said.textContent = "The link is revoked: it no longer opens.";
        await listLinks(albumID);
      } catch (error) {
        said.textContent = error.message;
      }
    }, "plain danger"));
  return item;
}
