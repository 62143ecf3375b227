// Command kube-adapter is the real kube-scheduler v1.37 behind schedcheck's external-scheduler
// protocol, with upstream's in-tree plugins only. Build it with harness/kube/build.sh.
package main

import "schedcheck.local/kube137/adapter"

func main() { adapter.Main() }
