#!/usr/bin/env bash
# Opens `schedcheck report` pages in headless Chromium (Debian's `chromium`, installed by ci/setup)
# and checks what was rendered: the page's script finished without error (<body
# data-rendered="ok">), the browser logged nothing (no blocked load, no script error), the SVG
# timeline and queue charts, the divergence rows and pod names are there, a pod name carrying
# markup shows as text and never becomes an element, and the explanation shows both sides; and with
# its scripts blocked, the verdict, counts and divergence rows are still there.
# Screenshots are saved as test outputs (bazel-testlogs/harness/report/browser_test/test.outputs).
set -euo pipefail
root="$TEST_SRCDIR/schedcheck"
schedcheck="$root/harness/cli/schedcheck"
data="$root/harness/report/testdata"
out="${TEST_UNDECLARED_OUTPUTS_DIR:-$(mktemp -d)}"
work="${TEST_TMPDIR:-$(mktemp -d)}"
export HOME="$work"  # Chromium writes its profile and caches under HOME

fail() { echo "FAIL: $*" >&2; exit 1; }

chromium=$(command -v chromium || true)
[ -n "$chromium" ] || fail "chromium is not installed: run ci/setup (it installs Debian's chromium package)"

# Loads file $1 and writes its DOM after the scripts ran to $2 and the browser's log to $3;
# with $4, also a screenshot there.
browse() {
  local flags=(--headless --no-sandbox --disable-gpu --disable-extensions --no-first-run
               --user-data-dir="$work/profile" --enable-logging=stderr --v=0 --window-size=1280,1600)
  timeout 60 "$chromium" "${flags[@]}" --dump-dom "file://$1" > "$2.raw" 2> "$3" ||
    fail "chromium could not load $1: $(tail -5 "$3")"
  # Without the embedded data (one line of JSON in which '<' is escaped) and script, so that
  # every check below sees what the script drew, not the input it drew from or its source.
  sed -E -e 's|<script type="application/json" id="report-data">[^<]*</script>||' \
    -e '/^<script>$/,/^<\/script>$/d' "$2.raw" > "$2"
  if grep -qE 'application/json|getElementById' "$2"; then fail "the data or script of $1 could not be set apart"; fi
  if [ $# -ge 4 ]; then
    timeout 60 "$chromium" "${flags[@]}" --screenshot="$4" "file://$1" > /dev/null 2>> "$3" ||
      fail "chromium could not take a screenshot of $1"
    [ -s "$4" ] && [ "$(head -c 4 "$4" | tail -c 3)" = "PNG" ] || fail "$4 is not a PNG image"
  fi
}

# Every console message (a blocked load, a script error, console.error) is a CONSOLE log line.
no_console_messages() {
  if grep -q ":CONSOLE" "$1"; then fail "the browser logged messages for $2: $(grep ':CONSOLE' "$1" | head -5)"; fi
}

contains() {  # contains FILE TEXT WHAT
  grep -qF -- "$2" "$1" || fail "$3: the rendered page lacks '$2'"
}

count() {  # count FILE TEXT: occurrences of TEXT
  grep -oF -- "$2" "$1" | wc -l
}

# 0. The checks can fail: a page with a blocked image and a script error is caught.
browse "$data/canary.html" "$work/canary.dom" "$work/canary.log"
grep -q ":CONSOLE" "$work/canary.log" || fail "the canary's blocked image and script error were not logged (chromium's log format changed?)"

# 1. Hand-written logs with one divergence of each class; one pod name and message carry markup.
"$schedcheck" report "$data/reference.jsonl" "$data/candidate.jsonl" -o "$work/classes.html" > "$work/classes.txt"
contains "$work/classes.txt" "3 divergence(s) (1 hard, 1 requeue, 1 soft)" "schedcheck report's summary line"
"$schedcheck" report "$data/reference.jsonl" "$data/candidate.jsonl" -o "$work/again.html" > /dev/null
cmp -s "$work/classes.html" "$work/again.html" || fail "two reports of the same logs differ"
browse "$work/classes.html" "$work/classes.dom" "$work/classes.log" "$out/report.png"
no_console_messages "$work/classes.log" "classes.html"
dom="$work/classes.dom"
contains "$dom" '<body data-rendered="ok">' "rendering finished without error"
contains "$dom" 'class="chart timeline-chart"' "the divergence timeline"
[ "$(count "$dom" 'class="attempt-mark"')" -eq 9 ] || fail "the timeline should mark 4 + 5 attempts, has $(count "$dom" 'class="attempt-mark"')"
[ "$(count "$dom" 'class="divergence-mark"')" -eq 3 ] || fail "the timeline should mark 3 divergences"
[ "$(count "$dom" 'class="chart queue-chart"')" -eq 2 ] || fail "there should be a queue-size chart per side"
[ "$(count "$dom" 'data-series="unschedulable"')" -eq 2 ] || fail "each queue chart should draw the unschedulable pool"
for class in hard requeue soft; do
  [ "$(count "$dom" "<tr class=\"divergence $class\">")" -eq 1 ] || fail "there should be one $class divergence row"
done
[ "$(count "$dom" 'class="path"')" -eq 3 ] || fail "each of the 3 divergent pods should have its path"
contains "$dom" '<h3 class="pod-name">default/db-0</h3>' "db-0's path"
contains "$dom" '<h3 class="pod-name">default/web-1</h3>' "web-1's path"
contains "$dom" 'attempt 1: scheduled on n1 (ties n1)' "web-1's reference attempt"
contains "$dom" 'attempt 1: scheduled on n2 (ties n2)' "web-1's candidate attempt"
contains "$dom" '<span class="verdict fails" id="verdict">diverges</span>' "the verdict"
# The pod name "default/</script><img src=x onerror=alert(1)>" is text (escaped in the DOM dump),
# and the page holds no <img> element at all.
contains "$dom" '<h3 class="pod-name">default/&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;</h3>' "the marked-up pod name as text"
contains "$dom" '{&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;: }' "the marked-up message as text"
if grep -qi '<img' "$dom"; then fail "an <img> element was created from untrusted input"; fi
contains "$dom" 'Not available: give --trace' "the explanation's absence said"

# 2. A replayed corpus trace against a candidate that forgets TaintToleration's events, with the
#    first divergent attempt explained for both sides.
trace="$root/traces/corpus/requeue-taint-removal.jsonl"
"$schedcheck" replay "$trace" --quiet --jsonl "$work/ref.jsonl"
"$schedcheck" replay "$trace" --quiet --candidate forget-events:TaintToleration --jsonl "$work/cand.jsonl"
"$schedcheck" report "$work/ref.jsonl" "$work/cand.jsonl" -o "$work/explained.html" \
  --trace "$trace" --candidate forget-events:TaintToleration > /dev/null
browse "$work/explained.html" "$work/explained.dom" "$work/explained.log" "$out/explained.png"
no_console_messages "$work/explained.log" "explained.html"
dom="$work/explained.dom"
contains "$dom" '<body data-rendered="ok">' "rendering finished without error"
[ "$(count "$dom" 'class="explain-side"')" -eq 2 ] || fail "the explanation should show both sides"
contains "$dom" '<h3>candidate forget-events:TaintToleration' "the candidate's side of the explanation"
contains "$dom" 'rejected by TaintToleration UnschedulableAndUnresolvable' "a per-node filter status"
contains "$dom" '<tr class="divergence requeue">' "a requeue divergence row"

# 3. A candidate scoring MostAllocated on the basic workload: soft divergences, and the scores of
#    the first one differ between the sides (marked lines).
trace="$root/traces/corpus/scheduling-basic.jsonl"
cat > "$work/most.yaml" <<'YAML'
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
YAML
"$schedcheck" replay "$trace" --quiet --jsonl "$work/basic.jsonl"
"$schedcheck" replay "$trace" --quiet --candidate "config:$work/most.yaml" --jsonl "$work/most.jsonl"
"$schedcheck" report "$work/basic.jsonl" "$work/most.jsonl" -o "$work/scores.html" \
  --trace "$trace" --candidate "config:$work/most.yaml" > /dev/null
browse "$work/scores.html" "$work/scores.dom" "$work/scores.log" "$out/scores.png"
no_console_messages "$work/scores.log" "scores.html"
dom="$work/scores.dom"
contains "$dom" '<body data-rendered="ok">' "rendering finished without error"
contains "$dom" '<tr class="divergence soft">' "a soft divergence row"
[ "$(count "$dom" 'scores (raw/normalized/weighted):')" -eq 2 ] || fail "both sides' per-plugin scores should be shown"
grep -qE '<span class="line[^"]*differs">[^<]*NodeResourcesFit' "$dom" || fail "no differing score line is marked"

# 4. Zooming: a drag across the timeline (simulated by a script appended to a copy of the page)
#    narrows both charts to the dragged range.
sed 's|</body>|<script>\
const c = document.querySelector(".timeline-chart"), r = c.getBoundingClientRect();\
const at = (vx) => ({ clientX: r.left + vx / 1000 * r.width, clientY: r.top + 20, bubbles: true });\
c.dispatchEvent(new MouseEvent("mousedown", at(300)));\
c.dispatchEvent(new MouseEvent("mousemove", at(600)));\
c.dispatchEvent(new MouseEvent("mouseup", at(600)));\
</script></body>|' "$work/explained.html" > "$work/zoomed.html"
browse "$work/zoomed.html" "$work/zoomed.dom" "$work/zoomed.log" "$out/zoomed.png"
no_console_messages "$work/zoomed.log" "zoomed.html"
contains "$work/zoomed.dom" '<body data-rendered="ok">' "rendering finished without error"
contains "$work/zoomed.dom" '<button type="button" id="zoom-out">show all</button>' "the zoomed timeline"
grep -q 'Showing [0-9.]* s to [0-9.]* s' "$work/zoomed.dom" || fail "the zoomed range is not said"
[ "$(count "$work/zoomed.dom" 'class="chart queue-chart"')" -eq 2 ] || fail "the queue charts were lost when zooming"

# 6. Without JavaScript (its scripts blocked by the page's own policy, since Chromium's
#    --dump-dom needs scripting on): the verdict, counts and divergence rows are there as markup.
sed "s/script-src 'unsafe-inline'/script-src 'none'/" "$work/classes.html" > "$work/nojs.html"
grep -q "script-src 'none'" "$work/nojs.html" || fail "the report's Content-Security-Policy changed"
browse "$work/nojs.html" "$work/nojs.dom" "$work/nojs.log" "$out/nojs.png"
dom="$work/nojs.dom"
contains "$dom" '<body data-rendered="pending">' "no script ran"
contains "$dom" '<span class="verdict fails" id="verdict">diverges</span> 3 pods compared; 1 hard, 1 requeue, 1 soft divergence(s)' "the verdict and counts without JavaScript"
for class in hard requeue soft; do
  [ "$(count "$dom" "<tr class=\"divergence $class\">")" -eq 1 ] || fail "there should be one $class divergence row without JavaScript"
done
if grep -qi '<img' "$dom"; then fail "an <img> element was created from untrusted input"; fi

# 5. Bad input: exit 2, the file named, no report written.
set +e
"$schedcheck" report "$data/reference.jsonl" "$work/missing.jsonl" -o "$work/bad.html" 2> "$work/bad.err"
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "a missing log should exit 2, got $rc"
contains "$work/bad.err" "missing.jsonl" "the error names the file"
[ ! -e "$work/bad.html" ] || fail "a report was written despite bad input"

echo "PASS: 4 reports rendered (and one zoomed) in $(chromium --version 2>/dev/null | head -1)"
