// Type declarations for the `citelens` npm package (citelens.js). The report types mirror
// crates/citelens-types/src/report.rs; tests/browser/npm-package.test.mjs type-checks real reports
// against them with `tsc --strict`, so a field added or renamed there fails here.

/** One cited source. `text` (a passage), `triples` (knowledge-graph facts) or `document` (a long text). */
export interface Citation {
  id: string | number;
  text?: string | null;
  title?: string | null;
  url?: string | null;
  /** `[subject, relation, object]` facts. */
  triples?: [string, string, string][] | null;
  entity?: string | null;
  document?: string | null;
}

/** What `verify` reads (schema/input.schema.json). */
export interface Input {
  question?: string | null;
  /** The answer with citation markers: `[1]`, `[1][2]`, `[NA]`, knowledge-graph markers. */
  answer: string;
  citations?: Citation[];
  minimum_knowledge?: [string, string, string][] | null;
}

export type Category = "supportive" | "partially_supportive" | "contradictory" | "irrelevant";
export type ComplexityType = "single" | "union" | "intersection" | "concatenation";
export type ClaimStatus = "supported" | "partially_supported" | "missing" | "contradicted" | "unrelated" | "not_verifiable";
export type SpanLabel = "supported" | "missing" | "contradicted" | "not_verifiable";
/** What decided a verdict: CAQA's rule, the four-way head, the learned combiner, or the sentences. */
export type DecidedBy = "rules" | "four_way_head" | "model" | "combiner" | "sentences";
export type CheckKind = "number" | "date" | "polarity" | "name";
export type CheckResult = "match" | "absent" | "mismatch" | "unconfirmed";
export type NodeKind = "answer" | "citation" | "entity" | "bridge";
export type EdgeKind = "supports" | "partially_supports" | "contradicts" | "cited" | "mentions" | "leads_to" | "names";
export type FindingKind =
  | "unknown_marker" | "uncited_citation" | "empty_answer" | "uncited_sentence" | "empty_citation" | "truncated" | "abstention" | "four_way" | "not_scored";

/** The NLI model's probabilities for one (evidence, claim) pair. */
export interface Probs {
  entailment: number;
  neutral: number;
  contradiction: number;
  /** supportive, partially supportive, contradictory, irrelevant (when the model has the four-way head). */
  four_way?: [number, number, number, number];
  /** P(the premise is evidence for the claim) (when the model has the evidence head). */
  evidence?: number;
}

export interface Verdict {
  category: Category;
  confidence: number;
  /** The evidence does not decide clearly: shown as unsure. */
  uncertain: boolean;
  decided_by: DecidedBy;
}

export interface Range { start: number; end: number }

export interface EvidenceRef {
  citation: string;
  start?: number;
  end?: number;
  triple?: [string, string, string];
  text: string;
  probabilities: Probs;
}

export interface CitationScore { citation: string; probabilities: Probs }

export interface CheckReport {
  kind: CheckKind;
  result: CheckResult;
  answer_says: string;
  source_says?: string;
  message: string;
  probe_entailment?: number;
}

/** Which rule of the engine decided a claim's status. */
export type ClaimRule =
  | "check_confirmed_conflict" | "head_reads_missing_not_contradicted" | "entailed" | "unlinked_names" | "head_reads_missing"
  | "unrelated" | "checked_doubt_contradicted" | "two_heads_contradict" | "three_readings_contradict" | "model_only_contradiction"
  | "not_stated";

export interface ClaimReport {
  text: string;
  parts: Range[];
  status: ClaimStatus;
  probabilities: Probs;
  /** "joint" (the citations read together) or the id of the citation that decided. */
  decided_by: string;
  by_citation: CitationScore[];
  evidence: EvidenceRef[];
  relevance: number;
  coverage: number;
  missing_entities: string[];
  confidence: number;
  uncertain: boolean;
  checks: CheckReport[];
  not_found?: boolean;
  /** The rule that gave `status`. */
  rule?: ClaimRule;
}

export interface CitationVerdict { citation: string; category: Category; confidence: number }

export interface Quote { citation: string; start: number; end: number; text: string }

