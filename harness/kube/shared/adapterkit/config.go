package adapterkit

import (
	"fmt"
	"strings"
	"time"

	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/validation"
)

const defaultConfiguration = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"

// LoadConfiguration decodes a KubeSchedulerConfiguration with upstream's scheme (defaults of the
// versioned API applied) and validates it. Empty text means upstream's default profile.
func LoadConfiguration(text, source string) (*config.KubeSchedulerConfiguration, string, error) {
	if strings.TrimSpace(text) == "" {
		text, source = defaultConfiguration, "default"
	}
	if source == "" {
		source = "Hello.config_yaml"
	}
	obj, _, err := scheme.Codecs.UniversalDecoder().Decode([]byte(text), nil, nil)
	if err != nil {
		return nil, source, fmt.Errorf("configuration %s: %w", source, err)
	}
	cfg, ok := obj.(*config.KubeSchedulerConfiguration)
	if !ok {
		return nil, source, fmt.Errorf("configuration %s: a %T, not a KubeSchedulerConfiguration", source, obj)
	}
	if err := validation.ValidateKubeSchedulerConfiguration(cfg); err != nil {
		return nil, source, fmt.Errorf("configuration %s: %w", source, err)
	}
	return cfg, source, nil
}

// SchedulerOptions are the options kube-scheduler's app passes to scheduler.New, except
// Parallelism: filtering and scoring run on one goroutine so that the nodes found under
// percentageOfNodesToScore are always the same ones (docs/DEVIATIONS.md, "Filtering").
func SchedulerOptions(cfg *config.KubeSchedulerConfiguration) []scheduler.Option {
	return []scheduler.Option{
		scheduler.WithProfiles(cfg.Profiles...),
		scheduler.WithPercentageOfNodesToScore(cfg.PercentageOfNodesToScore),
		scheduler.WithParallelism(1),
		scheduler.WithPodInitialBackoffSeconds(cfg.PodInitialBackoffSeconds),
		scheduler.WithPodMaxBackoffSeconds(cfg.PodMaxBackoffSeconds),
		scheduler.WithPodMaxInUnschedulablePodsDuration(5 * time.Minute),
		scheduler.WithExtenders(cfg.Extenders...),
	}
}
