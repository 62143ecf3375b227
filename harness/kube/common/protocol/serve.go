package protocol

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"schedcheck.local/kube/common/pb"
	"schedcheck.local/kube/common/profile"
)

// Scheduler is one replay run behind the protocol. Hello starts it; Events and Finish advance
// virtual time and return the decisions made meanwhile. An error becomes a ChildError.
type Scheduler interface {
	Hello(*pb.Hello) (*pb.HelloAck, error)
	Events(*pb.Events) (*pb.Decisions, error)
	Finish(*pb.Finish) (*pb.Decisions, error)
}

// Factory makes a fresh Scheduler for each run. A Hello after a Finish starts a new run in the
// same process (the harness reuses one child for many traces).
type Factory func() Scheduler

// Serve answers requests from r on w until r ends. It returns nil on a clean end of input, and
// an error (already reported to the harness as ChildError where possible) otherwise.
func Serve(r io.Reader, w io.Writer, newScheduler Factory) error {
	startup := profile.ProcessAge()
	stopCPU, err := profile.StartCPU()
	if err != nil {
		fmt.Fprintln(os.Stderr, "adapter CPU profile:", err)
	}
	defer stopCPU()
	in := bufio.NewReaderSize(r, 1<<20)
	out := bufio.NewWriterSize(w, 1<<20)
	var current Scheduler
	finished := true
	for index := 1; ; index++ {
		req, err := readTimed(in)
		if errors.Is(err, io.EOF) {
			if perr := profile.Write(startup); perr != nil {
				fmt.Fprintln(os.Stderr, "adapter profile:", perr)
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("request %d: %w", index, err)
		}
		resp, fatal := answer(req, &current, &finished, newScheduler)
		if werr := WriteResponse(out, resp); werr != nil {
			return fmt.Errorf("request %d: writing the answer: %w", index, werr)
		}
		if fatal != nil {
			return fmt.Errorf("request %d: %w", index, fatal)
		}
	}
}

// readTimed is ReadRequest with the wait for the request's first byte (the harness's turn) and
// the rest of the read and decoding profiled apart.
func readTimed(in *bufio.Reader) (*pb.Request, error) {
	if !profile.Enabled() {
		return ReadRequest(in)
	}
	start := profile.Now()
	_, _ = in.Peek(1) // blocks until the harness sends; errors come again from ReadRequest
	profile.Add(profile.Wait, start)
	start = profile.Now()
	req, err := ReadRequest(in)
	profile.Add(profile.Decode, start)
	return req, err
}

func answer(req *pb.Request, current *Scheduler, finished *bool, newScheduler Factory) (*pb.Response, error) {
	childError := func(err error) (*pb.Response, error) {
		return &pb.Response{Body: &pb.Response_Error{Error: &pb.ChildError{Message: err.Error()}}}, err
	}
	decisions := func(d *pb.Decisions, err error) (*pb.Response, error) {
		if err != nil {
			return childError(err)
		}
		return &pb.Response{Body: &pb.Response_Decisions{Decisions: d}}, nil
	}
	switch body := req.Body.(type) {
	case *pb.Request_Hello:
		if body.Hello.GetProtocolVersion() != Version {
			ack := &pb.HelloAck{ProtocolVersion: Version, SchedulerName: "kube-scheduler-adapter"}
			return &pb.Response{Body: &pb.Response_HelloAck{HelloAck: ack}},
				fmt.Errorf("protocol version mismatch: the harness speaks %d, this adapter %d", body.Hello.GetProtocolVersion(), Version)
		}
		if !*finished {
			return childError(errors.New("Hello before the previous run's Finish"))
		}
		*current = newScheduler()
		profile.Run()
		start := profile.Now()
		ack, err := (*current).Hello(body.Hello)
		profile.Add(profile.Hello, start)
		if err != nil {
			return childError(err)
		}
		*finished = false
		ack.ProtocolVersion = Version
		return &pb.Response{Body: &pb.Response_HelloAck{HelloAck: ack}}, nil
	case *pb.Request_Events:
		if *current == nil || *finished {
			return childError(errors.New("Events before Hello"))
		}
		start := profile.Now()
		defer profile.Add(profile.Events, start)
		return decisions((*current).Events(body.Events))
	case *pb.Request_Finish:
		if *current == nil || *finished {
			return childError(errors.New("Finish before Hello"))
		}
		*finished = true
		start := profile.Now()
		defer profile.Add(profile.Finish, start)
		return decisions((*current).Finish(body.Finish))
	default:
		return childError(errors.New("empty Request"))
	}
}
