package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	v1 "k8s.io/api/core/v1"
	apiruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	fwk "k8s.io/kube-scheduler/framework"
	sigsjson "sigs.k8s.io/json"

	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/validation"
)

// The compatibility level this program checks (docs/FORMATS.md, "Conformance case files").
const compatLevel = "1.37"

// rawCase is one document of a case file, as docs/FORMATS.md describes it. Only the fields a
// plugin-level filter, score or hint case, an update case or a queue case can use are accepted;
// any other field, or a field of another kind (decodeCase), is refused (exit 2) rather than
// ignored.
type rawCase struct {
	ID                     string                     `json:"id"`
	Source                 string                     `json:"source"`
	Compat                 string                     `json:"compat"`
	Kind                   string                     `json:"kind"`
	Plugins                []string                   `json:"plugins"`
	PluginArgs             map[string]json.RawMessage `json:"pluginArgs"`
	Nodes                  []json.RawMessage          `json:"nodes"`
	Pods                   []json.RawMessage          `json:"pods"`
	Namespaces             []json.RawMessage          `json:"namespaces"`
	PersistentVolumes      []json.RawMessage          `json:"persistentVolumes"`
	PersistentVolumeClaims []json.RawMessage          `json:"persistentVolumeClaims"`
	StorageClasses         []json.RawMessage          `json:"storageClasses"`
	CSINodes               []json.RawMessage          `json:"csiNodes"`
	CSIDrivers             []json.RawMessage          `json:"csiDrivers"`
	CSIStorageCapacities   []json.RawMessage          `json:"csiStorageCapacities"`
	Pod                    json.RawMessage            `json:"pod"`
	Event                  json.RawMessage            `json:"event"`       // hint
	Resource               *string                    `json:"resource"`    // update
	TargetPod              *bool                      `json:"targetPod"`   // update
	OldObject              json.RawMessage            `json:"oldObject"`   // hint, update
	NewObject              json.RawMessage            `json:"newObject"`   // hint, update
	QueueConfig            json.RawMessage            `json:"queueConfig"` // queue
	FeasibleNodes          *[]string                  `json:"feasibleNodes"`
	Expect                 json.RawMessage            `json:"expect"`
	ExpectPreFilter        json.RawMessage            `json:"expectPreFilter"`
	ExpectPreFilterResult  json.RawMessage            `json:"expectPreFilterResult"`
	ExpectPreScore         json.RawMessage            `json:"expectPreScore"`
}

// statusExpectation is {"code": ..., "reasons": [...], "message": ...}; code defaults to Success,
// reasons and message are compared only when given.
type statusExpectation struct {
	Code    *string   `json:"code"`
	Reasons *[]string `json:"reasons"`
	Message *string   `json:"message"`
}

// preFilterResultExpectation is {"nodeNames": [...]}: the nodes the merged PreFilterResult keeps
// (in any order); nodeNames absent or null means all nodes.
type preFilterResultExpectation struct {
	NodeNames *[]string `json:"nodeNames"`
}

// pluginSpec is one entry of `plugins`: a name, and the extension points to run it at (nil: every
// point it implements), from the "Name(PreFilter,Filter)" form.
type pluginSpec struct {
	Name   string
	Points map[string]bool
}

func (p pluginSpec) at(point string) bool { return p.Points == nil || p.Points[point] }

