package record

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRedactDropsSecretsKeepsSchedulingFields(t *testing.T) {
	var pod map[string]interface{}
	if err := json.Unmarshal([]byte(`{"kind":"Pod","metadata":{"name":"p","managedFields":[{}],
	  "annotations":{"secret-note":"x","keep/me":"y","volume.kubernetes.io/selected-node":"n1"}},
	  "spec":{"nodeName":"n1","containers":[{"name":"c","env":[{"name":"PASSWORD","value":"hunter2"}],
	  "command":["sh"],"resources":{"requests":{"cpu":"1"}}}],
	  "volumes":[{"name":"s","secret":{"secretName":"db"}},{"name":"d","persistentVolumeClaim":{"claimName":"c"}}]}}`), &pod); err != nil {
		t.Fatal(err)
	}
	n := Redact(pod, map[string]bool{"keep/me": true})
	b, _ := json.Marshal(pod)
	s := string(b)
	for _, gone := range []string{"hunter2", "PASSWORD", "managedFields", "secret-note", `"sh"`, "secretName"} {
		if strings.Contains(s, gone) {
			t.Errorf("%s survived redaction: %s", gone, s)
		}
	}
	for _, kept := range []string{`"keep/me":"y"`, "selected-node", `"nodeName":"n1"`, `"cpu":"1"`, `"claimName":"c"`, `{"emptyDir":{},"name":"s"}`} {
		if !strings.Contains(s, kept) {
			t.Errorf("%s did not survive redaction: %s", kept, s)
		}
	}
	if n != 5 { // managedFields, one annotation, env, command, the secret volume
		t.Errorf("Redact counted %d removed fields, want 5", n)
	}
}
