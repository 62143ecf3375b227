// Command pinmod writes the go.mod that builds an adapter module against one exact
// k8s.io/kubernetes patch release (build.sh --kube X.Y.Z), and checks the resolved build list.
//
// k8s.io/kubernetes requires its staging modules at v0.0.0 and replaces them by ./staging/...
// directories, which a module that imports it cannot use; the staging modules are published
// separately at v0.<minor>.<patch>. So the generated go.mod requires k8s.io/kubernetes at the
// release and the adapter module's own requirements at the version the tag's own `require` block
// lists for them (staging modules at v0.Y.Z), replaces every staging module and every other k8s.io /
// sigs.k8s.io module the tag requires by that exact version (so that no requirement of the
// adapter's own modules can raise one: a mixed build), and keeps the adapter module's replaces of
// other modules.
//
//	pinmod -version v1.37.1 -tag TAG.json -module MODULE.json -moddir DIR -out go.mod
//	pinmod -version v1.37.1 -tag TAG.json -tree DIR -check LIST.json
//
// With -checkout DIR (a local kubernetes checkout, build.sh --kube-src), TAG.json is the checkout's
// go.mod and its staging modules are replaced by the checkout's own directories
// (DIR/staging/src/k8s.io/...), as its `replace` lines say, instead of by published versions.
//
// TAG.json and MODULE.json are `go mod edit -json` of the tag's go.mod and of the adapter module's
// go.mod; LIST.json is `go list -deps -json=Module PKG...` of the generated module: the modules that
// provide the packages built (the module graph also holds modules no package comes from, such as
// the older requirements of the adapters' shared module, which never reach the build). -check
// exits 2 naming every Kubernetes module that resolved to another version than the tag requires,
// and notes on stderr the other modules the adapter's own modules raised above the tag's version.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// goMod is the part of `go mod edit -json` pinmod reads.
type goMod struct {
	Module  struct{ Path string }
	Go      string
	Require []struct {
		Path     string
		Version  string
		Indirect bool
	}
	Replace []struct {
		Old struct{ Path, Version string }
		New struct{ Path, Version string }
	}
}

// listed is one module of a package of `go list -deps -json=Module`.
type listed struct {
	Path    string
	Version string
	Main    bool
	Replace *struct{ Path, Version string }
}

type listedPackage struct{ Module *listed }

func main() {
	version := flag.String("version", "", "the k8s.io/kubernetes version, e.g. v1.37.1")
	tagPath := flag.String("tag", "", "`go mod edit -json` of the tag's go.mod")
	modulePath := flag.String("module", "", "`go mod edit -json` of the adapter module's go.mod")
	moduleDir := flag.String("moddir", "", "the adapter module's directory (relative replaces are made absolute)")
	out := flag.String("out", "", "the go.mod to write")
	check := flag.String("check", "", "`go list -deps -json=Module PKG...` of the generated module: check it instead")
	tree := flag.String("tree", "", "with -check: the patched tree k8s.io/kubernetes must be replaced by")
	checkout := flag.String("checkout", "", "a kubernetes checkout whose staging directories replace the staging modules")
	flag.Parse()
	tag, err := readGoMod(*tagPath)
	if err == nil && !strings.HasPrefix(*version, "v1.") {
		err = fmt.Errorf("-version %q: want v1.MINOR.PATCH", *version)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pinmod:", err)
		os.Exit(2)
	}
	want := pins(tag, *version)
	dirs := stagingDirs(tag, *checkout)
	if *check != "" {
		problems, notes, err := checkList(*check, want, dirs, *version, *tree)
		if err != nil {
			fmt.Fprintln(os.Stderr, "pinmod:", err)
			os.Exit(1)
		}
		for _, n := range notes {
			fmt.Fprintln(os.Stderr, "note:", n)
		}
		if len(problems) > 0 {
			fmt.Fprintf(os.Stderr, "a mixed build, refused: these modules do not resolve to the version the go.mod of k8s.io/kubernetes %s requires:\n", *version)
			for _, p := range problems {
				fmt.Fprintln(os.Stderr, "  "+p)
			}
			os.Exit(2)
		}
		return
	}
	module, err := readGoMod(*modulePath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pinmod:", err)
		os.Exit(2)
	}
	text := generate(tag, module, *moduleDir, *version, want, dirs)
	if err := os.WriteFile(*out, []byte(text), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "pinmod:", err)
		os.Exit(1)
	}
}

func readGoMod(path string) (*goMod, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m goMod
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &m, nil
}

// stagingVersion is v0.Y.Z for v1.Y.Z: the version staging modules are published at.
func stagingVersion(version string) string { return "v0." + strings.TrimPrefix(version, "v1.") }

// isKube says whether a module belongs to the Kubernetes family whose versions must match the tag.
func isKube(path string) bool {
	return strings.HasPrefix(path, "k8s.io/") || strings.HasPrefix(path, "sigs.k8s.io/")
}

