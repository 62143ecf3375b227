package record

// Redaction before anything reaches the disk. The importer keeps only what
// the trace schema holds (traces/importers/README.md, "Redaction"); the
// recorder drops, on the same lines, what is secret or bulky and what no
// scheduler reads, so that a capture file can be passed around: managed
// fields, annotations (except the scheduling ones the importer always keeps
// and those named with --keep-annotations), containers' commands, arguments,
// environment, probes and lifecycle hooks, and the contents of Secret,
// ConfigMap, projected, downward-API and host-path volumes (each such volume
// is kept by name only, as an emptyDir: no scheduler plugin reads it).

// schedulingAnnotations are read by the volume plugins; the importer keeps them too.
var schedulingAnnotations = map[string]bool{
	"pv.kubernetes.io/bind-completed":                true,
	"pv.kubernetes.io/bound-by-controller":           true,
	"volume.kubernetes.io/selected-node":             true,
	"volume.beta.kubernetes.io/storage-class":        true,
	"storage.alpha.kubernetes.io/migrated-plugins":   true,
	"resource.kubernetes.io/extended-resource-claim": true,
	"resource.kubernetes.io/pod-claim-name":          true,
}

var containerSecrets = []string{"command", "args", "env", "envFrom", "workingDir",
	"livenessProbe", "readinessProbe", "startupProbe", "lifecycle"}

var secretVolumeSources = []string{"secret", "configMap", "projected", "downwardAPI", "hostPath"}

// Redact removes the fields above from a Kubernetes object in place and
// returns how many it removed.
func Redact(obj map[string]interface{}, keepAnnotations map[string]bool) int {
	removed := 0
	if meta, ok := obj["metadata"].(map[string]interface{}); ok {
		if _, ok := meta["managedFields"]; ok {
			delete(meta, "managedFields")
			removed++
		}
		if ann, ok := meta["annotations"].(map[string]interface{}); ok {
			for k := range ann {
				if !schedulingAnnotations[k] && !keepAnnotations[k] {
					delete(ann, k)
					removed++
				}
			}
			if len(ann) == 0 {
				delete(meta, "annotations")
			}
		}
	}
	switch obj["kind"] {
	case "Pod":
		if spec, ok := obj["spec"].(map[string]interface{}); ok {
			removed += redactPodSpec(spec)
		}
	case "ReplicationController", "ReplicaSet", "StatefulSet", "PodTemplate":
		removed += redactTemplate(obj)
	case "Event":
		// The scheduler's Events name pods and nodes; nothing else in them is secret.
	}
	return removed
}

// redactTemplate redacts spec.template.spec of a workload.
func redactTemplate(obj map[string]interface{}) int {
	spec, _ := obj["spec"].(map[string]interface{})
	tmpl, _ := spec["template"].(map[string]interface{})
	if tmpl == nil {
		return 0
	}
	removed := 0
	if meta, ok := tmpl["metadata"].(map[string]interface{}); ok {
		if _, ok := meta["annotations"]; ok {
			delete(meta, "annotations")
			removed++
		}
	}
	if ps, ok := tmpl["spec"].(map[string]interface{}); ok {
		removed += redactPodSpec(ps)
	}
	return removed
}

func redactPodSpec(spec map[string]interface{}) int {
	removed := 0
	for _, list := range []string{"containers", "initContainers", "ephemeralContainers"} {
		cs, _ := spec[list].([]interface{})
		for _, c := range cs {
			cm, ok := c.(map[string]interface{})
			if !ok {
				continue
			}
			for _, f := range containerSecrets {
				if _, ok := cm[f]; ok {
					delete(cm, f)
					removed++
				}
			}
		}
	}
	vols, _ := spec["volumes"].([]interface{})
	for _, v := range vols {
		vm, ok := v.(map[string]interface{})
		if !ok {
			continue
		}
		for _, f := range secretVolumeSources {
			if _, ok := vm[f]; ok {
				delete(vm, f)
				vm["emptyDir"] = map[string]interface{}{}
				removed++
			}
		}
	}
	return removed
}
