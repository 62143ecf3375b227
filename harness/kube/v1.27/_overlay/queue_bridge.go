// Added to k8s.io/kubernetes/pkg/scheduler/internal/queue by the schedcheck adapter build; not
// part of upstream. It lets the adapter drive the queue in virtual time (no Run goroutines) and
// see where each pod is.

package queue

import (
	"sort"
	"strings"

	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/utils/clock"
)

// SchedcheckSetClock replaces the queue's clock (New builds it with the real one).
func (p *PriorityQueue) SchedcheckSetClock(c clock.Clock) {
	p.lock.Lock()
	defer p.lock.Unlock()
	p.clock = c
}

// SchedcheckFlushBackoffQCompleted and SchedcheckFlushUnschedulablePodsLeftover are the two
// periodic flushes Run would start on real-time tickers.
func (p *PriorityQueue) SchedcheckFlushBackoffQCompleted() { p.flushBackoffQCompleted() }

func (p *PriorityQueue) SchedcheckFlushUnschedulablePodsLeftover() {
	p.flushUnschedulablePodsLeftover()
}

// SchedcheckActiveLen is the number of pods in activeQ (Pop would block on an empty one).
func (p *PriorityQueue) SchedcheckActiveLen() int {
	p.lock.RLock()
	defer p.lock.RUnlock()
	return p.activeQ.Len()
}

// SchedcheckWhere names the sub-queue holding the pod with key "namespace/name": "active",
// "backoff", "unschedulable", or "" when it is in none.
func (p *PriorityQueue) SchedcheckWhere(key string) string {
	p.lock.RLock()
	defer p.lock.RUnlock()
	if _, ok, _ := p.activeQ.GetByKey(key); ok {
		return "active"
	}
	if _, ok, _ := p.podBackoffQ.GetByKey(key); ok {
		return "backoff"
	}
	// unschedulablePods is keyed by "name_namespace" (util.GetPodFullName).
	if ns, name, found := strings.Cut(key, "/"); found {
		if _, ok := p.unschedulablePods.podInfoMap[name+"_"+ns]; ok {
			return "unschedulable"
		}
	}
	return ""
}

// SchedcheckWaitingKeys lists the keys of pods in backoffQ and unschedulablePods, the only
// places a move takes pods from.
func (p *PriorityQueue) SchedcheckWaitingKeys() []string {
	p.lock.RLock()
	defer p.lock.RUnlock()
	keys := make([]string, 0, len(p.unschedulablePods.podInfoMap)+p.podBackoffQ.Len())
	for _, pInfo := range p.unschedulablePods.podInfoMap {
		keys = append(keys, pInfo.Pod.Namespace+"/"+pInfo.Pod.Name)
	}
	for _, obj := range p.podBackoffQ.List() {
		pod := obj.(*framework.QueuedPodInfo).Pod
		keys = append(keys, pod.Namespace+"/"+pod.Name)
	}
	sort.Strings(keys)
	return keys
}

// schedcheckSortPodInfos orders a move's pods by key: upstream collects them from a Go map,
// whose order is random; the replay conventions move them in key order.
func schedcheckSortPodInfos(list []*framework.QueuedPodInfo) {
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i].Pod, list[j].Pod
		return a.Namespace+"/"+a.Name < b.Namespace+"/"+b.Name
	})
}
