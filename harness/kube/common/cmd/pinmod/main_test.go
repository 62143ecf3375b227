package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A tag's go.mod as `go mod edit -json` prints it: staging modules at v0.0.0 replaced by
// directories, the others at exact versions.
const tagJSON = `{"Module": {"Path": "k8s.io/kubernetes"}, "Go": "1.26.0",
 "Require": [{"Path": "k8s.io/api", "Version": "v0.0.0"},
             {"Path": "k8s.io/dynamic-resource-allocation", "Version": "v0.0.0"},
             {"Path": "k8s.io/utils", "Version": "v0.0.0-20260626114624-be93311217bd"},
             {"Path": "golang.org/x/net", "Version": "v0.57.0", "Indirect": true}],
 "Replace": [{"Old": {"Path": "k8s.io/api"}, "New": {"Path": "./staging/src/k8s.io/api"}},
             {"Old": {"Path": "k8s.io/dynamic-resource-allocation"}, "New": {"Path": "./staging/src/k8s.io/dynamic-resource-allocation"}}]}`

const moduleJSON = `{"Module": {"Path": "schedcheck.local/kube137"}, "Go": "1.26.0",
 "Require": [{"Path": "k8s.io/kubernetes", "Version": "v1.37.2"},
             {"Path": "k8s.io/api", "Version": "v0.37.2"},
             {"Path": "golang.org/x/net", "Version": "v0.58.0", "Indirect": true},
             {"Path": "github.com/own/dep", "Version": "v1.2.3"},
             {"Path": "schedcheck.local/kube/shared", "Version": "v0.0.0"}],
 "Replace": [{"Old": {"Path": "k8s.io/api"}, "New": {"Path": "k8s.io/api", "Version": "v0.37.2"}},
             {"Old": {"Path": "schedcheck.local/kube/shared"}, "New": {"Path": "../shared"}}]}`

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestGenerateRequiresTheTagsVersionsAndStagingAtTheMatchingPatch(t *testing.T) {
	tag, err := readGoMod(writeTemp(t, "tag.json", tagJSON))
	if err != nil {
		t.Fatal(err)
	}
	module, err := readGoMod(writeTemp(t, "module.json", moduleJSON))
	if err != nil {
		t.Fatal(err)
	}
	text := generate(tag, module, "/src/v1.37", "v1.37.1", pins(tag, "v1.37.1"), nil)
	for _, want := range []string{
		"module schedcheck.local/kube137\n",
		"\tk8s.io/kubernetes v1.37.1\n",
		"\tk8s.io/api v0.37.1\n",
		"\tgolang.org/x/net v0.57.0\n",
		"\tgithub.com/own/dep v1.2.3\n",
		"\tk8s.io/dynamic-resource-allocation => k8s.io/dynamic-resource-allocation v0.37.1\n",
		"\tschedcheck.local/kube/shared v0.0.0\n",
		"\tk8s.io/api => k8s.io/api v0.37.1\n",
		"\tk8s.io/utils => k8s.io/utils v0.0.0-20260626114624-be93311217bd\n",
		"\tschedcheck.local/kube/shared => /src/shared\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in:\n%s", want, text)
		}
	}
	// The module's own pins of Kubernetes modules (v1.37.2's) are gone; a module only the tag
	// requires comes in through the tag's go.mod, not as a requirement of ours.
	if strings.Contains(text, "v0.37.2") || strings.Contains(text, "v1.37.2") || strings.Contains(text, "v0.58.0") ||
		strings.Contains(text, "\tk8s.io/dynamic-resource-allocation v0.37.1\n") {
		t.Errorf("the module's own Kubernetes versions leaked into:\n%s", text)
	}
}

