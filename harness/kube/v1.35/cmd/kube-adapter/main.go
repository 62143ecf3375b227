// Command kube-adapter is the real kube-scheduler v1.35 behind schedcheck's external-scheduler
// protocol: upstream's in-tree plugins, plus the project's example out-of-tree plugin
// CreationDelay (ported in harness/kube/core/examples/creationdelay), which does nothing unless a
// configuration enables it, as the corpus's requeue examples do. Build it with
// harness/kube/build.sh.
package main

import (
	"schedcheck.local/kube/core/examples/creationdelay"
	"schedcheck.local/kube135/adapter"
)

func main() {
	adapter.Main(adapter.WithPlugin(creationdelay.Name, creationdelay.NewFactory(adapter.VirtualClock())))
}
