// citelens' service worker: routes messages and keeps each tab's state; nothing heavy runs here (a
// service worker cannot start our wasm workers). Verification runs in the offscreen document, which is
// created lazily and once (concurrent callers share one creation) and answers a ping before the first
// message. Each tab's answers and reports live in chrome.storage.session, where the side panel reads them.

const OFFSCREEN_URL = "offscreen.html";
const MENU_ID = "citelens-verify-selection";
const CONTENT_FILES = ["content/adapters.js", "content/extract.js", "content/overlay.js", "content/content.js"];

let offscreenReady = null;

async function hasOffscreen() {
  const url = chrome.runtime.getURL(OFFSCREEN_URL);
  const contexts = await chrome.runtime.getContexts({ contextTypes: ["OFFSCREEN_DOCUMENT"], documentUrls: [url] });
  return contexts.length > 0;
}

/** The offscreen document, created once and answering. */
function ensureOffscreen() {
  offscreenReady ??= (async () => {
    if (!(await hasOffscreen())) {
      try {
        await chrome.offscreen.createDocument({
          url: OFFSCREEN_URL,
          reasons: ["WORKERS", "DOM_PARSER"],
          justification: "Runs the citelens model in Web Workers and parses the cited pages to check an answer against them.",
        });
      } catch (e) {
        // Another instance of this worker created it between our check and our call.
        if (!/single offscreen|already/i.test(String(e.message))) throw e;
      }
    }
    // Handshake: the document's listener is up once it answers.
    for (let i = 0; i < 100; i++) {
      const pong = await chrome.runtime.sendMessage({ target: "offscreen", type: "ping" }).catch(() => null);
      if (pong?.ok) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("the offscreen document did not answer");
  })().catch((e) => {
    offscreenReady = null;
    throw e;
  });
  return offscreenReady;
}

const stateKey = (tabId) => `tab:${tabId}`;

async function tabState(tabId) {
  const key = stateKey(tabId);
  return (await chrome.storage.session.get(key))[key] || { answers: {} };
}

/** Tab states are updated one at a time per tab (reads and writes of one tab never interleave). */
const tabLocks = new Map();
function updateTab(tabId, change) {
  const run = (tabLocks.get(tabId) || Promise.resolve()).then(async () => {
    const state = await tabState(tabId);
    change(state);
    await chrome.storage.session.set({ [stateKey(tabId)]: state });
  });
  tabLocks.set(tabId, run.catch(() => {}));
  return run;
}

/** Which cited origins we may read (granted optional host permissions); others are still tried, as a
 * page that allows cross-origin reads needs no permission. */
async function permittedOrigins(citations) {
  const out = {};
  for (const c of citations) {
    try {
      const origin = new URL(c.url).origin;
      out[c.id] = await chrome.permissions.contains({ origins: [`${origin}/*`] });
    } catch {
      out[c.id] = false;
    }
  }
  return out;
}

async function verifyForTab(msg, tab) {
  const tabId = tab.id;
  const entry = {
    key: msg.key,
    adapter: msg.adapter,
    pageUrl: tab.url,
    question: msg.question,
    answer: msg.answer,
    citations: msg.citations,
    refused: msg.refused || [],
    cut: !!msg.cut,
    status: "reading",
    started: Date.now(),
  };
  await updateTab(tabId, (s) => {
    s.answers[msg.key] = entry;
    s.latest = msg.key;
  });
  try {
    await ensureOffscreen();
    const permitted = await permittedOrigins(msg.citations);
    const { settings = {} } = await chrome.storage.local.get("settings");
    const worker = settings.workerUrl ? { workerUrl: settings.workerUrl, workerToken: settings.workerToken } : null;
    const request = { target: "offscreen", type: "verify", tabId, key: msg.key, question: msg.question, answer: msg.answer, citations: msg.citations, permitted, settings: worker };
    let res = await chrome.runtime.sendMessage(request).catch(() => null);
    if (!res) {
      // The document went away (Chrome may close it, or this worker restarted): create it again, once.
      offscreenReady = null;
      await ensureOffscreen();
      res = await chrome.runtime.sendMessage(request);
    }
    if (!res || res.error) throw new Error(res?.error || "the offscreen document did not answer");
    await updateTab(tabId, (s) => {
      s.answers[msg.key] = { ...entry, status: "done", report: res.report, sources: res.sources, input: res.input, timings: res.timings, ms: Date.now() - entry.started };
    });
    return { report: res.report, sources: res.sources };
  } catch (e) {
    await updateTab(tabId, (s) => {
      s.answers[msg.key] = { ...entry, status: "error", message: String(e.message || e) };
    });
    return { error: String(e.message || e) };
  }
}

/** Generic mode: the selection in `tab` checked as an answer; content scripts are injected where the
 * site has none (the menu click or the shortcut grants activeTab). */
async function verifySelection(tab) {
  const ask = () => chrome.tabs.sendMessage(tab.id, { target: "content", type: "verify-selection" });
  let res = await ask().catch(() => null);
  if (!res) {
    await chrome.scripting.insertCSS({ target: { tabId: tab.id }, files: ["content/overlay.css"] });
    await chrome.scripting.executeScript({ target: { tabId: tab.id }, files: CONTENT_FILES });
    res = await ask();
  }
  if (res?.error) await updateTab(tab.id, (s) => (s.notice = res.error));
  return res;
}

chrome.runtime.onInstalled.addListener(() => {
  chrome.contextMenus.create({ id: MENU_ID, title: "Verify with citelens", contexts: ["selection"] }, () => void chrome.runtime.lastError);
  chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => {});
});
chrome.contextMenus.onClicked.addListener((info, tab) => {
  if (info.menuItemId === MENU_ID && tab?.id != null) verifySelection(tab);
});
chrome.commands.onCommand.addListener((command, tab) => {
  if (command === "verify-selection" && tab?.id != null) verifySelection(tab);
});
chrome.tabs.onRemoved.addListener((tabId) => chrome.storage.session.remove(stateKey(tabId)));

chrome.runtime.onMessage.addListener((msg, sender, reply) => {
  if (!msg || msg.target === "offscreen" || msg.target === "content") return false;
  const tab = sender.tab;
  if (msg.type === "verify" && tab) {
    verifyForTab(msg, tab).then(reply);
    return true;
  }
  if (msg.type === "navigated" && tab) {
    // In-page navigation: the answers checked before it are no longer on the page.
    updateTab(tab.id, (s) => {
      s.answers = {};
      delete s.focus;
      delete s.notice;
    }).then(() => reply({ ok: true }));
    return true;
  }
  if (msg.type === "open-panel" && tab) {
    updateTab(tab.id, (s) => (s.focus = { key: msg.key, sentence: msg.sentence }));
    // Opening needs the click's user gesture, which the message carries: call it before any await.
    chrome.sidePanel.open({ tabId: tab.id }).then(() => reply({ ok: true }), (e) => reply({ error: String(e.message || e) }));
    return true;
  }
  if (msg.type === "progress" && msg.tabId != null) {
    updateTab(msg.tabId, (s) => {
      const a = s.answers[msg.key];
      if (a && a.status !== "done") a.progress = msg.progress;
    });
    return false;
  }
  return false;
});

// The handler the menu and the shortcut call, named for the browser tests (which cannot click a
// context menu): the same function, not a second path.
globalThis.citelens = { verifySelection: (tabId) => chrome.tabs.get(tabId).then(verifySelection), ensureOffscreen };
