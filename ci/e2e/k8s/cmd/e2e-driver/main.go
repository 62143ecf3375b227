// Command e2e-driver runs one scripted scenario against a control plane
// (ci/e2e/README.md): `e2e-driver --kubeconfig K SCENARIO`, or `--list`.
// While it runs it finishes the deletion of bound pods as their kubelets
// would. Exit 2 for bad arguments, 1 when the scenario fails.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"schedcheck.local/e2e/k8s/scenario"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of the control plane")
	list := flag.Bool("list", false, "print the scenario names")
	flag.Parse()
	if *list {
		fmt.Println(strings.Join(scenario.Names(), "\n"))
		return
	}
	if *kubeconfig == "" || flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: e2e-driver --kubeconfig K SCENARIO  (scenarios: "+strings.Join(scenario.Names(), ", ")+")")
		os.Exit(2)
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e-driver: --kubeconfig %s: %v\n", *kubeconfig, err)
		os.Exit(2)
	}
	cfg.QPS, cfg.Burst = 100, 200
	c, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e-driver: %v\n", err)
		os.Exit(2)
	}
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer cancel()
	ctx, stop := context.WithTimeout(ctx, 5*time.Minute)
	defer stop()
	start := time.Now()
	logf := func(format string, args ...interface{}) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
	if err := scenario.Run(ctx, c, flag.Arg(0), logf); err != nil {
		fmt.Fprintf(os.Stderr, "e2e-driver: %v\n", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "e2e-driver: scenario %s done in %.1fs\n", flag.Arg(0), time.Since(start).Seconds())
}