export interface AbstentionCheck { unanswerable: boolean; coverage: number; nearest: Quote[]; message: string }

export interface SentenceReport {
  /** Character offsets into the answer as given (markers included). */
  start: number;
  end: number;
  text: string;
  citations: string[];
  verdict: Verdict | null;
  per_citation: CitationVerdict[];
  complexity: ComplexityType | null;
  claims: ClaimReport[];
  abstention?: AbstentionCheck;
}

export interface Span { start: number; end: number; label: SpanLabel; text: string; evidence: EvidenceRef[] }

export interface GraphNode { id: string; kind: NodeKind; label: string }
export interface GraphEdge { from: string; to: string; kind: EdgeKind }
export interface Complexity { type: ComplexityType; graph: { nodes: GraphNode[]; edges: GraphEdge[] } }

export interface CitedFact {
  sentence: number;
  entity: string;
  relation: string;
  value: string;
  matched: [string, string, string] | null;
  alignment: number;
}

/** KaLMA's citation metrics (knowledge-graph citations). */
export interface KgMetrics {
  correctness: number;
  precision: number;
  recall: number | null;
  alignment: number;
  cited_facts: CitedFact[];
  not_verifiable_sentences: number[];
}

export interface Finding { kind: FindingKind; message: string }

/** The report `verify` resolves to. */
export interface Report {
  version: string;
  model: string;
  overall: Verdict;
  complexity: Complexity;
  sentences: SentenceReport[];
  citations: CitationVerdict[];
  spans: Span[];
  kg?: KgMetrics;
  findings: Finding[];
  pairs_scored: number;
  /** Where it was computed: "browser", or "worker" for a citelens-worker. */
  computed_on?: string;
}

export interface LoadProgress { stage: string; loaded: number; total: number; cached?: boolean }

export interface LoadOptions {
  /** URL of the folder serving this package's files (worker.js, engine.js, pkg/, model/, pdfjs/), when
   * they are not served beside citelens.js: for example "/node_modules/citelens/". */
  assetsUrl?: string | URL;
  /** URL of the model folder (default: model/ under the assets). */
  modelBase?: string | URL;
  /** false: verify on the page's thread; a string: the URL of a citelens-worker (with `token`). */
  worker?: boolean | string;
  token?: string;
  workerSha256?: string;
  /** How many Web Workers score pairs in parallel (default: the cores, at most 4). */
  workers?: number;
  onProgress?: (progress: LoadProgress) => void;
}

export interface LoadInfo {
  model: string;
  bytes?: number;
  cached?: boolean;
  loadMs?: number;
  mode: "worker" | "page" | "remote";
  workers?: number;
  /** Why a configured citelens-worker is not used. */
  fallback?: string;
  [key: string]: unknown;
}

export interface VerifyOptions {
  /** Streams the report sentence by sentence. */
  onSentence?: (partial: Report, done: number, total: number) => void;
  /** With long documents: candidate evidence sentences scored before the first report. */
  onProgress?: (progress: { stage: string; done: number; total: number }) => void;
}

/** A typed error; `kind` says what failed. */
export class CitelensError extends Error {
  kind: "fetch" | "hash" | "load" | "not_loaded" | "input" | "verify" | "document";
  reason?: string;
}

/** Loads the model once; later calls share it. */
export function load(options?: LoadOptions): Promise<LoadInfo>;
/** Verifies one cited answer (loading the model first if needed). */
export function verify(input: Input, options?: VerifyOptions): Promise<Report>;
/** A long document's text from a .txt, .html or .pdf File or Blob, for a citation's `document`. */
export function documentText(file: Blob): Promise<{ text: string; kind: string; pages?: number; cut: boolean }>;
/** Connects to a citelens-worker. */
export function connectWorker(options: LoadOptions & { worker: string }): Promise<unknown>;

/** `<cite-lens>`: renders the verdict of one cited answer (its `input` property or JSON attribute). */
export class CiteLensElement extends HTMLElement {
  input: Input | null;
  readonly report: Report | null;
}

declare global {
  interface HTMLElementTagNameMap {
    "cite-lens": CiteLensElement;
  }
}
