#include "harness/cli/help_text.h"

#include <string>
#include <utility>
#include <vector>

namespace schedcheck::cli {
namespace {

// Each footer is printed as written after the options (its first newline leaves a blank line):
// lines of at most 100 columns.

constexpr const char* kTopFooter = R"(
Every command has --help; harness/cli/COMMANDS.md collects them. Exit 2 always means bad
input (the file, position and field are named); 1 means a check failed (check, diff, gate); 3
means a build under test is not deterministic (gate, minimize, campaign).
Output files (-o, --jsonl, --junit, --markdown, --config-out, trace convert|sample OUT) replace a
regular file atomically (written beside it as OUT.tmp.PID, then renamed). A FIFO, device or socket
is written in place; a symlink is followed and the file it names replaced, so the link stays; `-`
is standard output (a binary trace is refused there when standard output is a terminal). An output
that is also an input of the command, or one file named for two outputs, is bad input and nothing
is written. Formats: docs/FORMATS.md.)";

constexpr const char* kCheckFooter = R"(
Case kinds: filter, score, schedule, preempt, queue; at compat 1.37 also hint (one plugin's
QueueingHints for one event) and update (the events an informer update of a Node or Pod makes).
Files are JSON, JSON Lines or YAML (docs/FORMATS.md, "Conformance case files"). Besides nodes,
pods, namespaces and PDBs a case may list services, replicationControllers, replicaSets and
statefulSets (their selectors feed PodTopologySpread's default constraints) and the storage
objects. A case's compat picks the release its expectation belongs to: 1.27 (the default) or 1.37
(v1.37.2's rules). A case whose level or kind is not implemented is skipped with the reason,
never passed.
Prints PASS id / FAIL id: expected ..., got ... / SKIP id: why, then `N passed, M failed[, K
skipped]`. Exit 0 when nothing failed, 1 when a case failed, 2 when a file could not be read or
holds no case (an empty, blank, comment-only or `---`-only file fails a CI job rather than passing
it), or a case is malformed (a field of the wrong type or out of range, an unknown op or plugin:
the error names the file, case, op index and field; numbers are range-checked, never narrowed).
The project's cases: reference/conformance/cases/<plugin>/ (bazel test
//harness/check:conformance_test runs each as its own test, in both engines); the 1.37 cases also
run through upstream's own v1.37.2 code (//harness/kube:casecheck_test).)";

constexpr const char* kReplayFooter = R"(
Replays in virtual time by the replay conventions (docs/FORMATS.md, "Replay conventions"): at
each instant first the trace's events in file order, then finishing cycles and bindings, then the
backoff flush (every 1 s) and the leftover flush (every 30 s), then scheduling cycles while activeQ
has pods. Trace events reach the cache and queue as kube-scheduler's informer handlers do. The
decision log (-o binary, --jsonl JSON Lines) holds every attempt with its tie set, rejecting
plugins and exact message, every queue transition with its upstream cause label and every binding.
The summary: pods bound/pending, attempts, queue moves by cause, time-to-schedule percentiles,
each pod's path through the queue, and pods that waited for the periodic flush although the
cluster changed meanwhile, each event named as registered by a rejecting plugin (its QueueingHint
or the move's pre-check kept the pod) or registered by none of them. Same trace, configuration and
seed give byte-identical output.
--compat 1.37 (or a trace header with compat "1.37") replays by kube-scheduler v1.37.2's rules:
its queue with QueueingHints, its informer handlers, its scheduling cycle, asynchronous
preemption and OpportunisticBatching; what is not modelled: docs/DEVIATIONS.md.
--feature-gates sets v1.37.2's beta and alpha gates for both sides of a run; every gate v1.37.2
reads while scheduling may be given its default, a non-default value only where the reference
models it (each with what it changes: docs/FORMATS.md, "Compatibility level 1.37 and feature
gates"); anything else is refused by name.
--candidate replays another build: in-process specs apply to --config; exec: and kube: run as a
child exactly as --scheduler-cmd does, sent the --config text (harness/protocol/PROTOCOL.md). A
child that times out, dies or writes garbage leaves the decisions received, marked incomplete
(the -o label `incomplete`, a last --jsonl record of type "incomplete"), and exit 2. kube:
children write upstream's own log to a file named once on stderr (SCHEDCHECK_KUBE_LOG=stderr
shows it there, =info with its informational lines). On a terminal a long replay shows one
progress line on stderr, erased at the end; its events/s is the only wall-clock reading and
reaches no output.)";

constexpr const char* kExplainFooter = R"(
Loads Kubernetes manifests (Nodes, Pods with spec.nodeName as bound pods, Namespaces, PDBs,
Services / ReplicationControllers / ReplicaSets / StatefulSets, the storage kinds, workloads as
the pods their controllers would create, Lists), schedules the first pod --pod yields once and
prints, for every node, each Filter plugin's status; for scored nodes each Score plugin's raw,
normalized and weighted score and the total; the tie set of top-scoring nodes (the real scheduler
picks among them at random); and the chosen node or the exact FailedScheduling message. For an
unschedulable pod, DefaultPreemption's dry run: every candidate node with its victims and PDB
violations, and the candidates tied after all of upstream's criteria. The profile is chosen by
the pod's schedulerName. Exit 0 explained (whatever the outcome), 2 bad input.)";

constexpr const char* kTraceFooter = R"(
The trace format (zstd frames of length-delimited protobuf records, CRC32C per frame, a reader
that tells a clean end from truncation and corruption): traces/README.md. Exit 0, or 2 on
unreadable, truncated or corrupt input.)";

constexpr const char* kImportFooter = R"(Examples:
  schedcheck import --from manifests cluster/ -o state.trace       # all objects at t = 0
  schedcheck import --from watch w1.json w2.json -o incident.trace
      # kubectl get pods,nodes,events -A --watch -o json --output-watch-events
  schedcheck import --from kss recorder-dir/ -o sim.trace          # kube-scheduler-simulator
  schedcheck import --from openb nodes.csv pods.csv -o openb.trace
Workloads (Deployments, ReplicaSets, ReplicationControllers, StatefulSets, DaemonSets, Jobs,
PodTemplates) become the pods their controllers would create, with deterministic names, unless
the input holds their pods; a StatefulSet's volumeClaimTemplates become unbound claims. Services,
ReplicationControllers, ReplicaSets and StatefulSets are also kept (selectors only) for
PodTopologySpread's default constraints; the storage kinds for the volume plugins. Only
scheduling-relevant fields are kept (no env, command, args, secrets, managedFields); annotations
are dropped unless --keep-annotations, except the few the volume plugins read; `trace info` lists
what was dropped. In watch and kss captures every write of the scheduler itself is an observed
decision, never an input: bindings, PodScheduled conditions, nominatedNodeName, preemption's
victims (Preempted Events, deletion marks) and Scheduled/FailedScheduling Events; updates that
carry only those are dropped, others lose them. The capture's nodeName changes are stripped so
that replay lets the reference place those pods (--keep-bindings keeps them). --compat sets the
trace's level (default: a `kubectl version -o json` object among watch inputs, else 1.27).
Mapping details, time rules and the openb GPU model: traces/importers/README.md.)";

constexpr const char* kDiffFooter = R"(
Per pod: placement (tie-aware: B's node in A's tie set is equivalent), attempts and their times,
rejecting plugins and messages, nomination and victims, and the queue path. Divergences are hard
(another outcome, plugins, victims or nomination), soft (a node outside A's ties: a moved
placement) or requeue (same outcome, other retry times or causes). Soft divergences fail like the
others (a build scoring MostAllocated instead of LeastAllocated is the commonest silent
regression); --allow-soft accepts them, for a build that knowingly samples or randomises.
--soft-fails, the old default's opposite, is accepted and ignored. Prints the first divergence
(with --cluster-trace: each side's per-plugin filter statuses and scores on the reference's
snapshot; B's side needs an in-process --candidate) and a summary table.
Against a capture (a log with observed decisions, from import --from watch|kss) only what a
capture carries is compared: per pod the distinct outcomes (consecutive identical failures folded,
as the events API aggregates them), the bound node (tie-aware) and when each outcome first
appeared, within --time-tolerance (default 2 s against a capture, 0 between two replays), and the
pod's nominated nodes and victims when the capture has them; the report lists every field it did
not compare. --cluster-trace explains at the logs' level (their headers'), else the trace's;
--compat overrides it, with a warning. Exit 0 equivalent, 1 any divergence, 2 bad input.)";

