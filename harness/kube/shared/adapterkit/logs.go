package adapterkit

import (
	"flag"
	"io"
	"os"

	"k8s.io/klog/v2"
)

// QuietLogs keeps upstream's informational logs (klog INFO, e.g. its real-time "Scheduling"
// traces) off stderr, which the harness passes through, and keeps warnings and errors. Set
// SCHEDCHECK_KUBE_LOG=info to see everything.
func QuietLogs() {
	if os.Getenv("SCHEDCHECK_KUBE_LOG") == "info" {
		return
	}
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	for name, value := range map[string]string{"logtostderr": "false", "alsologtostderr": "false", "one_output": "true"} {
		_ = fs.Set(name, value)
	}
	klog.SetOutputBySeverity("INFO", io.Discard)
	for _, severity := range []string{"WARNING", "ERROR", "FATAL"} {
		klog.SetOutputBySeverity(severity, os.Stderr)
	}
}
