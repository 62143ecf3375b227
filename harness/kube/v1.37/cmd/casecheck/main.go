// Command casecheck checks the project's conformance cases at compatibility level 1.37
// (reference/conformance/cases/**/*_1.37.yaml, docs/FORMATS.md "Conformance case files") against
// the real code of kubernetes v1.37.2: filter, score and hint cases against its plugins, update
// cases against its event classification and queue cases against its scheduling queue (below). Each
// plugin is made by upstream's in-tree registry (plugins.NewInTreeRegistry, so its feature.Features
// are the default feature gates, as kube-scheduler fills them), with its args decoded from the
// case's pluginArgs by kube-scheduler's configuration scheme (v1 defaults, validation), on a
// framework handle over a snapshot of the case's nodes and bound pods, and then called at each
// extension point the way the reference's case runner (harness/check/runner.cc) calls its own
// plugins. Filter and score cases may name NodeResourcesFit, NodeResourcesBalancedAllocation,
// NodePorts, NodeDeclaredFeatures, TaintToleration, NodeAffinity, NodeName, NodeUnschedulable,
// ImageLocality, PodTopologySpread, InterPodAffinity, VolumeBinding, VolumeZone,
// VolumeRestrictions and NodeVolumeLimits; the scheduler's metrics are registered first, as
// kube-scheduler does (the parallelizer of PodTopologySpread and InterPodAffinity counts
// goroutines in them). PreFilter's status and its merged PreFilterResult (expectPreFilterResult)
// can be checked. A score case runs the listed Filters on every node it scores, outcome ignored,
// before PreScore (VolumeBinding scores what its Filter found on each node); an expected PreScore
// failure (expectPreScore with a non-Success code and no expect) passes. The case's Namespace
// objects and storage objects (persistentVolumes, persistentVolumeClaims, storageClasses,
// csiNodes, csiDrivers, csiStorageCapacities; objects.go) are created in the handle's fake API
// server and reach its informers before the plugins are made (InterPodAffinity lists namespaces
// for namespaceSelector; the volume plugins read the storage objects through the informers'
// listers, VolumeBinding's binder through the informers themselves, NodeVolumeLimits CSINodes
// through the shared CSIManager that scheduler.New builds on the CSINode lister), and are deleted
// after the case, so that no case sees another's.
//
// A case of kind `hint` asks one plugin's queueing hints about one cluster event (hint.go): the
// plugin, made as above, gives its fwk.EnqueueExtensions registrations (EventsToRegister, default
// feature gates); those matching the case's event by framework.MatchClusterEvents are taken in
// registration order: one without a QueueingHintFn answers Queue, a hint function called with
// (pod, oldObject, newObject) that returns an error answers Queue with the error flag, Queue
// answers Queue, QueueSkip goes on to the next; all skipped is QueueSkip, none matching is
// NotRegistered. The answer and the error flag are compared with `expect`.
//
// A case of kind `update` involves no plugin and no cluster (update.go): it gives an informer
// update of a Node or a Pod (`resource`, `oldObject`, `newObject`, and for a Pod `targetPod`)
// to upstream's framework.NodeSchedulingPropertiesChange or framework.PodSchedulingPropertiesChange
// (default feature gates) and compares the returned events, each written
// "<Resource>/<ActionType>", with `expect.events`: the same events in the same order.
//
// A case of kind `queue` drives upstream's own scheduling queue (queue.go): a
// backend/queue.PriorityQueue built as scheduler.New builds it for one profile
// (default-scheduler; PrioritySort's Less; the backoff and leftover durations of `queueConfig`;
// a QueueingHintMap of `queueConfig.queueingHints`, each registration's hint function giving a
// fixed Queue, QueueSkip or an error; with `preEnqueue: [SchedulingGates]`, that plugin from the
// in-tree registry as the one PreEnqueue plugin), default feature gates, on a fake clock that
// starts at Unix time 1,700,000,000 s and moves only by `advanceClock`. The ops of
// `expect.ops` are applied in order: add, update (old object: the last one given for that
// pod), delete, pop (nothing poppable is `expect: null`; the popped QueuedPodInfo is kept for
// `failed`, which sets its rejecting plugins and calls AddUnschedulablePodIfNotPresent), done,
// activate, event (MoveAllToActiveOrBackoffQueue; the wildcard is UnschedulableTimeout),
// the two periodic flushes and expectQueues (activeQ, backoffQ, the unschedulable pool and the
// in-flight pods as sets). The adapter build's bridge (_overlay/queue_bridge.go) runs the
// flushes and tells whether Pop would return; heap ties go by enqueue order and moves take the
// pool in namespace/name order, as the replay conventions say. The case fails at the first op
// whose expectation differs, naming it ("ops[4] pop: expected default/b, got default/a").
//
//	casecheck FILE...
//
// prints `PASS id` or `FAIL id: detail` per case, in file order, then `N passed, M failed`.
// Exit status: 0 when every case passed, 1 when one failed, 2 on unreadable or unknown input
// (a case this program cannot run is not counted as passed or failed).
//
// Build it with harness/kube/build.sh --kube 1.37 --main ./cmd/casecheck -o casecheck.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/component-base/featuregate"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	plfeature "k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodevolumelimits"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	schedulermetrics "k8s.io/kubernetes/pkg/scheduler/metrics"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"

	"schedcheck.local/kube/shared/adapterkit"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(argv []string, stdout, stderr io.Writer) int {
	if len(argv) == 1 && argv[0] == "--print-gates" {
		printGates(stdout)
		return 0
	}
	if len(argv) == 0 || strings.HasPrefix(argv[0], "-") {
		fmt.Fprintln(stderr, "usage: casecheck FILE...   (or casecheck --print-gates)")
		return 2
	}
	adapterkit.QuietLogs()

	var all []*testCase
	ids := map[string]string{}
	for _, path := range argv {
		cases, err := loadFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "casecheck: %v\n", err)
			return 2
		}
		for _, c := range cases {
			if prev, dup := ids[c.ID]; dup {
				fmt.Fprintf(stderr, "casecheck: case id %q in %s repeats one in %s\n", c.ID, path, prev)
				return 2
			}
			ids[c.ID] = path
		}
		all = append(all, cases...)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e, err := newEnvironment(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "casecheck: %v\n", err)
		return 2
	}

	passed, failed, bad := 0, 0, 0
	for _, c := range all {
		r := e.runCase(c)
		switch {
		case r.badInput != "":
			bad++
			fmt.Fprintf(stderr, "casecheck: %s: case %s: %s\n", c.File, c.ID, r.badInput)
		case r.fail != "":
			failed++
			fmt.Fprintf(stdout, "FAIL %s: %s\n", c.ID, r.fail)
		default:
			passed++
			fmt.Fprintf(stdout, "PASS %s\n", c.ID)
		}
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	switch {
	case bad > 0:
		return 2
	case failed > 0:
		return 1
	}
	return 0
}

