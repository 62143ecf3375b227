package protocol

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"schedcheck.local/kube/common/pb"
	"schedcheck.local/kube/common/profile"
)

// countingScheduler answers every request and counts what it saw.
type countingScheduler struct{ events, finishes *int }

func (s countingScheduler) Hello(h *pb.Hello) (*pb.HelloAck, error) {
	if h.GetCompat() == "bad" {
		return nil, errors.New("compat bad")
	}
	return &pb.HelloAck{SchedulerName: "test"}, nil
}
func (s countingScheduler) Events(*pb.Events) (*pb.Decisions, error) {
	*s.events++
	return &pb.Decisions{}, nil
}
func (s countingScheduler) Finish(*pb.Finish) (*pb.Decisions, error) {
	*s.finishes++
	return &pb.Decisions{}, nil
}

func frames(t *testing.T, reqs ...*pb.Request) *bytes.Buffer {
	var buf bytes.Buffer
	for _, r := range reqs {
		payload, err := proto.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var n [4]byte
		binary.LittleEndian.PutUint32(n[:], uint32(len(payload)))
		buf.Write(n[:])
		buf.Write(payload)
	}
	return &buf
}

func responses(t *testing.T, out *bytes.Buffer) []*pb.Response {
	var got []*pb.Response
	r := bufio.NewReader(out)
	for {
		var n [4]byte
		if _, err := r.Read(n[:]); err != nil {
			return got
		}
		payload := make([]byte, binary.LittleEndian.Uint32(n[:]))
		if _, err := r.Read(payload); err != nil {
			t.Fatal(err)
		}
		resp := &pb.Response{}
		if err := proto.Unmarshal(payload, resp); err != nil {
			t.Fatal(err)
		}
		got = append(got, resp)
	}
}

func hello(compat string) *pb.Request {
	return &pb.Request{Body: &pb.Request_Hello{Hello: &pb.Hello{ProtocolVersion: Version, Compat: compat}}}
}

var (
	events = &pb.Request{Body: &pb.Request_Events{Events: &pb.Events{TimeNs: 1}}}
	finish = &pb.Request{Body: &pb.Request_Finish{Finish: &pb.Finish{EndNs: 2}}}
)

func TestServeRunsSeveralRunsInOneProcess(t *testing.T) {
	var nEvents, nFinishes, made int
	factory := func() Scheduler { made++; return countingScheduler{&nEvents, &nFinishes} }
	var out bytes.Buffer
	if err := Serve(frames(t, hello(""), events, finish, hello(""), events, events, finish), &out, factory); err != nil {
		t.Fatal(err)
	}
	got := responses(t, &out)
	if len(got) != 7 || made != 2 || nEvents != 3 || nFinishes != 2 {
		t.Fatalf("%d responses, %d runs, %d events, %d finishes", len(got), made, nEvents, nFinishes)
	}
	if got[3].GetHelloAck().GetProtocolVersion() != Version {
		t.Errorf("second HelloAck: %v", got[3])
	}
}

func TestServeAnswersChildErrorAndStops(t *testing.T) {
	cases := map[string][]*pb.Request{
		"Events before Hello":                    {events},
		"Hello before the previous run's Finish": {hello(""), hello("")},
		"compat bad":                             {hello("bad")},
	}
	for want, reqs := range cases {
		var n1, n2 int
		var out bytes.Buffer
		err := Serve(frames(t, append(reqs, finish)...), &out, func() Scheduler { return countingScheduler{&n1, &n2} })
		got := responses(t, &out)
		last := got[len(got)-1]
		if err == nil || !strings.Contains(last.GetError().GetMessage(), want) {
			t.Errorf("%s: err %v, last answer %v", want, err, last)
		}
	}
}

func TestReadRequestRejectsHugeFramesBeforeAllocating(t *testing.T) {
	_, err := ReadRequest(strings.NewReader("text on stdin"))
	if err == nil || !strings.Contains(err.Error(), "exceeds the maximum") {
		t.Errorf("got %v", err)
	}
}

func TestServeWritesTheProfileWhenAsked(t *testing.T) {
	file := t.TempDir() + "/profile.json"
	profile.SetFile(file)
	defer profile.SetFile("")
	var n1, n2 int
	var out bytes.Buffer
	if err := Serve(frames(t, hello(""), events, events, finish, hello(""), finish), &out, func() Scheduler { return countingScheduler{&n1, &n2} }); err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs    int64              `json:"runs"`
		Calls   map[string]int64   `json:"calls"`
		Seconds map[string]float64 `json:"seconds"`
		CPU     float64            `json:"process_cpu_seconds"`
	}
	if err := json.Unmarshal(text, &doc); err != nil {
		t.Fatalf("%v: %s", err, text)
	}
	// Six requests answered; the reads (a wait and a decode each) are one more: the end of input.
	want := map[string]int64{"hello": 2, "events": 2, "finish": 2, "feed": 0, "decode": 7, "encode": 6, "send": 6, "wait": 7}
	for phase, n := range want {
		if doc.Calls[phase] != n {
			t.Errorf("calls[%s] = %d, want %d (%s)", phase, doc.Calls[phase], n, text)
		}
		if doc.Seconds[phase] < 0 {
			t.Errorf("seconds[%s] = %g", phase, doc.Seconds[phase])
		}
	}
	if doc.Runs != 2 || doc.CPU <= 0 {
		t.Errorf("runs %d, cpu %g: %s", doc.Runs, doc.CPU, text)
	}
}

func TestServeWritesNoProfileByDefault(t *testing.T) {
	profile.SetFile("")
	var n1, n2 int
	var out bytes.Buffer
	if err := Serve(frames(t, hello(""), finish), &out, func() Scheduler { return countingScheduler{&n1, &n2} }); err != nil {
		t.Fatal(err)
	}
	if profile.Enabled() {
		t.Error("profile on without a file")
	}
}