// testCase is a decoded, validated case.
type testCase struct {
	ID     string
	Source string
	File   string
	Kind   string // filter | score | hint | update | queue

	Plugins []pluginSpec
	Args    map[string]apiruntime.Object // plugin name -> args after the versioned API's defaults

	Nodes     []*v1.Node
	BoundPods []*v1.Pod
	Objects   []clusterObject // namespaces and storage objects (objects.go), in apiKinds order
	Pod       *v1.Pod

	FeasibleNodes []string // nil: every node

	FilterExpect          map[string]statusExpectation
	ScoreExpect           map[string]int64
	ExpectPreFilter       *statusExpectation
	ExpectPreFilterResult *preFilterResultExpectation
	ExpectPreScore        *statusExpectation

	// hint cases (hint.go). The event objects are a *v1.Node or a *v1.Pod, or an untyped nil
	// when absent: a typed nil pointer inside an interface is not nil, and the hint functions
	// (util.As) tell an Add from an Update by oldObj == nil. Update cases (update.go) use the
	// same two fields, always set, both of UpdateResource's type.
	Event      fwk.ClusterEvent
	OldObject  any
	NewObject  any
	HintExpect hintExpectation

	// update cases (update.go).
	UpdateResource fwk.EventResource // fwk.Node or fwk.Pod
	TargetPod      bool              // the isTargetPod argument (Pod only)
	UpdateExpect   []string          // "<Resource>/<ActionType>", in the order expected

	// queue cases (queue.go): the queue's configuration and the ops.
	Queue *queueCase
}

var knownPlugins = map[string]bool{
	"NodeResourcesFit":                true,
	"NodeResourcesBalancedAllocation": true,
	"NodePorts":                       true,
	"NodeDeclaredFeatures":            true,
	"TaintToleration":                 true,
	"NodeAffinity":                    true,
	"NodeName":                        true,
	"NodeUnschedulable":               true,
	"ImageLocality":                   true,
	"PodTopologySpread":               true,
	"InterPodAffinity":                true,
	"VolumeBinding":                   true,
	"VolumeZone":                      true,
	"VolumeRestrictions":              true,
	"NodeVolumeLimits":                true,
}

var knownPoints = map[string]bool{"PreFilter": true, "Filter": true, "PreScore": true, "Score": true}

var knownCodes = map[string]bool{
	"Success": true, "Error": true, "Unschedulable": true, "UnschedulableAndUnresolvable": true,
	"Wait": true, "Skip": true, "Pending": true,
}

// loadFile reads every case of one YAML file (one case per document).
func loadFile(path string) ([]*testCase, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	docs, err := yamlDocuments(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var cases []*testCase
	for i, doc := range docs {
		c, err := decodeCase(doc)
		if err != nil {
			return nil, fmt.Errorf("%s: document %d: %w", path, i+1, err)
		}
		c.File = path
		cases = append(cases, c)
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("%s: no case in the file", path)
	}
	return cases, nil
}

// yamlDocuments returns each non-empty document of a YAML stream as JSON. YAML 1.2 scalars
// (go.yaml.in/yaml/v3): a node named `n` or `y` stays a string, as the reference reads it;
// integers and floats keep their text.
func yamlDocuments(data []byte) ([][]byte, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out [][]byte
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if doc.Kind == 0 || (doc.Kind == yaml.DocumentNode && len(doc.Content) == 0) {
			continue
		}
		v, err := yamlToJSONValue(&doc)
		if err != nil {
			return nil, err
		}
		if v == nil {
			continue // an empty document (`---` followed by nothing, or comments only)
		}
		j, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	return out, nil
}

func yamlToJSONValue(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return yamlToJSONValue(n.Content[0])
	case yaml.AliasNode:
		return yamlToJSONValue(n.Alias)
	case yaml.SequenceNode:
		list := make([]any, 0, len(n.Content))
		for _, item := range n.Content {
			v, err := yamlToJSONValue(item)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		return list, nil
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("line %d: a mapping key must be a scalar", k.Line)
			}
			if k.Tag == "!!merge" {
				return nil, fmt.Errorf("line %d: merge keys are not supported", k.Line)
			}
			if _, dup := m[k.Value]; dup {
				return nil, fmt.Errorf("line %d: duplicate key %q", k.Line, k.Value)
			}
			v, err := yamlToJSONValue(val)
			if err != nil {
				return nil, err
			}
			m[k.Value] = v
		}
		return m, nil
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return nil, nil
		case "!!bool":
			var b bool
			if err := n.Decode(&b); err != nil {
				return nil, err
			}
			return b, nil
		case "!!int", "!!float":
			if isJSONNumber(n.Value) {
				return json.Number(n.Value), nil
			}
			var f float64
			if err := n.Decode(&f); err == nil && !strings.ContainsAny(n.Value, "xXoObB") {
				return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), nil
			}
			var i int64
			if err := n.Decode(&i); err != nil {
				return nil, fmt.Errorf("line %d: number %q: %w", n.Line, n.Value, err)
			}
			return json.Number(strconv.FormatInt(i, 10)), nil
		default:
			return n.Value, nil
		}
	}
	return nil, fmt.Errorf("line %d: unsupported YAML node", n.Line)
}

