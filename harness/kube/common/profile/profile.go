// Package profile adds up where an adapter's wall-clock time goes, for the bench's campaign shares
// (harness/bench/README.md): waiting for the harness, reading and decoding requests, Hello (the
// scheduler built from its configuration), feeding trace events to the informers, the rest of
// Events and Finish (upstream's queue, cycles and bindings), and encoding and writing answers.
//
// It is off unless the environment variable SCHEDCHECK_ADAPTER_PROFILE names a file; then Serve
// writes the totals there as one JSON object when its input ends. It reads the real clock only to
// add durations: virtual time, decisions and decision logs never see it.
package profile

import (
	"encoding/json"
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Phase is a part of the adapter's work.
type Phase int

const (
	Wait   Phase = iota // blocked reading the next request's header: the harness's turn
	Decode              // the rest of the frame read, and the Request unmarshalled
	Hello               // Scheduler.Hello: configuration, scheduler.New, informers
	Feed                // trace events into the informers (object conversion and handlers)
	Events              // Scheduler.Events, Feed included
	Finish              // Scheduler.Finish: the last instants up to the horizon
	Encode              // the Response marshalled
	Send                // the answer written and flushed to the harness
	phases
)

var names = [phases]string{"wait", "decode", "hello", "feed", "events", "finish", "encode", "send"}

// EnvVar names the file the totals go to.
const EnvVar = "SCHEDCHECK_ADAPTER_PROFILE"

var (
	path    = os.Getenv(EnvVar)
	enabled = path != ""
	totals  [phases]time.Duration
	counts  [phases]int64
	runs    int64
)

// SetFile turns the profile on, writing to `file`, with every total at zero (tests; adapters read
// EnvVar at start).
func SetFile(file string) {
	path, enabled = file, file != ""
	totals, counts, runs = [phases]time.Duration{}, [phases]int64{}, 0
}

// CPUEnvVar names a file for a Go CPU profile of the whole process (go tool pprof), to see
// inside a phase.
const CPUEnvVar = "SCHEDCHECK_ADAPTER_CPUPROFILE"

// StartCPU starts the CPU profile when CPUEnvVar names a file; the returned function stops it.
func StartCPU() (stop func(), err error) {
	file := os.Getenv(CPUEnvVar)
	if file == "" {
		return func() {}, nil
	}
	f, err := os.Create(file)
	if err != nil {
		return func() {}, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return func() {}, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// Enabled reports whether the profile is being kept.
func Enabled() bool { return enabled }

// Now is the start of a measured span (the zero time when the profile is off).
func Now() time.Time {
	if !enabled {
		return time.Time{}
	}
	return time.Now()
}

// Add counts the span from `since` (a Now) to now in phase p.
func Add(p Phase, since time.Time) {
	if !enabled {
		return
	}
	totals[p] += time.Since(since)
	counts[p]++
}

// Run counts one replay (a Hello).
func Run() {
	if enabled {
		runs++
	}
}

// Write puts the totals into the file named by EnvVar: seconds per phase, calls per phase, the
// replays, the process's age at Serve's start (its start-up), its CPU seconds, and the Go
// runtime's estimates of CPU seconds in user Go code and in garbage collection. Nothing when the profile is off; errors are the caller's to
// report (the replay itself is not affected).
func Write(startup time.Duration) error {
	if !enabled {
		return nil
	}
	doc := map[string]any{"runs": runs, "startup_seconds": startup.Seconds()}
	seconds, calls := map[string]float64{}, map[string]int64{}
	for p := Phase(0); p < phases; p++ {
		seconds[names[p]] = totals[p].Seconds()
		calls[names[p]] = counts[p]
	}
	doc["seconds"], doc["calls"] = seconds, calls
	samples := []metrics.Sample{{Name: "/cpu/classes/user:cpu-seconds"}, {Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(samples)
	for i, key := range []string{"user_cpu_seconds", "gc_cpu_seconds"} {
		if samples[i].Value.Kind() == metrics.KindFloat64 {
			doc[key] = samples[i].Value.Float64()
		}
	}
	// The process's CPU time from the kernel (user and system, every thread): unlike wall time,
	// it hardly moves with the machine's load.
	var usage syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &usage) == nil {
		doc["process_cpu_seconds"] = time.Duration(usage.Utime.Nano() + usage.Stime.Nano()).Seconds()
	}
	text, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(text, '\n'), 0o644)
}

// ProcessAge is how long ago the process started, from /proc (10 ms steps), or 0 where /proc is
// missing: the start-up before Serve runs (the Go runtime and every package's init).
func ProcessAge() time.Duration {
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0
	}
	uptime, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return 0
	}
	// Field 22 (starttime, in clock ticks since boot) counts from after the command's ")".
	rest := string(stat)
	if i := strings.LastIndexByte(rest, ')'); i >= 0 {
		rest = rest[i+1:]
	}
	fields := strings.Fields(rest)
	up := strings.Fields(string(uptime))
	if len(fields) < 20 || len(up) < 1 {
		return 0
	}
	ticks, err1 := strconv.ParseFloat(fields[19], 64)
	now, err2 := strconv.ParseFloat(up[0], 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	const ticksPerSecond = 100 // USER_HZ on Linux
	age := now - ticks/ticksPerSecond
	if age < 0 {
		return 0
	}
	return time.Duration(age * float64(time.Second))
}
