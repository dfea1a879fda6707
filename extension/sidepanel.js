// The side panel: the full report of each answer checked on the tab, drawn by the widget's own
// renderer (<cite-lens>.showReport), the state of every cited page, and "open evidence" links that jump
// to the quoted sentence in the cited page (a text fragment, #:~:text=). Everything is text: no string
// from a page or a report is parsed as HTML.
import "./citelens/citelens.js";
import { textFragment } from "./fragment.js";

const params = new URLSearchParams(location.search);
let tabId = params.has("tab") ? Number(params.get("tab")) : null;


function webUrl(raw) {
  try {
    const u = new URL(raw);
    return u.protocol === "http:" || u.protocol === "https:" ? u : null;
  } catch {
    return null;
  }
}

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

function sourceList(a) {
  const list = el("ul", { class: "sources" });
  for (const s of a.sources || a.citations || []) {
    const u = webUrl(s.url);
    const li = el("li", { class: `source ${s.state === "read" ? "read" : "unreadable"}`, "data-source": s.id });
    const label = `[${s.id}] ${s.title || (u ? u.host + u.pathname : s.url)}`;
    li.append(u ? el("a", { href: u.href, target: "_blank", rel: "noopener noreferrer", text: label }) : el("span", { text: label }));
    if (s.state === "unreadable") li.append(el("span", { class: "why", text: ` — could not be read: ${s.message || s.reason}` }));
    else if (s.cut) li.append(el("span", { class: "why", text: " — long page: only its beginning was read" }));
    if (s.hint) li.append(el("div", { class: "why", text: `the answer pointed at: “${s.hint}”` }));
    list.append(li);
  }
  for (const r of a.refused || []) list.append(el("li", { class: "source unreadable", text: `${r.label || "a marker"} — left out: ${r.reason}` }));
  return list;
}

function evidenceList(a) {
  const list = el("ul", { class: "evidence-list" });
  const byId = Object.fromEntries((a.sources || []).map((s) => [s.id, s]));
  for (const span of a.report.spans || []) {
    const ev = (span.evidence || [])[0];
    if (!ev) continue;
    const li = el("li", { class: "evidence", "data-label": span.label });
    li.append(el("span", { class: `label-${span.label}`, text: `${span.label}: ` }), el("span", { text: `“${span.text}”` }));
    li.append(el("blockquote", { text: `[${ev.citation}] ${ev.text}` }));
    const u = webUrl(byId[ev.citation]?.url);
    if (u) {
      u.hash = "";
      li.append(el("a", { class: "open-evidence", href: u.href + textFragment(ev.text), target: "_blank", rel: "noopener noreferrer", text: "open evidence" }));
    }
    list.append(li);
  }
  return list;
}

function render(state, focus) {
  const main = document.getElementById("answers");
  const answers = Object.values(state?.answers || {}).sort((x, y) => y.key - x.key);
  const notice = document.getElementById("notice");
  notice.hidden = !state?.notice;
  notice.textContent = state?.notice || "";
  const unreadable = answers.some((a) => (a.sources || []).some((s) => s.reason === "no_permission"));
  document.getElementById("allow").hidden = !unreadable;
  if (!answers.length) return;
  main.replaceChildren();
  for (const a of answers) {
    const sec = el("section", { class: "answer", "data-key": String(a.key), "data-status": a.status });
    if (focus?.key === a.key) sec.classList.add("focused");
    sec.append(el("div", { class: "muted", text: `${a.adapter?.name || "Answer"}${a.question ? ` — “${a.question}”` : ""}` }));
    if (a.status === "done") {
      const lens = document.createElement("cite-lens");
      sec.append(lens);
      lens.showReport({ answer: a.answer, citations: (a.sources || []).map((s) => ({ id: s.id, url: s.url, title: s.title || s.url })) }, a.report);
      sec.append(el("h4", { text: "Evidence" }), evidenceList(a));
      const where = a.report.computed_on === "worker" ? "by your citelens worker" : "in this browser";
      sec.append(el("div", { class: "muted computed-on", "data-computed-on": a.report.computed_on || "browser", text: `checked in ${(a.ms / 1000).toFixed(1)} s ${where} with the model ${a.report.model}` }));
      if (a.timings?.fallback) sec.append(el("p", { class: "notice", text: a.timings.fallback }));
    } else if (a.status === "error") {
      sec.append(el("p", { class: "notice", text: `Could not check this answer: ${a.message}` }));
    } else {
      const p = a.progress;
      sec.append(el("p", { class: "muted", text: p?.total ? `Reading the cited pages… ${p.done} of ${p.total} candidate sentences` : "Reading the cited pages…" }));
    }
    sec.append(el("h4", { text: "Sources" }), sourceList(a));
    main.append(sec);
  }
  if (focus) document.querySelector(`section[data-key="${focus.key}"]`)?.scrollIntoView({ block: "start" });
}

async function refresh() {
  if (tabId == null) {
    const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
    if (!tab) return;
    tabId = tab.id;
  }
  const key = `tab:${tabId}`;
  const state = (await chrome.storage.session.get(key))[key];
  render(state, state?.focus);
}

document.getElementById("allow").addEventListener("click", async () => {
  await chrome.permissions.request({ origins: ["https://*/*", "http://*/*"] }).catch(() => false);
});
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === "session" && tabId != null && changes[`tab:${tabId}`]) refresh();
});
if (!params.has("tab")) {
  chrome.tabs.onActivated.addListener(({ tabId: id }) => {
    tabId = id;
    refresh();
  });
}
refresh();