// printGates shows the feature gates (at their v1.37.2 defaults) that the plugins, the NodeInfo /
// DRA setup and the update classification (update.go) read.
func printGates(w io.Writer) {
	fts := plfeature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate)
	fmt.Fprintf(w, "%+v\n", fts)
	for _, g := range []featuregate.Feature{
		features.DynamicResourceAllocation, features.DRAExtendedResource, features.DRADeviceTaintRules,
		features.PodLevelResources, features.InPlacePodVerticalScaling,
		features.InPlacePodLevelResourcesVerticalScaling, features.NodeDeclaredFeatures,
		features.DRANodeAllocatableResources,
	} {
		fmt.Fprintf(w, "%s=%v\n", g, utilfeature.DefaultFeatureGate.Enabled(g))
	}
}

// environment is what kube-scheduler gives every plugin besides the snapshot: a client (fake,
// empty), an informer factory over it, and, with DynamicResourceAllocation on (its v1.37
// default), the shared DRA manager built as scheduler.New builds it. NodeResourcesFit and
// NodeResourcesBalancedAllocation read that manager when DRAExtendedResource is on (locked on
// at v1.37); with no DeviceClass in the cluster no extended resource is delegated to DRA.
type environment struct {
	ctx       context.Context
	client    *fake.Clientset
	informers informers.SharedInformerFactory
	dra       fwk.SharedDRAManager
	registry  frameworkruntime.Registry
}

