// Command recorder captures a live cluster through a kubeconfig in the watch
// format that `schedcheck import --from watch` reads (README.md).
//
//	recorder --kubeconfig K --out F [--duration D] [--keep-annotations K1,K2]
//
// It records until SIGINT or SIGTERM, or for --duration, then writes what is
// left and renames F.partial to F. Exit 2 for bad arguments or an unusable
// kubeconfig, 1 when the cluster cannot be recorded.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"schedcheck.local/kube/recorder/record"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of the cluster to record (required)")
	out := flag.String("out", "", "capture file to write (required; written as OUT.partial, renamed at the end)")
	duration := flag.Duration("duration", 0, "stop after this long (default: until SIGINT or SIGTERM)")
	keep := flag.String("keep-annotations", "", "comma-separated annotation keys to keep (exact)")
	quiet := flag.Bool("quiet", false, "no summary on stderr")
	flag.Parse()
	if *kubeconfig == "" || *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: recorder --kubeconfig K --out F [--duration D] [--keep-annotations K1,K2]")
		os.Exit(2)
	}
	os.Exit(run(*kubeconfig, *out, *duration, *keep, *quiet))
}

func run(kubeconfig, out string, duration time.Duration, keep string, quiet bool) int {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		fmt.Fprintf(os.Stderr, "recorder: --kubeconfig %s: %v\n", kubeconfig, err)
		return 2
	}
	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "recorder: %s: %v\n", kubeconfig, err)
		return 2
	}
	client, err := dynamic.NewForConfig(cfg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "recorder: %s: %v\n", kubeconfig, err)
		return 2
	}
	version, err := disc.ServerVersion()
	if err != nil {
		fmt.Fprintf(os.Stderr, "recorder: asking %s for its version: %v (is the API server up?)\n", cfg.Host, err)
		return 1
	}
	kinds, notes, err := record.ServedKinds(disc)
	if err != nil {
		fmt.Fprintf(os.Stderr, "recorder: %s: %v\n", cfg.Host, err)
		return 1
	}
	for _, n := range notes {
		fmt.Fprintln(os.Stderr, "recorder: note:", n)
	}

	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer cancel()
	if duration > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeout(ctx, duration)
		defer stop()
	}

	partial := out + ".partial"
	f, err := os.Create(partial)
	if err != nil {
		fmt.Fprintf(os.Stderr, "recorder: --out: %v\n", err)
		return 2
	}
	fail := func(format string, args ...interface{}) int {
		f.Close()
		os.Remove(partial)
		fmt.Fprintf(os.Stderr, "recorder: "+format+"\n", args...)
		return 1
	}
	// The server's version first: the importer takes the trace's level from it.
	header, _ := json.Marshal(map[string]interface{}{"serverVersion": version})
	if _, err := f.Write(append(header, '\n')); err != nil {
		return fail("writing %s: %v", partial, err)
	}
	opts := record.Options{
		Kinds:           kinds,
		KeepAnnotations: map[string]bool{},
		Logf:            func(format string, args ...interface{}) { fmt.Fprintf(os.Stderr, format+"\n", args...) },
		// The readiness line goes to stderr even with --quiet: scripts wait for it.
	}
	for _, k := range strings.Split(keep, ",") {
		if k != "" {
			opts.KeepAnnotations[k] = true
		}
	}
	if !quiet {
		fmt.Fprintf(os.Stderr, "recorder: recording %d kinds of %s (%s) into %s\n", len(kinds), cfg.Host, version.GitVersion, out)
	}
	st, err := record.Record(ctx, client, opts, f)
	if err != nil {
		return fail("%s: %v", cfg.Host, err)
	}
	if err := f.Close(); err != nil {
		return fail("closing %s: %v", partial, err)
	}
	if err := os.Rename(partial, out); err != nil {
		return fail("%v", err)
	}
	if !quiet {
		fmt.Fprintf(os.Stderr, "recorder: wrote %s: %d listed objects, %d watch events, %d resynced after an expired watch, %d reconnects, %d fields redacted\n",
			out, st.Listed, st.Events, st.Resynced, st.Reconnects, st.RedactedFields)
	}
	return 0
}