constexpr const char* kReportFooter = R"(
One self-contained page: the verdict and counts; a timeline of both sides' attempts with every
divergence marked; the divergences table; each divergent pod's path through the queue, side by
side with the differing steps highlighted; queue sizes over time for each side; and with --trace
the first divergent attempt's per-node filter statuses and per-plugin scores. It works offline
(data embedded as JSON, drawn by a small embedded script with SVG; its Content-Security-Policy
forbids loading anything) and shows pod names and messages as text, never as markup. Same inputs
give the same bytes. Exit 0 when the report was written (whatever it shows; use diff to gate),
2 on bad input. bazel test //harness/report:browser_test opens reports in headless Chromium.
When REFERENCE was replayed by another build than the reference, --baseline SPEC names it: the
explanation then labels each side with its build and configuration (--baseline-config,
--candidate-config; both default to --config), and an exec:/kube: side gets a note.)";

constexpr const char* kMinimizeFooter = R"(
Delta debugging (ddmin) down to a small trace on which the candidate still diverges the same
way: the first divergence has the same class and the same pod. Rounds of passes: the events in at
most 16 chunks, each node with the pods the reference bound to it, whole objects, single events
(to 1-minimality), then fields (labels, node selectors, taints, tolerations, requests, affinity,
spread constraints). A reduction never leaves an event on an object that does not exist unless the
input had it; events keep their times and order. exec: and kube: run in one child for the whole
minimization. --baseline SPEC replaces the reference as the other side (e.g. your plugin's
previous build); each side's configuration is its own flag (--baseline-config, --candidate-config),
else --config, else the default profile. --candidate-config is the candidate's base configuration
(e.g. --candidate kube:1.27 --candidate-config most-allocated.yaml plants MostAllocated into the
real scheduler). An exec:/kube: side first replays the input twice, in two processes.
Writes the minimal trace and beside it SMALL.trace.diff.txt (the target, the events, the fields
removed, every divergence, the first one explained), and prints `events N → M, objects N → M,
fields N → M, replays K`. Same input, same bytes. Exit 0 minimal trace written, 1 the input shows
no divergence (nothing written), 3 a build not deterministic (its two replays of the input differ:
"build SPEC is not deterministic on trace T: first difference at record N: ..."; or a divergence
that does not come back on the minimal trace), 2 bad input or a child or replay failing on it.)";