func newEnvironment(ctx context.Context) (*environment, error) {
	// The scheduler's metrics, as kube-scheduler registers them at start: the parallelizer that
	// PodTopologySpread and InterPodAffinity use counts its goroutines in one of them.
	schedulermetrics.Register()
	client := fake.NewClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	e := &environment{ctx: ctx, client: client, informers: factory, registry: plugins.NewInTreeRegistry()}
	gate := utilfeature.DefaultFeatureGate
	if gate.Enabled(features.DynamicResourceAllocation) {
		logger := klog.FromContext(ctx)
		claims := assumecache.NewAssumeCache(logger, factory.Resource().V1().ResourceClaims().Informer(), "ResourceClaim", "", nil)
		opts := resourceslicetracker.Options{
			EnableDeviceTaintRules:   gate.Enabled(features.DRADeviceTaintRules),
			EnableConsumableCapacity: gate.Enabled(features.DRAConsumableCapacity),
			SliceInformer:            factory.Resource().V1().ResourceSlices(),
			KubeClient:               client,
		}
		if opts.EnableDeviceTaintRules {
			opts.TaintInformer = factory.Resource().V1().DeviceTaintRules()
		}
		tracker, err := resourceslicetracker.StartTracker(ctx, opts)
		if err != nil {
			return nil, fmt.Errorf("resource slice tracker: %w", err)
		}
		e.dra = dynamicresources.NewDRAManager(ctx, claims, tracker, factory)
	}
	// The informers of the case's objects must exist before Start to run at all: the plugins
	// ask for their listers only when a case makes them, after Start.
	registerInformers(factory)
	factory.Start(ctx.Done())
	for typ, ok := range factory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			return nil, fmt.Errorf("informer for %v did not sync", typ)
		}
	}
	return e, nil
}

type result struct {
	fail     string // non-empty: the case failed, and why
	badInput string // non-empty: the case cannot be run as written
}

// instance is one plugin of a case, made for that case's handle.
type instance struct {
	spec   pluginSpec
	plugin fwk.Plugin
}

// runCase runs one case with its namespaces and storage objects in the cluster, and takes them
// out again. Update and queue cases need no cluster.
func (e *environment) runCase(c *testCase) result {
	if c.Kind == "update" {
		return runUpdate(c)
	}
	if c.Kind == "queue" {
		return e.runQueue(c)
	}
	if err := e.createObjects(c.Objects); err != nil {
		_ = e.deleteObjects(c.Objects) // those that were made; the creation error is the one to report
		return result{fail: err.Error()}
	}
	r := e.runCaseInCluster(c)
	// An object left behind would be seen by the next cases: that is a failure of this run,
	// reported on this case unless it already failed.
	if err := e.deleteObjects(c.Objects); err != nil && r.fail == "" && r.badInput == "" {
		r.fail = err.Error()
	}
	return r
}

