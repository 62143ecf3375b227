// Command patchtree makes the build-time copy of an upstream k8s.io/kubernetes module that the
// adapters link (a go.mod `replace` points at it; nothing upstream is copied into the
// repository): a tree of symbolic links into the module cache, with the schedcheck bridge files
// added to upstream packages and a few upstream files replaced by patched copies. Each patch
// names an exact anchor that must occur exactly once in the upstream file, so a tag whose code
// moved fails the build loudly instead of building something else. (`go build -overlay` would be
// lighter, but the go command refuses overlays of files in the module cache.)
//
// Usage: patchtree -spec harness/kube/v1.27/patches.json -module DIR -out DIR
//
//	patchtree -sync -spec SPEC -module CHECKOUT -out DIR
//
// -sync is for a local kubernetes checkout (build.sh --kube-src): the tree is kept and brought up to
// date in place (links added and removed, patched copies rewritten when their text changes) so
// that a rebuild after an edit costs a walk, not a new tree. Every anchor is checked before the
// tree is touched, so a failure leaves it as it was. The walk skips what a module zip leaves out
// of the k8s.io/kubernetes module: .git, _output (build outputs), vendor, and every directory
// holding its own go.mod (the staging modules, replaced separately).
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Spec is the format of a version's patches.json (see harness/kube/README.md).
type Spec struct {
	// Add: bridge files of ours, placed into upstream package directories.
	Add []struct {
		To   string `json:"to"`   // path inside the kubernetes module, e.g. pkg/scheduler/x.go
		From string `json:"from"` // path relative to the spec file
		Why  string `json:"why"`  // documentation: the READMEs' patch tables (patch_tables.py)
	} `json:"add"`
	// Patch: upstream files replaced by a copy with exact-text edits.
	Patch []struct {
		File  string `json:"file"`
		Edits []Edit `json:"edits"`
	} `json:"patch"`
}

// Edit is one exact-text edit of an upstream file.
type Edit struct {
	Why     string `json:"why"`
	Find    string `json:"find"`
	Replace string `json:"replace"`
}

func main() {
	specPath := flag.String("spec", "", "the version's patches.json")
	moduleDir := flag.String("module", "", "k8s.io/kubernetes module directory (go list -m -f {{.Dir}})")
	outDir := flag.String("out", "", "the tree to (re)create")
	syncTree := flag.Bool("sync", false, "update the tree in place (a local checkout) instead of recreating it")
	flag.Parse()
	if *specPath == "" || *moduleDir == "" || *outDir == "" {
		fmt.Fprintln(os.Stderr, "usage: patchtree -spec FILE -module DIR -out DIR")
		os.Exit(2)
	}
	run := build
	if *syncTree {
		run = syncCheckout
	}
	if err := run(*specPath, *moduleDir, *outDir); err != nil {
		fmt.Fprintln(os.Stderr, "patchtree:", err)
		var moved *anchorError
		if errors.As(err, &moved) {
			os.Exit(2) // the upstream code moved: this version cannot be built with this spec
		}
		os.Exit(1)
	}
}

// anchorError is an edit whose anchor does not occur exactly once in the upstream file.
type anchorError struct {
	file, why, find string
	edit, count     int
}

func (e *anchorError) Error() string {
	return fmt.Sprintf("%s: edit %d (%s): the anchor occurs %d times, want exactly 1:\n%s", e.file, e.edit, e.why, e.count, e.find)
}

func readSpec(specPath string) (*Spec, error) {
	raw, err := os.ReadFile(specPath)
	if err != nil {
		return nil, err
	}
	var spec Spec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, fmt.Errorf("%s: %w", specPath, err)
	}
	return &spec, nil
}

func build(specPath, moduleDir, outDir string) error {
	spec, err := readSpec(specPath)
	if err != nil {
		return err
	}
	specDir := filepath.Dir(specPath)
	// The tree is made next to the old one and swapped in when complete, so that a failure (an
	// anchor that moved) leaves the previous tree as it was, never a half-made one.
	newDir := outDir + ".new"
	if err := makeTree(spec, specDir, moduleDir, newDir); err != nil {
		os.RemoveAll(newDir)
		return err
	}
	if err := os.RemoveAll(outDir); err != nil {
		return err
	}
	return os.Rename(newDir, outDir)
}

func makeTree(spec *Spec, specDir, moduleDir, outDir string) error {
	if err := linkTree(moduleDir, outDir); err != nil {
		return err
	}
	for _, a := range spec.Add {
		text, err := os.ReadFile(filepath.Join(specDir, a.From))
		if err != nil {
			return err
		}
		if err := writeFile(filepath.Join(outDir, a.To), text); err != nil {
			return err
		}
	}
	for _, p := range spec.Patch {
		patched, err := patchFile(moduleDir, p.File, p.Edits)
		if err != nil {
			return err
		}
		if err := writeFile(filepath.Join(outDir, p.File), []byte(patched)); err != nil {
			return err
		}
	}
	return nil
}

// patchFile returns the upstream file with the edits applied, or the anchorError of the first
// edit whose anchor does not occur exactly once.
func patchFile(moduleDir, file string, edits []Edit) (string, error) {
	text, err := os.ReadFile(filepath.Join(moduleDir, file))
	if os.IsNotExist(err) {
		return "", &anchorError{file: file, why: edits[0].Why, find: "(the file does not exist at this version)", edit: 1}
	} else if err != nil {
		return "", err
	}
	patched := string(text)
	for i, e := range edits {
		if n := strings.Count(patched, e.Find); n != 1 {
			return "", &anchorError{file: file, why: e.Why, find: e.Find, edit: i + 1, count: n}
		}
		patched = strings.Replace(patched, e.Find, e.Replace, 1)
	}
	return patched, nil
}

// linkTree recreates out as directories mirroring src, every file a symbolic link into src.
func linkTree(src, out string) error {
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(out, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		return os.Symlink(path, target)
	})
}

// writeFile replaces a link (or adds a file) with real content.
func writeFile(path string, content []byte) error {
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, content, 0o644)
}
