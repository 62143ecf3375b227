package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A checkout's tree is kept up to date in place: edits show through the links, new and deleted
// files are linked and unlinked, a patched file follows its upstream text, and what a module zip
// leaves out (.git, _output, vendor, nested modules) is not linked.
func TestSyncFollowsTheCheckout(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	write(t, filepath.Join(src, "go.mod"), "module k8s.io/kubernetes\n")
	write(t, filepath.Join(src, "pkg/a.go"), "package pkg\n// x()\n")
	write(t, filepath.Join(src, "pkg/b.go"), "package pkg\n")
	write(t, filepath.Join(src, ".git/HEAD"), "ref\n")
	write(t, filepath.Join(src, "_output/bin/x"), "binary\n")
	write(t, filepath.Join(src, "vendor/m/m.go"), "package m\n")
	write(t, filepath.Join(src, "staging/src/k8s.io/api/go.mod"), "module k8s.io/api\n")
	write(t, filepath.Join(dir, "bridge.go"), "package pkg\n// bridge\n")
	write(t, filepath.Join(dir, "patches.json"), `{
	  "add": [{"to": "pkg/bridge.go", "from": "bridge.go"}],
	  "patch": [{"file": "pkg/a.go", "edits": [{"why": "w", "find": "x()", "replace": "y()"}]}]}`)
	spec, out := filepath.Join(dir, "patches.json"), filepath.Join(dir, "out")
	if err := syncCheckout(spec, src, out); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(out, "pkg/a.go")); got != "package pkg\n// y()\n" {
		t.Errorf("patched file: %q", got)
	}
	for _, gone := range []string{".git", "_output", "vendor", "staging/src/k8s.io/api"} {
		if _, err := os.Lstat(filepath.Join(out, gone)); !os.IsNotExist(err) {
			t.Errorf("%s is in the tree: %v", gone, err)
		}
	}
	// Edits in the checkout: one file changed, one added, one deleted, the patched one moved on.
	write(t, filepath.Join(src, "pkg/b.go"), "package pkg\n// changed\n")
	write(t, filepath.Join(src, "pkg/c.go"), "package pkg\n// new\n")
	write(t, filepath.Join(src, "pkg/d/d.go"), "package d\n")
	if err := syncCheckout(spec, src, out); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(src, "pkg/d"))
	write(t, filepath.Join(src, "pkg/a.go"), "package pkg\n// x()\n// more\n")
	if err := syncCheckout(spec, src, out); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(out, "pkg/b.go")); got != "package pkg\n// changed\n" {
		t.Errorf("changed file: %q", got)
	}
	if target, err := os.Readlink(filepath.Join(out, "pkg/c.go")); err != nil || target != filepath.Join(src, "pkg/c.go") {
		t.Errorf("new file: %q %v", target, err)
	}
	if _, err := os.Lstat(filepath.Join(out, "pkg/d")); !os.IsNotExist(err) {
		t.Errorf("a deleted directory stays: %v", err)
	}
	if got := read(t, filepath.Join(out, "pkg/a.go")); got != "package pkg\n// y()\n// more\n" {
		t.Errorf("patched file after its upstream changed: %q", got)
	}
	if got := read(t, filepath.Join(out, "pkg/bridge.go")); !strings.Contains(got, "// bridge") {
		t.Errorf("added file: %q", got)
	}
	// An edit of the anchored line: an anchorError naming the file and edit, the tree untouched.
	write(t, filepath.Join(src, "pkg/a.go"), "package pkg\n// z()\n")
	write(t, filepath.Join(src, "pkg/e.go"), "package pkg\n")
	err := syncCheckout(spec, src, out)
	var moved *anchorError
	if !errors.As(err, &moved) || moved.file != "pkg/a.go" || moved.edit != 1 {
		t.Fatalf("got %v, want the anchorError of pkg/a.go edit 1", err)
	}
	if got := read(t, filepath.Join(out, "pkg/a.go")); got != "package pkg\n// y()\n// more\n" {
		t.Errorf("a failed sync changed the tree: %q", got)
	}
	if _, err := os.Lstat(filepath.Join(out, "pkg/e.go")); !os.IsNotExist(err) {
		t.Errorf("a failed sync linked a new file: %v", err)
	}
	if got := read(t, filepath.Join(src, "pkg/a.go")); got != "package pkg\n// z()\n" {
		t.Errorf("the checkout itself was changed: %q", got)
	}
}