func (e *environment) runCaseInCluster(c *testCase) result {
	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()
	snapshot := cache.NewSnapshot(c.BoundPods, c.Nodes)
	opts := []frameworkruntime.Option{
		frameworkruntime.WithSnapshotSharedLister(snapshot),
		frameworkruntime.WithClientSet(e.client),
		frameworkruntime.WithInformerFactory(e.informers),
		frameworkruntime.WithParallelism(1),
		// As scheduler.New builds it: NodeVolumeLimits reads CSINodes through it.
		frameworkruntime.WithSharedCSIManager(nodevolumelimits.NewCSIManager(e.informers.Storage().V1().CSINodes().Lister())),
	}
	if e.dra != nil {
		opts = append(opts, frameworkruntime.WithSharedDRAManager(e.dra))
	}
	handle, err := frameworkruntime.NewFramework(ctx, nil, nil, opts...)
	if err != nil {
		return result{fail: fmt.Sprintf("framework handle: %v", err)}
	}
	defer func() {
		cancel()
		frameworkruntime.WaitForShutdown(handle)
	}()

	var instances []instance
	for _, spec := range c.Plugins {
		factory, ok := e.registry[spec.Name]
		if !ok {
			return result{badInput: fmt.Sprintf("plugin %q is not in the v1.37.2 in-tree registry", spec.Name)}
		}
		p, err := factory(ctx, c.Args[spec.Name], handle)
		if err != nil {
			return result{fail: fmt.Sprintf("creating plugin %s: %v", spec.Name, err)}
		}
		instances = append(instances, instance{spec: spec, plugin: p})
	}
	if c.Kind == "hint" {
		return runHint(ctx, c, instances[0])
	}

	// Every node of the cluster, in the case's order, as PreFilter sees them.
	nodeInfos := make([]fwk.NodeInfo, 0, len(c.Nodes))
	byName := map[string]fwk.NodeInfo{}
	for _, n := range c.Nodes {
		ni, err := snapshot.NodeInfos().Get(n.Name)
		if err != nil {
			return result{fail: fmt.Sprintf("snapshot: %v", err)}
		}
		nodeInfos = append(nodeInfos, ni)
		byName[n.Name] = ni
	}

	state := framework.NewCycleState()
	pre, preResult, skippedFilter := runPreFilter(ctx, instances, state, c.Pod, nodeInfos)
	if c.ExpectPreFilter != nil {
		if diff := compareStatus(*c.ExpectPreFilter, pre); diff != "" {
			return result{fail: "PreFilter: " + diff}
		}
	}
	if c.ExpectPreFilterResult != nil {
		if diff := comparePreFilterResult(*c.ExpectPreFilterResult, pre, preResult); diff != "" {
			return result{fail: "PreFilterResult: " + diff}
		}
	}
	if c.Kind == "filter" {
		return runFilter(ctx, c, instances, state, pre, skippedFilter, byName)
	}
	return runScore(ctx, c, instances, state, pre, skippedFilter, nodeInfos, byName)
}

// runPreFilter runs every PreFilter as the framework's RunPreFilterPlugins orders them: a Skip
// leaves that plugin's Filter out; UnschedulableAndUnresolvable or an error stops at once; an
// Unschedulable lets the others run and is the outcome unless a later one is worse. The status
// returned is the one a plugin test observes: the rejection as returned, Skip when every
// PreFilter plugin skipped, Success otherwise. The PreFilterResults of the plugins that succeeded
// are merged (PreFilterResult.Merge; nil: all nodes); an empty intersection stops there with
// UnschedulableAndUnresolvable "node(s) didn't satisfy plugin(s) [...] simultaneously".
func runPreFilter(ctx context.Context, instances []instance, state fwk.CycleState, pod *v1.Pod, nodes []fwk.NodeInfo) (*fwk.Status, *fwk.PreFilterResult, map[string]bool) {
	skipped := map[string]bool{}
	ran := 0
	var rejection *fwk.Status
	var merged *fwk.PreFilterResult
	var pluginsWithNodes []string
	for _, in := range instances {
		pl, ok := in.plugin.(fwk.PreFilterPlugin)
		if !ok || !in.spec.at("PreFilter") {
			continue
		}
		ran++
		r, s := pl.PreFilter(ctx, state, pod, nodes)
		if s.IsSkip() {
			skipped[in.spec.Name] = true
			continue
		}
		if s.IsSuccess() {
			if !r.AllNodes() {
				pluginsWithNodes = append(pluginsWithNodes, in.spec.Name)
			}
			merged = merged.Merge(r)
			if !merged.AllNodes() && len(merged.NodeNames) == 0 {
				// As RunPreFilterPlugins words it: the plugins in name order (sets.List).
				sort.Strings(pluginsWithNodes)
				msg := fmt.Sprintf("node(s) didn't satisfy plugin(s) %v simultaneously", pluginsWithNodes)
				if len(pluginsWithNodes) == 1 {
					msg = fmt.Sprintf("node(s) didn't satisfy plugin %v", pluginsWithNodes[0])
				}
				return fwk.NewStatus(fwk.UnschedulableAndUnresolvable, msg), merged, skipped
			}
			continue
		}
		s.SetPlugin(in.spec.Name)
		rejection = s
		if s.Code() != fwk.Unschedulable {
			break
		}
	}
	if rejection != nil {
		return rejection, merged, skipped
	}
	if ran > 0 && len(skipped) == ran {
		return fwk.NewStatus(fwk.Skip), merged, skipped
	}
	return nil, merged, skipped
}