constexpr const char* kGateFooter = R"(
Replays every corpus trace (with <name>.config.yaml) with the reference and with the candidate,
diffs them, writes JUnit and Markdown, and exits 1 on any divergence. Candidate specs
(harness/candidates/candidate.h): in process reference, weight:PLUGIN=N, config:FILE,
forget-events:PLUGIN, joined with '+'; out of process, alone, exec:"CMD ARGS" (any speaker of the
protocol, run via /bin/sh -c) and kube:1.27 / kube:1.37, the bundled kube-scheduler adapters
(looked for in $SCHEDCHECK_KUBE_ADAPTER_DIR when set, else beside this binary as in bazel-bin, else
in Bazel runfiles; when missing, the error gives the bazel build command); kube:X.Y.Z (a patch
release) and kube-src:DIR (a local kubernetes checkout, its minor detected from the tree) are
built on first use and after each change, progress on stderr (harness/kube/README.md). An out-of-process
candidate runs as one child per trace; a child that dies, times out or writes garbage fails that
trace (ERROR, also in the reports), the others are still gated, and the gate exits 2. Explanations
of an out-of-process candidate's divergences show the reference's side only.
Build against build: --baseline SPEC (same specs) replaces the reference, e.g. a plugin's previous
build against its new one, or one build with two configurations. Each side's configuration:
--baseline-config / --candidate-config FILE, else the trace's <name>.config.yaml, else the default
profile; an exec:/kube: side is sent the file unparsed (it may name out-of-tree plugins).
Explanations then name each side's build and configuration; with no side in process they show the
reference's default profile, labelled as such. Determinism: on a trace that diverges, each
exec:/kube: side is replayed once more in a new process (--check-determinism: on every trace); if
its two logs differ the trace is NONDETERMINISTIC ("build SPEC is not deterministic on trace T:
first difference at record N: ..."; an error in JUnit/Markdown, not a divergence) and the gate
exits 3 (2 still wins when a child failed). In-process sides are the reference's engine.
ci/gate [--candidate SPEC] [--out DIR] builds from the checkout and writes DIR/gate.junit.xml and
DIR/gate.md.)";

