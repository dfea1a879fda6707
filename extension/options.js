// Settings, kept in chrome.storage.local: highlights, the optional worker (issue 15) and the host
// permission that lets the offscreen document read cited pages.
const ALL_SITES = { origins: ["https://*/*", "http://*/*"] };
const $ = (id) => document.getElementById(id);

async function show() {
  const { settings = {} } = await chrome.storage.local.get("settings");
  $("paintSupported").checked = settings.paintSupported !== false;
  $("unsureBelow").value = Math.round((Number(settings.unsureBelow) || 0) * 100);
  $("workerUrl").value = settings.workerUrl || "";
  $("workerToken").value = settings.workerToken || "";
  $("allowed").textContent = (await chrome.permissions.contains(ALL_SITES)) ? "allowed" : "not allowed yet";
}

$("allow").addEventListener("click", async () => {
  await chrome.permissions.request(ALL_SITES).catch(() => false);
  show();
});

$("save").addEventListener("click", async () => {
  const url = $("workerUrl").value.trim();
  $("workerError").hidden = true;
  if (url) {
    let u = null;
    try {
      u = new URL(url);
    } catch {}
    if (!u || (u.protocol !== "http:" && u.protocol !== "https:")) {
      $("workerError").textContent = "The worker URL must be an http:// or https:// address.";
      $("workerError").hidden = false;
      return;
    }
  }
  const bar = Number($("unsureBelow").value);
  const unsureBelow = Number.isFinite(bar) ? Math.min(Math.max(bar, 0), 100) / 100 : 0;
  const settings = { paintSupported: $("paintSupported").checked, unsureBelow, workerUrl: url, workerToken: $("workerToken").value };
  await chrome.storage.local.set({ settings });
  $("saved").textContent = "saved";
});

show();