// comparePreFilterResult returns "" when the merged PreFilterResult keeps the expected nodes, else
// what differs. As the reference's runner reads it, the result means all nodes only when
// PreFilter succeeded (or every plugin skipped) and no plugin narrowed it.
func comparePreFilterResult(want preFilterResultExpectation, pre *fwk.Status, got *fwk.PreFilterResult) string {
	wantAll := want.NodeNames == nil
	var wantNames []string
	if !wantAll {
		wantNames = append(wantNames, (*want.NodeNames)...)
		sort.Strings(wantNames)
	}
	gotAll := (pre.IsSuccess() || pre.IsSkip()) && got.AllNodes()
	var gotNames []string
	if !got.AllNodes() {
		gotNames = sets.List(got.NodeNames)
	}
	if wantAll == gotAll && (wantAll || equalStrings(wantNames, gotNames)) {
		return ""
	}
	show := func(all bool, names []string) string {
		if all {
			return "all nodes"
		}
		return quoteList(names)
	}
	return "expected " + show(wantAll, wantNames) + ", got " + show(gotAll, gotNames)
}

func runFilter(ctx context.Context, c *testCase, instances []instance, state fwk.CycleState, pre *fwk.Status,
	skipped map[string]bool, byName map[string]fwk.NodeInfo) result {
	var diffs []string
	for _, node := range sortedKeys(c.FilterExpect) {
		ni, ok := byName[node]
		if !ok {
			return result{fail: fmt.Sprintf("expect names node %q, which is not in the cluster", node)}
		}
		got := pre
		if pre.IsSuccess() || pre.IsSkip() {
			got = nil
			for _, in := range instances {
				pl, ok := in.plugin.(fwk.FilterPlugin)
				if !ok || !in.spec.at("Filter") || skipped[in.spec.Name] {
					continue
				}
				if s := pl.Filter(ctx, state, c.Pod, ni); !s.IsSuccess() {
					if !s.IsRejected() {
						// As the framework's runFilterPlugins words a plugin's error.
						s = fwk.AsStatus(fmt.Errorf("running %q filter plugin: %w", in.spec.Name, s.AsError()))
					}
					s.SetPlugin(in.spec.Name)
					got = s
					break
				}
			}
		}
		if diff := compareStatus(c.FilterExpect[node], got); diff != "" {
			diffs = append(diffs, node+": "+diff)
		}
	}
	if len(diffs) > 0 {
		return result{fail: strings.Join(diffs, "; ")}
	}
	return result{}
}

