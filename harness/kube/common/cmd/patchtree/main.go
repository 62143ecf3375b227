// Command patchtree makes the build-time copy of an upstream k8s.io/kubernetes module that the
// adapters link (a go.mod `replace` points at it; nothing upstream is copied into the
// repository): a tree of symbolic links into the module cache, with the schedcheck bridge files
// added to upstream packages and a few upstream files replaced by patched copies. Each patch
// names an exact anchor that must occur exactly once in the upstream file, so a tag whose code
// moved fails the build loudly instead of building something else. (`go build -overlay` would be
// lighter, but the go command refuses overlays of files in the module cache.)
//
// Usage: patchtree -spec harness/kube/v1.27/patches.json -module DIR -out DIR
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
		Edits []struct {
			Why     string `json:"why"`
			Find    string `json:"find"`
			Replace string `json:"replace"`
		} `json:"edits"`
	} `json:"patch"`
}

func main() {
	specPath := flag.String("spec", "", "the version's patches.json")
	moduleDir := flag.String("module", "", "k8s.io/kubernetes module directory (go list -m -f {{.Dir}})")
	outDir := flag.String("out", "", "the tree to (re)create")
	flag.Parse()
	if *specPath == "" || *moduleDir == "" || *outDir == "" {
		fmt.Fprintln(os.Stderr, "usage: patchtree -spec FILE -module DIR -out DIR")
		os.Exit(2)
	}
	if err := build(*specPath, *moduleDir, *outDir); err != nil {
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

func build(specPath, moduleDir, outDir string) error {
	raw, err := os.ReadFile(specPath)
	if err != nil {
		return err
	}
	var spec Spec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return fmt.Errorf("%s: %w", specPath, err)
	}
	specDir := filepath.Dir(specPath)
	// The tree is made next to the old one and swapped in when complete, so that a failure (an
	// anchor that moved) leaves the previous tree as it was, never a half-made one.
	newDir := outDir + ".new"
	if err := makeTree(&spec, specDir, moduleDir, newDir); err != nil {
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
		text, err := os.ReadFile(filepath.Join(moduleDir, p.File))
		if os.IsNotExist(err) {
			return &anchorError{file: p.File, why: p.Edits[0].Why, find: "(the file does not exist at this version)", edit: 1}
		} else if err != nil {
			return err
		}
		patched := string(text)
		for i, e := range p.Edits {
			if n := strings.Count(patched, e.Find); n != 1 {
				return &anchorError{file: p.File, why: e.Why, find: e.Find, edit: i + 1, count: n}
			}
			patched = strings.Replace(patched, e.Find, e.Replace, 1)
		}
		if err := writeFile(filepath.Join(outDir, p.File), []byte(patched)); err != nil {
			return err
		}
	}
	return nil
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
