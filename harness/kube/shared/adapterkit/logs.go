package adapterkit

import (
	"flag"
	"fmt"
	"io"
	"os"

	"k8s.io/klog/v2"
)

// QuietLogs routes upstream's klog output, each line once. Upstream logs errors it handles itself
// (a PreBind that fails for want of a PV controller, say) at ERROR: correct behaviour that reads
// like a crash between the harness's own lines, so by default it is kept off the terminal.
// SCHEDCHECK_KUBE_LOG says where it goes:
//   - unset or "stderr": warnings and errors to stderr;
//   - "info": everything, upstream's informational lines (its real-time "Scheduling" traces)
//     included, to stderr;
//   - anything else: a file to append warnings and errors to (schedcheck sets this for its kube:
//     candidates and prints the path once).
//
// Informational lines are dropped unless "info". klog writes a line at or above -stderrthreshold
// (ERROR by default) to stderr besides its per-severity output, so the threshold is raised to
// FATAL and FATAL's own output dropped when that output is stderr: each line appears once.
func QuietLogs() {
	dest := os.Getenv("SCHEDCHECK_KUBE_LOG")
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	if dest == "info" {
		_ = fs.Set("logtostderr", "true")
		return
	}
	var out io.Writer = os.Stderr
	if dest != "" && dest != "stderr" {
		f, err := os.OpenFile(dest, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			fmt.Fprintf(os.Stderr, "kube adapter: SCHEDCHECK_KUBE_LOG: %v; upstream's log goes to stderr\n", err)
		} else {
			out = f
		}
	}
	for name, value := range map[string]string{
		"logtostderr": "false", "alsologtostderr": "false", "one_output": "true", "stderrthreshold": "FATAL",
	} {
		_ = fs.Set(name, value)
	}
	klog.SetOutputBySeverity("INFO", io.Discard)
	for _, severity := range []string{"WARNING", "ERROR"} {
		klog.SetOutputBySeverity(severity, out)
	}
	if out == io.Writer(os.Stderr) {
		klog.SetOutputBySeverity("FATAL", io.Discard) // the threshold writes it to stderr
	} else {
		klog.SetOutputBySeverity("FATAL", out)
	}
}
