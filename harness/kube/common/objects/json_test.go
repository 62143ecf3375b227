package objects

import (
	"encoding/json"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"schedcheck.local/kube/common/pb"
)

func TestKubeJSONWritesIntegersAsNumbersAndKeepsKubernetesNames(t *testing.T) {
	pod := &pb.Pod{
		Metadata: &pb.ObjectMeta{Name: "p", Labels: map[string]string{"app": "web"}},
		Spec: &pb.PodSpec{
			TerminationGracePeriodSeconds: proto.Int64(30),
			Priority:                      proto.Int32(7),
			Tolerations:                   []*pb.Toleration{{Key: "k", TolerationSeconds: proto.Int64(5)}},
			Containers: []*pb.Container{{Name: "c", Ports: []*pb.ContainerPort{{HostPort: 80, HostIp: "1.2.3.4"}},
				Resources: &pb.ResourceRequirements{Requests: map[string]string{"cpu": "100m"}}}},
		},
	}
	raw, err := KubeJSON(pod)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	spec := got["spec"].(map[string]any)
	if v, ok := spec["terminationGracePeriodSeconds"].(float64); !ok || v != 30 {
		t.Errorf("terminationGracePeriodSeconds = %#v, want the number 30", spec["terminationGracePeriodSeconds"])
	}
	if v := spec["tolerations"].([]any)[0].(map[string]any)["tolerationSeconds"]; v != float64(5) {
		t.Errorf("tolerationSeconds = %#v, want 5", v)
	}
	port := spec["containers"].([]any)[0].(map[string]any)["ports"].([]any)[0].(map[string]any)
	if port["hostIP"] != "1.2.3.4" {
		t.Errorf("the json_name hostIP is kept: %v", port)
	}
	if got["metadata"].(map[string]any)["labels"].(map[string]any)["app"] != "web" {
		t.Errorf("labels: %s", raw)
	}
	if _, present := spec["nodeName"]; present {
		t.Errorf("an unset field is left out: %s", raw)
	}
}

func TestKubeJSONPassesIntOrStringValuesThrough(t *testing.T) {
	pdb := &pb.PodDisruptionBudget{Spec: &pb.PodDisruptionBudgetSpec{
		MinAvailable:   structpb.NewNumberValue(2),
		MaxUnavailable: structpb.NewStringValue("50%"),
	}}
	raw, err := KubeJSON(pdb)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"spec":{"maxUnavailable":"50%","minAvailable":2}}`; string(raw) != want {
		t.Errorf("got %s, want %s", raw, want)
	}
}

// A pod's spec.schedulingGroup (GenericWorkload) reaches the adapters under its Kubernetes name,
// and an empty union member (a gang-less pod group's `basic: {}`) stays present.
func TestKubeJSONKeepsSchedulingGroupAndEmptyPolicies(t *testing.T) {
	pod := &pb.Pod{
		Metadata: &pb.ObjectMeta{Name: "p"},
		Spec:     &pb.PodSpec{SchedulingGroup: &pb.PodSchedulingGroup{PodGroupName: proto.String("g")}},
	}
	raw, err := KubeJSON(pod)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"metadata":{"name":"p"},"spec":{"schedulingGroup":{"podGroupName":"g"}}}`; string(raw) != want {
		t.Errorf("pod = %s, want %s", raw, want)
	}
	group := &pb.PodGroup{
		Metadata: &pb.ObjectMeta{Name: "g"},
		Spec:     &pb.PodGroupSpec{SchedulingPolicy: &pb.PodGroupSchedulingPolicy{Basic: &pb.BasicSchedulingPolicy{}}},
	}
	raw, err = KubeJSON(group)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"metadata":{"name":"g"},"spec":{"schedulingPolicy":{"basic":{}}}}`; string(raw) != want {
		t.Errorf("pod group = %s, want %s", raw, want)
	}
}
