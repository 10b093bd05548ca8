// The Go side of the language tests: one stack operation on an inline Go
// program that uses the generated Go SDK (sdk/go), through the Automation API
// (github.com/pulumi/pulumi/sdk/v3/go/auto) and the real pulumi CLI.
//
// Usage: go-stack <up|preview|refresh|destroy> <work-dir> <params-json>
// Prints one JSON line: { ok, op, changeSummary, outputs, error, engineOutput,
// agentOperations, previewChangeSummary }; `up` previews first, as `pulumi up` does.
// The program is described by the params (see programParams); the stack's
// backend, passphrase and PULUMI_HOME come from the environment.
// The protocol (operations, params, answer) of every stack driver is written
// down once, in test/support/stack-driver.ts; this driver speaks it.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/agent-hosting/pulumi-agent-hosting/sdk/go/agenthosting"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

type providerParams struct {
	APIKey  string `json:"apiKey"`
	BaseURL string `json:"baseUrl"`
}

type scalingParams struct {
	MinAgents int `json:"minAgents"`
	MaxAgents int `json:"maxAgents"`
}

type agentParams struct {
	// Resource name in the program.
	Name        string         `json:"name"`
	ServiceName string         `json:"serviceName"`
	Image       string         `json:"image"`
	EnableNoise *bool          `json:"enableNoise,omitempty"`
	SecretSet   *string        `json:"secretSet,omitempty"`
	AutoScaling *scalingParams `json:"autoScaling,omitempty"`
	// Seconds to wait for readiness before the step fails (the agent stays in state).
	ReadyTimeoutSeconds *float64 `json:"readyTimeoutSeconds,omitempty"`
	// Explicit provider (a key of programParams.Providers); empty for the default provider.
	Provider string `json:"provider,omitempty"`
	// Adopt this existing agent (the `import` resource option).
	Import string `json:"import,omitempty"`
	// Export the Output-form functions of this agent: its logs' count and its secret set's fields.
	Reads bool `json:"reads,omitempty"`
}

type programParams struct {
	Config     map[string]auto.ConfigValue `json:"config"`
	Providers  map[string]providerParams   `json:"providers"`
	Agents     []agentParams               `json:"agents"`
	SecretSets []string                    `json:"secretSets"`
}

type result struct {
	OK            bool           `json:"ok"`
	Op            string         `json:"op"`
	ChangeSummary map[string]int `json:"changeSummary"`
	Outputs       map[string]any `json:"outputs"`
	Error         string         `json:"error,omitempty"`
	EngineOutput  string         `json:"engineOutput"`
	// For up: what its preview and its update did to each agent.
	AgentOperations map[string]map[string][]string `json:"agentOperations,omitempty"`
	// For up: the change summary of the preview it ran first.
	PreviewChangeSummary map[string]int `json:"previewChangeSummary,omitempty"`
}

// readmeProgram, when set (by a README block built beside this file), is the program run instead of the params'.
var readmeProgram pulumi.RunFunc

