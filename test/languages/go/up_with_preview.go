// `pulumi up` as users run it: one CLI process that previews, then updates
// once that preview succeeded. The Automation API's Stack.Up passes
// --skip-preview, so a driver that wanted both ran `pulumi preview` and then
// `pulumi up` (two CLI processes, two plugin starts, the program run in each);
// previewingCLI leaves the flag out instead. The CLI then streams each engine
// run's events on a stream of its own, and the Automation API's event server
// closes its channel when the first stream ends, so previewingCLI serves the
// events of an up, a refresh and a destroy itself: upLog reads them, those
// after the first prelude event the preview's, those after the second the
// update's. The `pulumi stack history` the Automation API runs after each of
// them only to read its change summary is answered from the engine's own
// summary event, and the stack's outputs after an up from the update's
// outputs event of the stack resource when it holds no signed value, as the
// Python driver does (workspace_shortcuts.py).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"strings"
	"sync"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// previewingCLI is a CLI whose `up` previews before it updates, its events read into up.
type previewingCLI struct {
	cli auto.PulumiCommand
	up  *upLog
}

func (c previewingCLI) Version() semver.Version { return c.cli.Version() }

func (c previewingCLI) Run(ctx context.Context, workdir string, stdin io.Reader, additionalOutput []io.Writer, additionalErrorOutput []io.Writer, additionalEnv []string, args ...string) (string, string, int, error) {
	if len(args) >= 2 && args[0] == "stack" && args[1] == "history" {
		if history, ok := c.up.history(); ok {
			return history, "", 0, nil
		}
	}
	if len(args) == 0 || (args[0] != "up" && args[0] != "refresh" && args[0] != "destroy") {
		return c.cli.Run(ctx, workdir, stdin, additionalOutput, additionalErrorOutput, additionalEnv, args...)
	}
	kept := make([]string, 0, len(args)+2)
	for _, arg := range args {
		if args[0] != "up" || arg != "--skip-preview" {
			kept = append(kept, arg)
		}
	}
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", "", -2, err
	}
	server := grpc.NewServer()
	pulumirpc.RegisterEventsServer(server, eventsServer{log: c.up})
	go func() { _ = server.Serve(listener) }()
	// Every stream has ended once the CLI has; GracefulStop returns after their handlers did.
	defer server.GracefulStop()
	return c.cli.Run(ctx, workdir, stdin, additionalOutput, additionalErrorOutput, additionalEnv, append(kept, "--event-log", "tcp://"+listener.Addr().String())...)
}

// eventsServer passes every event of every stream the CLI opens to log.
type eventsServer struct {
	pulumirpc.UnimplementedEventsServer
	log *upLog
}

func (s eventsServer) StreamEvents(stream pulumirpc.Events_StreamEventsServer) error {
	for {
		request, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return stream.SendAndClose(&emptypb.Empty{})
		}
		if err != nil {
			return err
		}
		var event apitype.EngineEvent
		if err := json.Unmarshal([]byte(request.GetEvent()), &event); err != nil {
			return err
		}
		s.log.record(event)
	}
}

// upLog is what one `pulumi up` did to each Agent in its preview and in its update, and its preview's change summary.
type upLog struct {
	mu       sync.Mutex
	preview  map[string][]string
	update   map[string][]string
	preludes int
	summary  map[string]int
	// The preview's change summary, set once the update started (nil when the preview failed).
	previewSummary map[string]int
	// The change summary of the last engine run (an up's update, a refresh, a destroy); nil before one ended.
	lastSummary map[string]int
	// The stack's outputs as the last engine run's outputs event of the stack resource sent them, when they hold no signed value.
	outputs map[string]any
}

func newUpLog() *upLog {
	return &upLog{preview: map[string][]string{}, update: map[string][]string{}}
}

func (l *upLog) record(e apitype.EngineEvent) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case e.PreludeEvent != nil:
		l.preludes++
		// A new engine run (an up's update after its preview): only its own outputs count.
		l.outputs = nil
		if l.preludes == 2 {
			l.previewSummary = l.summary
		}
	case e.SummaryEvent != nil:
		changes := map[string]int{}
		for op, n := range e.SummaryEvent.ResourceChanges {
			changes[string(op)] = n
		}
		if l.preludes == 1 {
			l.summary = changes
		}
		l.lastSummary = changes
	case e.ResOutputsEvent != nil && !e.ResOutputsEvent.Planning && e.ResOutputsEvent.Metadata.Type == "pulumi:pulumi:Stack" && e.ResOutputsEvent.Metadata.New != nil:
		if outputs := e.ResOutputsEvent.Metadata.New.Outputs; plain(outputs) {
			l.outputs = outputs
			if l.outputs == nil {
				l.outputs = map[string]any{}
			}
		}
	case e.ResourcePreEvent != nil && strings.HasSuffix(e.ResourcePreEvent.Metadata.Type, ":Agent"):
		meta := e.ResourcePreEvent.Metadata
		ops := l.preview
		if l.preludes >= 2 {
			ops = l.update
		}
		ops[meta.URN] = append(ops[meta.URN], string(meta.Op))
	}
}

// history is `pulumi stack history --json` of the last engine run as the Automation API reads it (its change summary), once one ended.
func (l *upLog) history() (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.lastSummary == nil {
		return "", false
	}
	text, err := json.Marshal([]auto.UpdateSummary{{Result: "succeeded", ResourceChanges: &l.lastSummary}})
	return string(text), err == nil
}

// stackOutputs is the stack's outputs from the last engine run's event, once one sent them.
func (l *upLog) stackOutputs() (map[string]any, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.outputs, l.outputs != nil
}

// signature is the key that marks a signed value (a secret, an asset, a resource) in the engine's events.
const signature = "4dabf18193072939515e22adb298388d"

// plain is whether an engine event's value holds no signed value: `pulumi stack output --json` prints it as is.
func plain(value any) bool {
	switch v := value.(type) {
	case []any:
		for _, item := range v {
			if !plain(item) {
				return false
			}
		}
	case map[string]any:
		if _, signed := v[signature]; signed {
			return false
		}
		for _, item := range v {
			if !plain(item) {
				return false
			}
		}
	}
	return true
}
