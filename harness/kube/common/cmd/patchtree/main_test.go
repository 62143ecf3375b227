package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestBuildLinksAddsAndPatches(t *testing.T) {
	dir := t.TempDir()
	module := filepath.Join(dir, "module")
	write(t, filepath.Join(module, "pkg/a.go"), "package pkg\n\nfunc F() { go g() }\n")
	write(t, filepath.Join(module, "pkg/b.go"), "package pkg\n")
	write(t, filepath.Join(dir, "spec/bridge.go"), "package pkg\n// bridge\n")
	write(t, filepath.Join(dir, "spec/patches.json"), `{
	  "add": [{"to": "pkg/bridge.go", "from": "bridge.go"}],
	  "patch": [{"file": "pkg/a.go", "edits": [{"why": "sync", "find": "go g()", "replace": "g()"}]}]}`)
	out := filepath.Join(dir, "out")
	if err := build(filepath.Join(dir, "spec/patches.json"), module, out); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(out, "pkg/a.go")); !strings.Contains(got, "func F() { g() }") {
		t.Errorf("patched file: %q", got)
	}
	if got := read(t, filepath.Join(out, "pkg/bridge.go")); !strings.Contains(got, "// bridge") {
		t.Errorf("added file: %q", got)
	}
	if target, err := os.Readlink(filepath.Join(out, "pkg/b.go")); err != nil || target != filepath.Join(module, "pkg/b.go") {
		t.Errorf("untouched files are links into the module: %q %v", target, err)
	}
	if got := read(t, filepath.Join(module, "pkg/a.go")); strings.Contains(got, "func F() { g() }") {
		t.Error("the module itself was changed")
	}
}

func TestAnAnchorMustOccurExactlyOnce(t *testing.T) {
	for text, want := range map[string]string{
		"package pkg\n":                 "occurs 0 times",
		"package pkg\n// x()\n// x()\n": "occurs 2 times",
	} {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "module/pkg/a.go"), text)
		write(t, filepath.Join(dir, "patches.json"), `{"patch": [{"file": "pkg/a.go", "edits": [{"why": "w", "find": "x()", "replace": "y()"}]}]}`)
		err := build(filepath.Join(dir, "patches.json"), filepath.Join(dir, "module"), filepath.Join(dir, "out"))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "pkg/a.go: edit 1 (w)") {
			t.Errorf("%q: got %v, want an error saying %q", text, err, want)
		}
	}
}

// A version whose anchor moved fails as an anchorError (exit 2) and leaves the tree of the last
// good build as it was: no half-made tree, no link into another version.
func TestAFailedBuildKeepsThePreviousTree(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "good/pkg/a.go"), "package pkg\n// x()\n")
	write(t, filepath.Join(dir, "moved/pkg/a.go"), "package pkg\n// z()\n")
	write(t, filepath.Join(dir, "gone/pkg/b.go"), "package pkg\n")
	write(t, filepath.Join(dir, "patches.json"), `{"patch": [{"file": "pkg/a.go", "edits": [{"why": "w", "find": "x()", "replace": "y()"}]}]}`)
	out := filepath.Join(dir, "out")
	if err := build(filepath.Join(dir, "patches.json"), filepath.Join(dir, "good"), out); err != nil {
		t.Fatal(err)
	}
	err := build(filepath.Join(dir, "patches.json"), filepath.Join(dir, "moved"), out)
	var moved *anchorError
	if !errors.As(err, &moved) || moved.file != "pkg/a.go" || moved.edit != 1 {
		t.Fatalf("got %v, want the anchorError of pkg/a.go edit 1", err)
	}
	if got := read(t, filepath.Join(out, "pkg/a.go")); got != "package pkg\n// y()\n" {
		t.Errorf("the previous tree changed: %q", got)
	}
	if _, err := os.Stat(out + ".new"); !os.IsNotExist(err) {
		t.Errorf("the half-made tree is left: %v", err)
	}
	err = build(filepath.Join(dir, "patches.json"), filepath.Join(dir, "gone"), out)
	if !errors.As(err, &moved) || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("a patched file missing at the version: got %v", err)
	}
}