func program(p programParams) pulumi.RunFunc {
	if readmeProgram != nil {
		return readmeProgram
	}
	return func(ctx *pulumi.Context) error {
		providers := map[string]*agenthosting.Provider{}
		for name, settings := range p.Providers {
			provider, err := agenthosting.NewProvider(ctx, name, &agenthosting.ProviderArgs{
				ApiKey:  pulumi.StringPtr(settings.APIKey),
				BaseUrl: pulumi.StringPtr(settings.BaseURL),
			})
			if err != nil {
				return err
			}
			providers[name] = provider
		}
		for _, a := range p.Agents {
			args := &agenthosting.AgentArgs{
				ServiceName: pulumi.String(a.ServiceName),
				Image:       pulumi.String(a.Image),
			}
			if a.EnableNoise != nil {
				args.EnableNoise = pulumi.BoolPtr(*a.EnableNoise)
			}
			if a.SecretSet != nil {
				args.SecretSet = pulumi.StringPtr(*a.SecretSet)
			}
			if a.ReadyTimeoutSeconds != nil {
				args.ReadyTimeoutSeconds = pulumi.Float64Ptr(*a.ReadyTimeoutSeconds)
			}
			if a.AutoScaling != nil {
				args.AutoScaling = agenthosting.AgentAutoScalingArgs{
					MinAgents: pulumi.Int(a.AutoScaling.MinAgents),
					MaxAgents: pulumi.Int(a.AutoScaling.MaxAgents),
				}
			}
			var opts []pulumi.ResourceOption
			if a.Provider != "" {
				opts = append(opts, pulumi.Provider(providers[a.Provider]))
			}
			if a.Import != "" {
				opts = append(opts, pulumi.Import(pulumi.ID(a.Import)))
			}
			agent, err := agenthosting.NewAgent(ctx, a.Name, args, opts...)
			if err != nil {
				return err
			}
			ctx.Export(a.Name+".id", agent.ID())
			ctx.Export(a.Name+".activeDeploymentId", agent.ActiveDeploymentId)
			ctx.Export(a.Name+".manifest", agent.Manifest)
			ctx.Export(a.Name+".image", agent.Image)
			ctx.Export(a.Name+".ready", agent.Ready)
			if a.Reads {
				logs := agenthosting.GetAgentLogsOutput(ctx, agenthosting.GetAgentLogsOutputArgs{AgentName: agent.Name, Limit: pulumi.IntPtr(5)})
				ctx.Export(a.Name+".logCount", logs.Logs().ApplyT(func(l []agenthosting.LogEntry) int { return len(l) }))
				set := agenthosting.GetSecretSetOutput(ctx, agenthosting.GetSecretSetOutputArgs{Name: agent.SecretSet.Elem()})
				ctx.Export(a.Name+".secretFields", set.FieldNames())
			}
		}
		for _, name := range p.SecretSets {
			set, err := agenthosting.GetSecretSet(ctx, &agenthosting.GetSecretSetArgs{Name: name})
			if err != nil {
				return err
			}
			ctx.Export("secretSet."+name, pulumi.ToStringArray(set.FieldNames))
		}
		return nil
	}
}

func summary(changes *map[string]int) map[string]int {
	if changes == nil {
		return map[string]int{}
	}
	return *changes
}

func run(op, workDir string, p programParams) result {
	ctx := context.Background()
	res := result{Op: op, ChangeSummary: map[string]int{}, Outputs: map[string]any{}}
	up := newUpLog()
	stack, err := openStack(ctx, "dev", "agent-hosting-go", program(p), workDir, up)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	if len(p.Config) > 0 {
		if err := stack.SetAllConfig(ctx, auto.ConfigMap(p.Config)); err != nil {
			res.Error = err.Error()
			return res
		}
	}
	var out bytes.Buffer
	switch op {
	case "up":
		// `pulumi up` previews first and updates only after that preview succeeded (up_with_preview.go);
		// the caller compares what each did to the agents.
		r, e := stack.Up(ctx, optup.ProgressStreams(&out), optup.ErrorProgressStreams(&out))
		res.AgentOperations = map[string]map[string][]string{"preview": up.preview, "update": up.update}
		res.PreviewChangeSummary = up.previewSummary
		err = e
		res.ChangeSummary = summary(r.Summary.ResourceChanges)
		for k, v := range r.Outputs {
			res.Outputs[k] = v.Value
		}
	case "preview":
		r, e := stack.Preview(ctx, optpreview.ProgressStreams(&out), optpreview.ErrorProgressStreams(&out), optpreview.Diff())
		err = e
		for k, v := range r.ChangeSummary {
			res.ChangeSummary[string(k)] = v
		}
	case "refresh":
		r, e := stack.Refresh(ctx, optrefresh.ProgressStreams(&out), optrefresh.ErrorProgressStreams(&out))
		err = e
		res.ChangeSummary = summary(r.Summary.ResourceChanges)
	case "destroy":
		r, e := stack.Destroy(ctx, optdestroy.ProgressStreams(&out), optdestroy.ErrorProgressStreams(&out))
		err = e
		res.ChangeSummary = summary(r.Summary.ResourceChanges)
	default:
		err = fmt.Errorf("unknown operation %q: expected up, preview, refresh or destroy", op)
	}
	res.EngineOutput = out.String()
	if err != nil {
		res.Error = err.Error()
		return res
	}
	res.OK = true
	return res
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: go-stack <up|preview|refresh|destroy> <work-dir> <params-json>")
		os.Exit(2)
	}
	var p programParams
	if err := json.Unmarshal([]byte(os.Args[3]), &p); err != nil {
		fmt.Fprintln(os.Stderr, "go-stack: params:", err)
		os.Exit(2)
	}
	line, _ := json.Marshal(run(os.Args[1], os.Args[2], p))
	fmt.Println(string(line))
}