// stagingDirs maps each staging module of a checkout to its directory there; nil without one. A
// staging module whose directory holds no go.mod (a partial tree) stays at its published version.
func stagingDirs(tag *goMod, checkout string) map[string]string {
	if checkout == "" {
		return nil
	}
	dirs := map[string]string{}
	for _, r := range tag.Replace {
		dir := filepath.Join(checkout, r.New.Path)
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && strings.HasPrefix(r.New.Path, "./staging/") {
			dirs[r.Old.Path] = dir
		}
	}
	return dirs
}

// pins maps each module the tag's go.mod requires to the version it requires (staging modules,
// which it replaces by directories, to v0.Y.Z), plus every staging module it replaces.
func pins(tag *goMod, version string) map[string]string {
	staging := map[string]bool{}
	for _, r := range tag.Replace {
		if strings.HasPrefix(r.New.Path, "./staging/") {
			staging[r.Old.Path] = true
		}
	}
	want := map[string]string{"k8s.io/kubernetes": version}
	for _, r := range tag.Require {
		want[r.Path] = r.Version
	}
	for path := range staging {
		want[path] = stagingVersion(version)
	}
	return want
}

func generate(tag, module *goMod, moduleDir, version string, want, dirs map[string]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Generated by harness/kube/build.sh (pinmod) for k8s.io/kubernetes %s: every module at the\n", version)
	b.WriteString("// version the tag's go.mod requires, its staging modules at " + stagingVersion(version) + ".\n")
	fmt.Fprintf(&b, "module %s\n\ngo %s\n\nrequire (\n\tk8s.io/kubernetes %s\n", module.Module.Path, module.Go, version)
	// The module's own requirements, at the tag's version where the tag lists the module. Modules
	// only the tag requires come in through k8s.io/kubernetes's go.mod at the same versions; listing
	// them here would also make Go fetch modules no package is built from (at v1.27.0 the proxy
	// does not serve k8s.io/cluster-bootstrap v0.27.0, which only kubeadm uses).
	for _, r := range module.Require {
		if r.Path == "k8s.io/kubernetes" {
			continue
		}
		if v, ok := want[r.Path]; ok {
			fmt.Fprintf(&b, "\t%s %s\n", r.Path, v)
		} else if !isKube(r.Path) {
			fmt.Fprintf(&b, "\t%s %s\n", r.Path, r.Version)
		}
	}
	b.WriteString(")\n\nreplace (\n")
	for _, path := range sortedKeys(want) {
		if dir, ok := dirs[path]; ok {
			fmt.Fprintf(&b, "\t%s => %s\n", path, dir)
		} else if isKube(path) && path != "k8s.io/kubernetes" {
			fmt.Fprintf(&b, "\t%s => %s %s\n", path, path, want[path])
		}
	}
	for _, r := range module.Replace {
		if isKube(r.Old.Path) {
			continue
		}
		target := r.New.Path
		if r.New.Version != "" {
			target += " " + r.New.Version
		} else if !filepath.IsAbs(target) {
			target = filepath.Join(moduleDir, target)
		}
		fmt.Fprintf(&b, "\t%s => %s\n", r.Old.Path, target)
	}
	b.WriteString(")\n")
	return b.String()
}

// checkList reads `go list -deps -json=Module` and compares each module's effective version (its
// replacement's, when replaced by a version) with the tag's.
func checkList(path string, want, dirs map[string]string, version, tree string) (problems, notes []string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	seenKube := false
	seen := map[string]bool{}
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		m := p.Module
		if m == nil || m.Main || seen[m.Path] { // a standard-library package, or seen
			continue
		}
		seen[m.Path] = true
		got := m.Version
		if m.Replace != nil && m.Replace.Version != "" {
			got = m.Replace.Version
		}
		if m.Path == "k8s.io/kubernetes" {
			seenKube = true
			if m.Version != version {
				problems = append(problems, fmt.Sprintf("k8s.io/kubernetes resolves to %s, want %s", m.Version, version))
			} else if tree != "" && (m.Replace == nil || m.Replace.Path != tree) {
				problems = append(problems, "k8s.io/kubernetes is not replaced by the patched tree "+tree)
			}
			continue
		}
		if dir, ok := dirs[m.Path]; ok {
			if m.Replace == nil || m.Replace.Path != dir {
				problems = append(problems, fmt.Sprintf("%s is not replaced by the checkout's %s", m.Path, dir))
			}
			continue
		}
		w, required := want[m.Path]
		switch {
		case required && got != w && isKube(m.Path):
			problems = append(problems, fmt.Sprintf("%s resolves to %s, the tag requires %s", m.Path, got, w))
		case required && got != w:
			notes = append(notes, fmt.Sprintf("%s %s: raised above the tag's %s by the adapter's own modules", m.Path, got, w))
		case !required && isKube(m.Path) && m.Replace == nil:
			problems = append(problems, fmt.Sprintf("%s %s is not required by the tag's go.mod", m.Path, got))
		}
	}
	if !seenKube {
		problems = append(problems, "k8s.io/kubernetes is not in the build list")
	}
	return problems, notes, nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
