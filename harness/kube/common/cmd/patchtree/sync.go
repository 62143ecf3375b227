package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
)

// syncCheckout brings outDir up to date with a local checkout (patchtree -sync): the bridge's
// files (added and patched) are computed first, every anchor checked, and only then is the tree
// touched, so that an edit of an anchored line leaves the last good tree as it was.
func syncCheckout(specPath, checkout, outDir string) error {
	spec, err := readSpec(specPath)
	if err != nil {
		return err
	}
	own, err := bridgeFiles(spec, filepath.Dir(specPath), checkout)
	if err != nil {
		return err
	}
	// Everything the tree should hold: directories, and for each file its link target.
	wantDirs := map[string]bool{".": true}
	wantLinks := map[string]string{}
	err = filepath.WalkDir(checkout, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(checkout, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if rel != "." && skipDir(path, rel) {
				return filepath.SkipDir
			}
			wantDirs[rel] = true
			return nil
		}
		if _, ours := own[rel]; !ours {
			wantLinks[rel] = path
		}
		return nil
	})
	if err != nil {
		return err
	}
	for rel := range own {
		for dir := filepath.Dir(rel); dir != "."; dir = filepath.Dir(dir) {
			wantDirs[dir] = true
		}
	}
	// Remove what the checkout no longer has (deepest first, as WalkDir lists parents first).
	var stale []string
	if _, err := os.Stat(outDir); err == nil {
		err = filepath.WalkDir(outDir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(outDir, path)
			_, link := wantLinks[rel]
			_, ours := own[rel]
			if d.IsDir() && !wantDirs[rel] || !d.IsDir() && !link && !ours {
				stale = append(stale, path)
				if d.IsDir() {
					return filepath.SkipDir
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	for i := len(stale) - 1; i >= 0; i-- {
		if err := os.RemoveAll(stale[i]); err != nil {
			return err
		}
	}
	for rel := range wantDirs {
		if err := os.MkdirAll(filepath.Join(outDir, rel), 0o755); err != nil {
			return err
		}
	}
	for rel, target := range wantLinks {
		path := filepath.Join(outDir, rel)
		if got, err := os.Readlink(path); err == nil && got == target {
			continue
		}
		os.RemoveAll(path)
		if err := os.Symlink(target, path); err != nil {
			return err
		}
	}
	for rel, text := range own {
		path := filepath.Join(outDir, rel)
		if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
			if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, text) {
				continue
			}
		}
		if err := writeFile(path, text); err != nil {
			return err
		}
	}
	return nil
}

// bridgeFiles computes the added and patched files of the spec against moduleDir (path inside the
// module -> content) without writing anything.
func bridgeFiles(spec *Spec, specDir, moduleDir string) (map[string][]byte, error) {
	own := map[string][]byte{}
	for _, a := range spec.Add {
		text, err := os.ReadFile(filepath.Join(specDir, a.From))
		if err != nil {
			return nil, err
		}
		own[filepath.Clean(a.To)] = text
	}
	for _, p := range spec.Patch {
		patched, err := patchFile(moduleDir, p.File, p.Edits)
		if err != nil {
			return nil, err
		}
		own[filepath.Clean(p.File)] = []byte(patched)
	}
	return own, nil
}

// skipDir says whether a directory of a checkout is left out of the tree: what the module zip of
// k8s.io/kubernetes leaves out (nested modules, vendor) and what is no source (.git, _output).
func skipDir(path, rel string) bool {
	switch rel {
	case ".git", "_output", "vendor":
		return true
	}
	_, err := os.Stat(filepath.Join(path, "go.mod"))
	return err == nil
}