func isJSONNumber(s string) bool {
	var v any
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return false
	}
	_, ok := v.(json.Number)
	return ok && !d.More()
}

// strictUnmarshal decodes as Kubernetes does (case-sensitive field names) and refuses unknown
// or duplicate fields.
func strictUnmarshal(data []byte, into any, what string) error {
	strictErrs, err := sigsjson.UnmarshalStrict(data, into, sigsjson.DisallowUnknownFields)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if len(strictErrs) > 0 {
		msgs := make([]string, len(strictErrs))
		for i, e := range strictErrs {
			msgs[i] = e.Error()
		}
		return fmt.Errorf("%s: %s", what, strings.Join(msgs, "; "))
	}
	return nil
}

func present(raw json.RawMessage) bool {
	return len(raw) > 0 && string(raw) != "null"
}

func decodeCase(doc []byte) (*testCase, error) {
	// The id, read leniently first, names the case in the refusal of a field it should not have.
	var named struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(doc, &named)
	what := "case"
	if named.ID != "" {
		what = "case " + named.ID
	}
	var rc rawCase
	if err := strictUnmarshal(doc, &rc, what); err != nil {
		return nil, err
	}
	if rc.ID == "" {
		return nil, errors.New("case without an id")
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("case %s: %s", rc.ID, fmt.Sprintf(format, args...))
	}
	if rc.Compat != compatLevel {
		return nil, fail("compat %q: casecheck checks compat %q cases only", rc.Compat, compatLevel)
	}
	c := &testCase{ID: rc.ID, Source: rc.Source, Kind: rc.Kind}
	switch rc.Kind {
	case "filter", "score", "hint", "update", "queue":
	default:
		return nil, fail("kind %q: casecheck runs filter, score, hint, update and queue cases only", rc.Kind)
	}
	if field := fieldOfAnotherKind(&rc); field != "" {
		return nil, fail("%s is not a field of %s case", field, kindWithArticle(rc.Kind))
	}
	if c.Kind == "update" {
		if err := decodeUpdate(&rc, c); err != nil {
			return nil, fail("%v", err)
		}
		return c, nil
	}
	if c.Kind == "queue" {
		if err := decodeQueue(&rc, c); err != nil {
			return nil, fail("%v", err)
		}
		return c, nil
	}

	// plugins
	if len(rc.Plugins) == 0 {
		return nil, fail("no plugins listed (the default profile is not supported here)")
	}
	if rc.Kind == "hint" && len(rc.Plugins) != 1 {
		return nil, fail("a hint case names exactly one plugin, not %d", len(rc.Plugins))
	}
	seen := map[string]bool{}
	for _, entry := range rc.Plugins {
		spec, err := parsePluginSpec(entry)
		if err != nil {
			return nil, fail("%v", err)
		}
		// A hint asks one plugin's EnqueueExtensions, which any plugin of the in-tree registry
		// may implement (runCase refuses a name the registry lacks); filter and score cases are
		// limited to the plugins whose cases casecheck was written and checked for.
		if rc.Kind == "hint" && spec.Points != nil {
			return nil, fail("plugin entry %q: a hint case names a plain plugin, without extension points", entry)
		}
		if rc.Kind != "hint" && !knownPlugins[spec.Name] {
			return nil, fail("plugin %q is not one casecheck runs (NodeResourcesFit, NodeResourcesBalancedAllocation, NodePorts, NodeDeclaredFeatures, TaintToleration, NodeAffinity, NodeName, NodeUnschedulable, ImageLocality, PodTopologySpread, InterPodAffinity, VolumeBinding, VolumeZone, VolumeRestrictions, NodeVolumeLimits)", spec.Name)
		}
		if seen[spec.Name] {
			return nil, fail("plugin %q listed twice", spec.Name)
		}
		seen[spec.Name] = true
		c.Plugins = append(c.Plugins, spec)
	}
	for name := range rc.PluginArgs {
		if !seen[name] {
			return nil, fail("pluginArgs for %q, which is not listed in plugins", name)
		}
	}
	args, err := pluginArgsAfterDefaults(rc.PluginArgs)
	if err != nil {
		return nil, fail("pluginArgs: %v", err)
	}
	c.Args = args

	// the cluster
	nodeNames := map[string]bool{}
	for i, raw := range rc.Nodes {
		node := &v1.Node{}
		if err := strictUnmarshal(raw, node, fmt.Sprintf("nodes[%d]", i)); err != nil {
			return nil, fail("%v", err)
		}
		if node.Name == "" {
			return nil, fail("nodes[%d] has no metadata.name", i)
		}
		if nodeNames[node.Name] {
			return nil, fail("node %q listed twice", node.Name)
		}
		nodeNames[node.Name] = true
		if node.UID == "" {
			node.UID = types.UID(node.Name)
		}
		c.Nodes = append(c.Nodes, node)
	}
	podKeys := map[string]bool{}
	for i, raw := range rc.Pods {
		pod, err := decodePod(raw, fmt.Sprintf("pods[%d]", i))
		if err != nil {
			return nil, fail("%v", err)
		}
		key := pod.Namespace + "/" + pod.Name
		if podKeys[key] {
			return nil, fail("pod %q listed twice", key)
		}
		podKeys[key] = true
		if pod.Spec.NodeName == "" {
			continue // pending: not in the scheduler's snapshot
		}
		c.BoundPods = append(c.BoundPods, pod)
	}
	if c.Objects, err = decodeObjects(&rc); err != nil {
		return nil, fail("%v", err)
	}
	if !present(rc.Pod) {
		return nil, fail("no pod under test")
	}
	if c.Pod, err = decodePod(rc.Pod, "pod"); err != nil {
		return nil, fail("%v", err)
	}

	if c.Kind == "hint" {
		if err := decodeHint(&rc, c); err != nil {
			return nil, fail("%v", err)
		}
		return c, nil
	}

	// expectations
	if rc.FeasibleNodes != nil {
		if c.Kind != "score" {
			return nil, fail("feasibleNodes is for score cases only")
		}
		c.FeasibleNodes = append([]string{}, (*rc.FeasibleNodes)...)
	}
	if present(rc.ExpectPreFilter) {
		var e statusExpectation
		if err := decodeStatusExpectation(rc.ExpectPreFilter, &e, "expectPreFilter"); err != nil {
			return nil, fail("%v", err)
		}
		c.ExpectPreFilter = &e
	}
	if present(rc.ExpectPreFilterResult) {
		var e preFilterResultExpectation
		if err := strictUnmarshal(rc.ExpectPreFilterResult, &e, "expectPreFilterResult"); err != nil {
			return nil, fail("%v", err)
		}
		c.ExpectPreFilterResult = &e
	}
	if present(rc.ExpectPreScore) {
		if c.Kind != "score" {
			return nil, fail("expectPreScore is for score cases only")
		}
		var e statusExpectation
		if err := decodeStatusExpectation(rc.ExpectPreScore, &e, "expectPreScore"); err != nil {
			return nil, fail("%v", err)
		}
		c.ExpectPreScore = &e
	}
	if present(rc.Expect) {
		switch c.Kind {
		case "filter":
			var raw map[string]json.RawMessage
			if err := strictUnmarshal(rc.Expect, &raw, "expect"); err != nil {
				return nil, fail("%v", err)
			}
			c.FilterExpect = map[string]statusExpectation{}
			for node, r := range raw {
				var e statusExpectation
				if err := decodeStatusExpectation(r, &e, "expect."+node); err != nil {
					return nil, fail("%v", err)
				}
				c.FilterExpect[node] = e
			}
		case "score":
			if err := strictUnmarshal(rc.Expect, &c.ScoreExpect, "expect (node: integer score)"); err != nil {
				return nil, fail("%v", err)
			}
		}
	}
	if len(c.FilterExpect) == 0 && len(c.ScoreExpect) == 0 && c.ExpectPreFilter == nil &&
		c.ExpectPreFilterResult == nil && c.ExpectPreScore == nil {
		return nil, fail("nothing is expected")
	}
	return c, nil
}