func TestCheckRefusesAMixedBuild(t *testing.T) {
	tag, err := readGoMod(writeTemp(t, "tag.json", tagJSON))
	if err != nil {
		t.Fatal(err)
	}
	want := pins(tag, "v1.37.1")
	list := func(api, drv, net string) string {
		return `{"ImportPath": "fmt"}
{"Module": {"Path": "schedcheck.local/kube137", "Main": true}}
{"Module": {"Path": "k8s.io/kubernetes", "Version": "v1.37.1", "Replace": {"Path": "/tree"}}}
{"Module": {"Path": "k8s.io/api", "Version": "v0.0.0", "Replace": {"Path": "k8s.io/api", "Version": "` + api + `"}}}
{"Module": {"Path": "k8s.io/api", "Version": "v0.0.0", "Replace": {"Path": "k8s.io/api", "Version": "` + api + `"}}}
{"Module": {"Path": "k8s.io/dynamic-resource-allocation", "Version": "` + drv + `"}}
{"Module": {"Path": "golang.org/x/net", "Version": "` + net + `"}}`
	}
	problems, notes, err := checkList(writeTemp(t, "ok.json", list("v0.37.1", "v0.37.1", "v0.57.0")), want, nil, "v1.37.1", "/tree")
	if err != nil || len(problems) != 0 || len(notes) != 0 {
		t.Errorf("a consistent build: problems %q notes %q err %v", problems, notes, err)
	}
	problems, notes, err = checkList(writeTemp(t, "mixed.json", list("v0.37.1", "v0.37.2", "v0.58.0")), want, nil, "v1.37.1", "/elsewhere")
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 2 || !strings.Contains(problems[0], "not replaced by the patched tree /elsewhere") ||
		problems[1] != "k8s.io/dynamic-resource-allocation resolves to v0.37.2, the tag requires v0.37.1" {
		t.Errorf("problems: %q", problems)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "golang.org/x/net v0.58.0: raised above the tag's v0.57.0") {
		t.Errorf("notes: %q", notes)
	}
}

// A checkout's staging modules are replaced by its own directories, and the check wants exactly
// those (a staging module taken from elsewhere is a mixed build).
func TestACheckoutsStagingModulesComeFromItsDirectories(t *testing.T) {
	tag, err := readGoMod(writeTemp(t, "tag.json", tagJSON))
	if err != nil {
		t.Fatal(err)
	}
	module, err := readGoMod(writeTemp(t, "module.json", moduleJSON))
	if err != nil {
		t.Fatal(err)
	}
	k := t.TempDir()
	for _, m := range []string{"api", "dynamic-resource-allocation"} {
		if err := os.MkdirAll(filepath.Join(k, "staging/src/k8s.io", m), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(k, "staging/src/k8s.io", m, "go.mod"), []byte("module k8s.io/"+m+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dirs := stagingDirs(tag, k)
	text := generate(tag, module, "/src/v1.37", "v1.37.1", pins(tag, "v1.37.1"), dirs)
	for _, want := range []string{
		"\tk8s.io/api => " + k + "/staging/src/k8s.io/api\n",
		"\tk8s.io/dynamic-resource-allocation => " + k + "/staging/src/k8s.io/dynamic-resource-allocation\n",
		"\tk8s.io/utils => k8s.io/utils v0.0.0-20260626114624-be93311217bd\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in:\n%s", want, text)
		}
	}
	if strings.Contains(text, "k8s.io/api => k8s.io/api") {
		t.Errorf("a staging module pinned to a published version:\n%s", text)
	}
	list := `{"Module": {"Path": "k8s.io/kubernetes", "Version": "v1.37.1", "Replace": {"Path": "/tree"}}}
{"Module": {"Path": "k8s.io/api", "Version": "v0.38.0", "Replace": {"Path": "` + k + `/staging/src/k8s.io/api"}}}
{"Module": {"Path": "k8s.io/dynamic-resource-allocation", "Version": "v0.37.1", "Replace": {"Path": "k8s.io/dynamic-resource-allocation", "Version": "v0.37.1"}}}`
	problems, _, err := checkList(writeTemp(t, "list.json", list), pins(tag, "v1.37.1"), dirs, "v1.37.1", "/tree")
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 1 || problems[0] != "k8s.io/dynamic-resource-allocation is not replaced by the checkout's "+k+"/staging/src/k8s.io/dynamic-resource-allocation" {
		t.Errorf("problems: %q", problems)
	}
}