constexpr const char* kCampaignFooter = R"(
Trace k of a campaign is drawn from one of --generators with a seed derived from (--seed, k), so
it is the same trace whatever --traces or --shard. Each trace is replayed by both sides (an
exec:/kube: side runs as one child process for the whole campaign) and diffed; traces whose first
divergence has one signature (class, what differs, plugins, both outcomes with names and numbers
stripped) form a group. A child that crashes or times out is a finding too (a crash group). With
`configs` in --generators each trace also runs a generated configuration on both sides (plugins
disabled, reweighted, reordered; plugin args), saved as the group's config.yaml. Per
group DIR/groups/ID/ holds the first trace (trace.trace), its diff (diff.txt, with the command that
reproduces it) and, minimized, min.trace, min.diff.txt and report.html (a crash group's trace is
reduced by its events while the same side fails the same way). DIR/summary.json (schema:
harness/campaign/README.md), summary.md and junit.xml hold no clock reading: the same seed and
shard give the same bytes. A new group's first trace is replayed once more by each exec:/kube:
side in another process; a build whose logs differ is NONDETERMINISTIC. --merge DIR... joins the
shards' folders into --out. Progress goes to stderr (redrawn on a terminal, else a line per 25
traces). Exit 0 no finding, 1 findings, 3 a build not deterministic on some trace, 2 bad input.)";

constexpr const char* kServeFooter = R"(
The reference behind the external-scheduler protocol (harness/protocol/PROTOCOL.md): replay
... --scheduler-cmd "schedcheck serve" gives byte for byte the in-process decision log. One process
may serve many runs (a new Hello after Finish). Exit 0 on a clean end of input, 2 on a protocol
error.)";

constexpr const char* kRecordFooter = R"(
Runs the recorder (harness/kube/recorder/README.md; build it with `bazel build
//harness/kube:recorder`, or name it in SCHEDCHECK_RECORDER): one list of every kind the trace
holds, plus Events, at one resourceVersion, then a watch per kind from there, written in
resourceVersion order with reconnects and expired watches handled and secrets redacted, until
SIGINT, SIGTERM or --duration. Then: import --from watch OUT -o TRACE; replay TRACE
--follow-cluster. Exit 0 recorded, 2 bad arguments or no recorder, 1 the cluster could not be
recorded.)";

constexpr const char* kGenerateFooter = R"(
Deterministic from the seed: upstream scheduler_perf shapes with upstream's node and pod
templates, the volume shapes of v1.27's performance-config.yaml (every pod mounts its own claim,
created already bound to its volume, so PreBind writes nothing), requeue scenarios (the last,
RequeueMissingRegistration, needs the configuration --config-out writes), and DayChurn (24 h of a
large cluster; --initial is the seconds between a node's updates). --list shows shapes and sizes.
The generated traces of traces/corpus were made this way (header label `generator`).)";

}  // namespace

void AddHelpFooters(CLI::App& app) {
  app.footer(kTopFooter);
  const std::vector<std::pair<const char*, const char*>> footers = {
      {"check", kCheckFooter},       {"replay", kReplayFooter},     {"explain", kExplainFooter},
      {"trace", kTraceFooter},       {"import", kImportFooter},     {"diff", kDiffFooter},
      {"report", kReportFooter},     {"minimize", kMinimizeFooter}, {"gate", kGateFooter},
      {"campaign", kCampaignFooter}, {"serve", kServeFooter},       {"generate", kGenerateFooter},
      {"record", kRecordFooter},
  };
  // Every name is a command main() adds: get_subcommand throws on a missing one, which every
  // --help run by //harness/cli:commands_md_test would show.
  for (const auto& [name, footer] : footers) app.get_subcommand(name)->footer(footer);
}

}  // namespace schedcheck::cli
