// Package protocol is the child side of the external-scheduler protocol
// (harness/protocol/PROTOCOL.md): length-delimited frames on stdin/stdout, one Response per
// Request, and the loop that hands each request to a Scheduler.
package protocol

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"google.golang.org/protobuf/proto"

	"schedcheck.local/kube/common/pb"
	"schedcheck.local/kube/common/profile"
)

// Version is the protocol version this package speaks (PROTOCOL.md "Versioning").
const Version = 1

// MaxFrameBytes bounds a frame's payload, as kMaxFrameBytes does on the harness side.
const MaxFrameBytes = 64 << 20

// ReadRequest reads one frame and parses it. It returns io.EOF when the input ends cleanly
// between frames.
func ReadRequest(r io.Reader) (*pb.Request, error) {
	var header [4]byte
	if _, err := io.ReadFull(r, header[:]); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("truncated frame header: %w", err)
	}
	n := binary.LittleEndian.Uint32(header[:])
	if n > MaxFrameBytes {
		return nil, fmt.Errorf("frame length %d exceeds the maximum of %d bytes", n, MaxFrameBytes)
	}
	payload := make([]byte, n)
	if _, err := io.ReadFull(r, payload); err != nil {
		return nil, fmt.Errorf("truncated frame: %d bytes announced: %w", n, err)
	}
	req := &pb.Request{}
	if err := proto.Unmarshal(payload, req); err != nil {
		return nil, fmt.Errorf("unparseable Request (%d bytes): %w", n, err)
	}
	return req, nil
}

// WriteResponse writes one frame and flushes it.
func WriteResponse(w *bufio.Writer, resp *pb.Response) error {
	start := profile.Now()
	payload, err := proto.MarshalOptions{Deterministic: true}.Marshal(resp)
	profile.Add(profile.Encode, start)
	if err != nil {
		return err
	}
	defer profile.Add(profile.Send, profile.Now())
	if len(payload) > MaxFrameBytes {
		return fmt.Errorf("response of %d bytes exceeds the frame maximum", len(payload))
	}
	var header [4]byte
	binary.LittleEndian.PutUint32(header[:], uint32(len(payload)))
	if _, err := w.Write(header[:]); err != nil {
		return err
	}
	if _, err := w.Write(payload); err != nil {
		return err
	}
	return w.Flush()
}
