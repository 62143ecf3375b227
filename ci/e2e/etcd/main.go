// Command etcd starts an embedded etcd server for the end-to-end test: one
// member, client and peer URLs on loopback, a data directory the caller makes
// fresh for every run. It runs until SIGINT or SIGTERM.
//
// It is a module of its own so that the Kubernetes module keeps the etcd
// client version its own go.mod requires.
package main

import (
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"syscall"

	"go.etcd.io/etcd/server/v3/embed"
)

func main() {
	dataDir := flag.String("data-dir", "", "data directory (must be fresh for every run)")
	client := flag.String("listen-client", "http://127.0.0.1:2379", "client URL (loopback only)")
	peer := flag.String("listen-peer", "http://127.0.0.1:2380", "peer URL (loopback only)")
	flag.Parse()
	if *dataDir == "" {
		fmt.Fprintln(os.Stderr, "etcd: --data-dir is required")
		os.Exit(2)
	}
	cu, err := url.Parse(*client)
	if err != nil {
		fmt.Fprintf(os.Stderr, "etcd: --listen-client %q: %v\n", *client, err)
		os.Exit(2)
	}
	pu, err := url.Parse(*peer)
	if err != nil {
		fmt.Fprintf(os.Stderr, "etcd: --listen-peer %q: %v\n", *peer, err)
		os.Exit(2)
	}

	cfg := embed.NewConfig()
	cfg.Dir = *dataDir
	cfg.Name = "e2e"
	cfg.ListenClientUrls = []url.URL{*cu}
	cfg.AdvertiseClientUrls = []url.URL{*cu}
	cfg.ListenPeerUrls = []url.URL{*pu}
	cfg.AdvertisePeerUrls = []url.URL{*pu}
	cfg.InitialCluster = cfg.Name + "=" + pu.String()
	cfg.LogLevel = "warn"

	e, err := embed.StartEtcd(cfg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "etcd: start: %v\n", err)
		os.Exit(1)
	}
	defer e.Close()

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	select {
	case <-e.Server.ReadyNotify():
		fmt.Fprintln(os.Stderr, "etcd: ready on", cu.String())
	case <-sig:
		return
	}
	select {
	case err := <-e.Err():
		fmt.Fprintf(os.Stderr, "etcd: %v\n", err)
		os.Exit(1)
	case <-sig:
	}
}