// fieldOfAnotherKind names a field the case's kind has no use for (the first one, in the order
// of rawCase), so that it is refused rather than silently ignored: a hint case never runs
// PreFilter or Score, filter and score cases have no event, only update cases name a resource
// and targetPod, an update case has no plugin, cluster or pod under test at all, and a queue
// case has only its queueConfig and expect (its pods are given in its ops).
func fieldOfAnotherKind(rc *rawCase) string {
	if rc.Kind == "queue" {
		return firstFieldSetExcept(rc, nil)
	}
	if present(rc.QueueConfig) {
		return "queueConfig"
	}
	if rc.Kind == "update" {
		return firstFieldSetExcept(rc, map[string]bool{
			"resource": true, "targetPod": true, "oldObject": true, "newObject": true})
	}
	hint := rc.Kind == "hint"
	switch {
	case !hint && present(rc.Event):
		return "event"
	case rc.Resource != nil:
		return "resource"
	case rc.TargetPod != nil:
		return "targetPod"
	case !hint && present(rc.OldObject):
		return "oldObject"
	case !hint && present(rc.NewObject):
		return "newObject"
	case hint && rc.FeasibleNodes != nil:
		return "feasibleNodes"
	case hint && present(rc.ExpectPreFilter):
		return "expectPreFilter"
	case hint && present(rc.ExpectPreScore):
		return "expectPreScore"
	}
	return ""
}

