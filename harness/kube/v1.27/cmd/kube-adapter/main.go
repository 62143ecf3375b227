// Command kube-adapter is the real kube-scheduler v1.27 behind schedcheck's external-scheduler
// protocol: upstream's in-tree plugins, plus the project's example out-of-tree plugin
// CreationDelay (harness/kube/examples/creation-delay), which does nothing unless a configuration
// enables it, as the corpus's requeue examples do. Build it with harness/kube/build.sh.
package main

import (
	"example.local/creationdelay/plugin"

	"schedcheck.local/kube127/adapter"
)

func main() {
	adapter.Main(adapter.WithPlugin(plugin.Name, plugin.NewFactory(adapter.VirtualClock())))
}