func runScore(ctx context.Context, c *testCase, instances []instance, state fwk.CycleState, pre *fwk.Status,
	skippedFilter map[string]bool, all []fwk.NodeInfo, byName map[string]fwk.NodeInfo) result {
	if !pre.IsSuccess() && !pre.IsSkip() {
		return result{fail: "PreFilter did not succeed, nothing to score: " + describe(pre)}
	}
	nodes := all
	if c.FeasibleNodes != nil {
		nodes = nil
		for _, name := range c.FeasibleNodes {
			ni, ok := byName[name]
			if !ok {
				return result{fail: fmt.Sprintf("feasibleNodes names node %q, which is not in the cluster", name)}
			}
			nodes = append(nodes, ni)
		}
	}

	// Filter on every node to be scored, its outcome ignored, as upstream's VolumeBinding test
	// does before it scores: VolumeBinding's PreScore and Score read what its Filter stored for
	// each node (the volumes found there); the other plugins' Filters store nothing. A plugin
	// whose PreFilter skipped is left out, as RunFilterPlugins leaves it out.
	for _, in := range instances {
		pl, ok := in.plugin.(fwk.FilterPlugin)
		if !ok || !in.spec.at("Filter") || skippedFilter[in.spec.Name] {
			continue
		}
		for _, ni := range nodes {
			pl.Filter(ctx, state, c.Pod, ni)
		}
	}

	// PreScore, as RunPreScorePlugins: Skip leaves the plugin's Score out; a failure stops.
	skipped := map[string]bool{}
	ran := 0
	var preScore *fwk.Status
	for _, in := range instances {
		pl, ok := in.plugin.(fwk.PreScorePlugin)
		if !ok || !in.spec.at("PreScore") {
			continue
		}
		ran++
		s := pl.PreScore(ctx, state, c.Pod, nodes)
		if s.IsSkip() {
			skipped[in.spec.Name] = true
			continue
		}
		if !s.IsSuccess() {
			s.SetPlugin(in.spec.Name)
			preScore = s
			break
		}
	}
	observed := preScore
	if observed == nil && ran > 0 && len(skipped) == ran {
		observed = fwk.NewStatus(fwk.Skip)
	}
	if c.ExpectPreScore != nil {
		if diff := compareStatus(*c.ExpectPreScore, observed); diff != "" {
			return result{fail: "PreScore: " + diff}
		}
	}
	if preScore != nil {
		if c.ExpectPreScore != nil && len(c.ScoreExpect) == 0 {
			return result{} // the expected PreScore failure: nothing is scored
		}
		return result{fail: "scoring failed: " + describe(preScore)}
	}

	var scorers []instance
	for _, in := range instances {
		if _, ok := in.plugin.(fwk.ScorePlugin); ok && in.spec.at("Score") {
			scorers = append(scorers, in)
		}
	}
	if len(c.ScoreExpect) == 0 {
		return result{}
	}
	if len(scorers) != 1 {
		return result{badInput: fmt.Sprintf("%d Score plugins: casecheck compares one plugin's normalized score (weighted totals are not supported)", len(scorers))}
	}
	in := scorers[0]
	scores := make(fwk.NodeScoreList, len(nodes))
	for i, ni := range nodes {
		scores[i] = fwk.NodeScore{Name: ni.Node().Name}
	}
	if !skipped[in.spec.Name] { // a plugin whose PreScore skipped is not scored: 0 everywhere
		pl := in.plugin.(fwk.ScorePlugin)
		for i, ni := range nodes {
			score, s := pl.Score(ctx, state, c.Pod, ni)
			if !s.IsSuccess() {
				return result{fail: fmt.Sprintf("scoring failed on node %s: %s", ni.Node().Name, describe(s))}
			}
			scores[i].Score = score
		}
		if ext := pl.ScoreExtensions(); ext != nil {
			if s := ext.NormalizeScore(ctx, state, c.Pod, scores); !s.IsSuccess() {
				return result{fail: "NormalizeScore failed: " + describe(s)}
			}
		}
	}
	got := map[string]int64{}
	for _, ns := range scores {
		got[ns.Name] = ns.Score
	}
	var diffs []string
	for _, node := range sortedKeys(c.ScoreExpect) {
		score, ok := got[node]
		if !ok {
			return result{fail: fmt.Sprintf("expect names node %q, which was not scored", node)}
		}
		if want := c.ScoreExpect[node]; want != score {
			diffs = append(diffs, fmt.Sprintf("%s: expected %d, got %d", node, want, score))
		}
	}
	if len(diffs) > 0 {
		return result{fail: in.spec.Name + ": " + strings.Join(diffs, "; ")}
	}
	return result{}
}

// statusParts reads a status the way a plugin test compares it (a nil status is Success).
func statusParts(s *fwk.Status) (code string, reasons []string, message string) {
	if s == nil {
		return fwk.Success.String(), nil, ""
	}
	return s.Code().String(), s.Reasons(), s.Message()
}

func describe(s *fwk.Status) string {
	code, reasons, _ := statusParts(s)
	return code + " " + quoteList(reasons)
}

func quoteList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// compareStatus returns "" when the status meets the expectation, else what differs.
func compareStatus(want statusExpectation, got *fwk.Status) string {
	wantCode := fwk.Success.String()
	if want.Code != nil {
		wantCode = *want.Code
	}
	code, reasons, message := statusParts(got)
	differs := wantCode != code
	if want.Reasons != nil && !equalStrings(*want.Reasons, reasons) {
		differs = true
	}
	if want.Message != nil && *want.Message != message {
		differs = true
	}
	if !differs {
		return ""
	}
	expected := wantCode
	if want.Reasons != nil {
		expected += " " + quoteList(*want.Reasons)
	}
	if want.Message != nil {
		expected += fmt.Sprintf(" %q", *want.Message)
	}
	return "expected " + expected + ", got " + describe(got)
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