// firstFieldSetExcept names the first of the plugin, cluster, pod, event and expectation fields
// that `rc` sets and `allowed` does not list, in the order refusals are reported; "" if none.
func firstFieldSetExcept(rc *rawCase, allowed map[string]bool) string {
	fields := []struct {
		name string
		set  bool
	}{
		{"plugins", rc.Plugins != nil},
		{"pluginArgs", rc.PluginArgs != nil},
		{"nodes", rc.Nodes != nil},
		{"pods", rc.Pods != nil},
		{"namespaces", rc.Namespaces != nil},
		{"persistentVolumes", rc.PersistentVolumes != nil},
		{"persistentVolumeClaims", rc.PersistentVolumeClaims != nil},
		{"storageClasses", rc.StorageClasses != nil},
		{"csiNodes", rc.CSINodes != nil},
		{"csiDrivers", rc.CSIDrivers != nil},
		{"csiStorageCapacities", rc.CSIStorageCapacities != nil},
		{"pod", present(rc.Pod)},
		{"event", present(rc.Event)},
		{"resource", rc.Resource != nil},
		{"targetPod", rc.TargetPod != nil},
		{"oldObject", present(rc.OldObject)},
		{"newObject", present(rc.NewObject)},
		{"feasibleNodes", rc.FeasibleNodes != nil},
		{"expectPreFilter", present(rc.ExpectPreFilter)},
		{"expectPreFilterResult", present(rc.ExpectPreFilterResult)},
		{"expectPreScore", present(rc.ExpectPreScore)},
	}
	for _, f := range fields {
		if f.set && !allowed[f.name] {
			return f.name
		}
	}
	return ""
}

func kindWithArticle(kind string) string {
	if kind == "update" {
		return "an update"
	}
	return "a " + kind
}

func decodeStatusExpectation(raw json.RawMessage, e *statusExpectation, what string) error {
	if err := strictUnmarshal(raw, e, what); err != nil {
		return err
	}
	if e.Code != nil && !knownCodes[*e.Code] {
		return fmt.Errorf("%s: unknown code %q", what, *e.Code)
	}
	return nil
}

