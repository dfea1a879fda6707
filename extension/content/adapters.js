// Per-site adapters as data: where the answer is, which elements are its citation markers, where their
// URLs are, and what says the answer has finished streaming. One small extractor hook per site at most
// (how a marker names its source). The selectors follow the DOM shapes of tests/extension/fixtures/,
// which copy each engine's structure; when a site changes its markup, this file is what changes.
//
// Fields:
//   id, name      the adapter's id (in reports) and the engine's name (in the side panel)
//   hosts         host names it runs on (the manifest's host_permissions and content_scripts list them)
//   paths         path prefixes where answers appear
//   answer        selectors of answer containers (the first that matches wins; every match is an answer)
//   question      selector of the question (optional; searched in the document)
//   citation      selector, inside the answer, of the elements that are citation markers
//   source        (marker element) -> URL string, for sites whose markers do not carry the link
//   finished      selector that exists once the answer is complete; `scope`: "answer" (inside the
//                 answer's turn, `turn` selector) or "document"
//   skip          selectors, inside the answer, whose text is not the answer's (buttons, menus)
(() => {
  const hrefOf = (el) => (el.matches("a[href]") ? el : el.querySelector("a[href]"))?.getAttribute("href") || null;

  const ADAPTERS = [
    {
      id: "perplexity",
      name: "Perplexity",
      hosts: ["www.perplexity.ai", "perplexity.ai"],
      paths: ["/search", "/page"],
      answer: ["div[id^='markdown-content-'] .prose"],
      question: "h1[data-testid='query'], h1",
      citation: "a.citation",
      turn: "div[data-testid='answer-turn']",
      finished: { selector: "button[aria-label='Copy']", scope: "answer" },
      skip: ["button"],
    },
    {
      id: "google-ai-overview",
      name: "Google AI Overview",
      hosts: ["www.google.com"],
      paths: ["/search"],
      answer: ["div[data-attrid='ai-overview'] .aio-text", "div[jsname='aio'] div[data-container-id='main-col']"],
      question: "textarea[name='q'], input[name='q']",
      citation: "a.aio-source-link, button[data-source-url]",
      source: (el) => el.getAttribute("data-source-url") || hrefOf(el),
      turn: "div[data-attrid='ai-overview']",
      finished: { selector: "div[data-aio-state='complete']", scope: "answer" },
      skip: ["button:not([data-source-url])", "[role='button']:not([data-source-url])"],
    },
    {
      id: "google-ai-mode",
      name: "Google AI Mode",
      hosts: ["www.google.com"],
      paths: ["/search", "/aimode"],
      answer: ["div[data-subtree='aimc'] div[data-aimode-response]"],
      question: "div[data-aimode-query]",
      citation: "a[data-aimode-citation]",
      turn: "div[data-subtree='aimc']",
      finished: { selector: "[data-aimode-complete='true']", scope: "answer" },
      skip: ["button"],
    },
    {
      id: "bing-copilot",
      name: "Bing / Copilot search",
      hosts: ["www.bing.com"],
      paths: ["/search", "/copilotsearch"],
      answer: ["cib-answer .answer-body", "div#b_copans .b_copText"],
      question: "input#sb_form_q, textarea#sb_form_q",
      citation: "a.cite, sup.citation a",
      turn: "cib-answer, div#b_copans",
      finished: { selector: "[data-stream-state='done']", scope: "answer" },
      skip: ["button"],
    },
    {
      id: "chatgpt",
      name: "ChatGPT search",
      hosts: ["chatgpt.com", "chat.openai.com"],
      paths: ["/"],
      answer: ["div[data-message-author-role='assistant'] .markdown"],
      question: "div[data-message-author-role='user']",
      citation: "span[data-testid='webpage-citation-pill']",
      turn: "article[data-testid^='conversation-turn-']",
      finished: { selector: "button[data-testid='copy-turn-action-button']", scope: "answer" },
      skip: ["button"],
    },
    {
      id: "brave",
      name: "Brave Search",
      hosts: ["search.brave.com"],
      paths: ["/search", "/ask"],
      answer: ["div#chatllm-content .answer-content", "div.summarizer .summary-content"],
      question: "input#searchbox",
      citation: "a.citation-link, sup a",
      turn: "div#chatllm-content, div.summarizer",
      finished: { selector: ".summarizer-footer, .answer-footer", scope: "answer" },
      skip: ["button"],
    },
    {
      id: "kagi",
      name: "Kagi",
      hosts: ["kagi.com"],
      paths: ["/search", "/assistant"],
      answer: ["div.quick-answer .qa-body", "div.chat_bot_message .message-content"],
      question: "input#searchBar",
      citation: "sup.ref",
      // Kagi numbers its markers and lists the sources under the answer: marker n is the list's n-th link.
      source: (el) => {
        const n = Number.parseInt((el.textContent || "").replace(/\D+/g, ""), 10);
        const turn = el.closest("div.quick-answer, div.chat_bot_message");
        const links = turn ? turn.querySelectorAll("ol.qa-references a[href], ol.references a[href]") : [];
        return Number.isInteger(n) && n >= 1 && n <= links.length ? links[n - 1].getAttribute("href") : hrefOf(el);
      },
      turn: "div.quick-answer, div.chat_bot_message",
      finished: { selector: "ol.qa-references, ol.references", scope: "answer" },
      skip: ["button", "ol.qa-references", "ol.references"],
    },
  ];

  /** The adapters for a location (host and path). */
  function adaptersFor(location) {
    return ADAPTERS.filter((a) => a.hosts.includes(location.hostname) && a.paths.some((p) => location.pathname.startsWith(p)));
  }

  globalThis.citelensAdapters = { ADAPTERS, adaptersFor };
})();
