// Command delay-adapter is kube-scheduler v1.27 with the CreationDelay plugin, behind schedcheck's
// protocol: the recipe of harness/kube/README.md, "Your own plugins".
package main

import (
	"schedcheck.local/kube127/adapter"

	"example.local/creationdelay/plugin"
)

func main() {
	adapter.Main(adapter.WithPlugin(plugin.Name, plugin.NewFactory(adapter.VirtualClock())))
}