// parsePluginSpec reads "Name" or "Name(PreFilter,Filter)".
func parsePluginSpec(entry string) (pluginSpec, error) {
	open := strings.IndexByte(entry, '(')
	if open < 0 {
		return pluginSpec{Name: strings.TrimSpace(entry)}, nil
	}
	if !strings.HasSuffix(entry, ")") {
		return pluginSpec{}, fmt.Errorf("plugin entry %q: expected Name(Point,...)", entry)
	}
	spec := pluginSpec{Name: strings.TrimSpace(entry[:open]), Points: map[string]bool{}}
	for _, p := range strings.Split(entry[open+1:len(entry)-1], ",") {
		p = strings.TrimSpace(p)
		if !knownPoints[p] {
			return pluginSpec{}, fmt.Errorf("plugin entry %q: extension point %q is not one casecheck runs", entry, p)
		}
		spec.Points[p] = true
	}
	return spec, nil
}

// decodePod decodes a v1 Pod and applies what the API server would have done to a manifest that
// never went through it, as the reference does (reference/api/objects.cc): namespace "default",
// a uid, and each container's limits copied into its missing requests.
func decodePod(raw json.RawMessage, what string) (*v1.Pod, error) {
	pod := &v1.Pod{}
	if err := strictUnmarshal(raw, pod, what); err != nil {
		return nil, err
	}
	if pod.Name == "" {
		return nil, fmt.Errorf("%s has no metadata.name", what)
	}
	if pod.Namespace == "" {
		pod.Namespace = "default"
	}
	if pod.UID == "" {
		pod.UID = types.UID(pod.Namespace + "/" + pod.Name)
	}
	defaultRequests := func(cs []v1.Container) {
		for i := range cs {
			r := &cs[i].Resources
			for name, q := range r.Limits {
				if _, ok := r.Requests[name]; ok {
					continue
				}
				if r.Requests == nil {
					r.Requests = v1.ResourceList{}
				}
				r.Requests[name] = q.DeepCopy()
			}
		}
	}
	defaultRequests(pod.Spec.Containers)
	defaultRequests(pod.Spec.InitContainers)
	return pod, nil
}

// pluginArgsAfterDefaults decodes the case's pluginArgs the way kube-scheduler reads a
// KubeSchedulerConfiguration file: the versioned API (kubescheduler.config.k8s.io/v1) with its
// defaults, converted to the internal types, then validated. The result maps every plugin of
// the profile that has args (defaults included) to them.
func pluginArgsAfterDefaults(pluginArgs map[string]json.RawMessage) (map[string]apiruntime.Object, error) {
	names := make([]string, 0, len(pluginArgs))
	for name := range pluginArgs {
		names = append(names, name)
	}
	sort.Strings(names)
	type pluginConfig struct {
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	}
	pcs := make([]pluginConfig, 0, len(names))
	for _, name := range names {
		pcs = append(pcs, pluginConfig{Name: name, Args: pluginArgs[name]})
	}
	doc := map[string]any{
		"apiVersion": "kubescheduler.config.k8s.io/v1",
		"kind":       "KubeSchedulerConfiguration",
		"profiles": []any{map[string]any{
			"schedulerName": "default-scheduler",
			"pluginConfig":  pcs,
		}},
	}
	text, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	obj, _, err := scheme.Codecs.UniversalDecoder().Decode(text, nil, nil)
	if err != nil {
		return nil, err
	}
	cfg, ok := obj.(*config.KubeSchedulerConfiguration)
	if !ok {
		return nil, fmt.Errorf("decoded a %T, not a KubeSchedulerConfiguration", obj)
	}
	if err := validation.ValidateKubeSchedulerConfiguration(cfg); err != nil {
		return nil, err
	}
	out := map[string]apiruntime.Object{}
	for _, pc := range cfg.Profiles[0].PluginConfig {
		out[pc.Name] = pc.Args
	}
	return out, nil
}
