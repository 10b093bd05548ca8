// The CLI calls Pulumi's Go Automation API makes around an operation that
// change nothing the operation does, left out when what they would find is
// already known; the same shortcuts as scripts/lib/workspace-shortcuts.mjs
// (read it for why):
//
//   - `pulumi version`, when AGENT_HOSTING_PULUMI_CLI_VERSION (set once by the
//     test suite's global setup) names the CLI's version: knownCLI runs the
//     CLI as the Automation API's own command does, without asking;
//   - `pulumi stack select`, when the stack's checkpoint exists in the file
//     backend (every command names its stack with --stack), and before the
//     `pulumi stack init` of a stack that does not;
//   - `pulumi config set-all`, when the same values were set by the last call
//     and the stack's config file is unchanged since (a digest is kept, never
//     the values: they hold the API key);
//   - after an up, the masked outputs beside the shown ones (this driver
//     reports the values, never whether they are secret), and the shown ones
//     too when the update's outputs event of the stack resource holds them
//     with no signed value (up_with_preview.go);
//   - after an up, a refresh or a destroy, the history entry: the engine's
//     summary event holds the change summary (up_with_preview.go).
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// knownCLI is `pulumi` on PATH at a version already known.
type knownCLI struct{ version semver.Version }

func (c knownCLI) Version() semver.Version { return c.version }

// Run runs the CLI as the Automation API's command does: non-interactive, in workdir, with the
// process's environment and additionalEnv, both streams kept and also written to the writers given.
func (c knownCLI) Run(ctx context.Context, workdir string, stdin io.Reader, additionalOutput []io.Writer, additionalErrorOutput []io.Writer, additionalEnv []string, args ...string) (string, string, int, error) {
	cmd := exec.CommandContext(ctx, "pulumi", append([]string{"--non-interactive"}, args...)...)
	cmd.Dir = workdir
	cmd.Env = append(append(os.Environ(), additionalEnv...), "PULUMI_AUTOMATION_API=true")
	var stdout, stderr bytes.Buffer
	cmd.Stdout = io.MultiWriter(append(additionalOutput, &stdout)...)
	cmd.Stderr = io.MultiWriter(append(additionalErrorOutput, &stderr)...)
	cmd.Stdin = stdin
	code := -2
	err := cmd.Run()
	if exitError, ok := err.(*exec.ExitError); ok {
		code = exitError.ExitCode()
	} else if err == nil {
		code = 0
	}
	return stdout.String(), stderr.String(), code, err
}

// cliCommand is the CLI for the Automation API: knownCLI when the environment names its version.
func cliCommand() (auto.PulumiCommand, error) {
	known := os.Getenv("AGENT_HOSTING_PULUMI_CLI_VERSION")
	if known == "" {
		return auto.NewPulumiCommand(&auto.PulumiCommandOptions{SkipVersionCheck: true})
	}
	version, err := semver.Parse(known)
	if err != nil {
		return nil, err
	}
	return knownCLI{version: version}, nil
}

// shortcutWorkspace is a LocalWorkspace that leaves out the calls above.
type shortcutWorkspace struct {
	auto.Workspace
	workDir string
	up      *upLog
}

// SelectStack is called only for a stack that exists (openStack), and every command names its stack.
func (w shortcutWorkspace) SelectStack(context.Context, string) error { return nil }

// SetAllConfig sets config unless the last call here set the same values and Pulumi.<stack>.yaml is as it left it.
func (w shortcutWorkspace) SetAllConfig(ctx context.Context, stackName string, config auto.ConfigMap) error {
	configFile := filepath.Join(w.workDir, "Pulumi."+stackName+".yaml")
	recordFile := filepath.Join(w.workDir, ".config-set-"+stackName+".json")
	values, err := json.Marshal(config)
	if err != nil {
		return err
	}
	wanted := digest(values)
	type record struct {
		Config string `json:"config"`
		File   string `json:"file"`
	}
	if text, err := os.ReadFile(recordFile); err == nil {
		var last record
		if json.Unmarshal(text, &last) == nil && last.Config == wanted && last.File == fileDigest(configFile) {
			return nil
		}
	}
	if err := w.Workspace.SetAllConfig(ctx, stackName, config); err != nil {
		return err
	}
	text, err := json.Marshal(record{Config: wanted, File: fileDigest(configFile)})
	if err != nil {
		return err
	}
	return os.WriteFile(recordFile, text, 0o600)
}

// StackOutputs takes the outputs the update sent plain (up_with_preview.go), else reads the shown ones once, leaving out the masked read that tells which are secret.
func (w shortcutWorkspace) StackOutputs(ctx context.Context, stackName string) (auto.OutputMap, error) {
	if sent, ok := w.up.stackOutputs(); ok {
		outputs := auto.OutputMap{}
		for k, v := range sent {
			outputs[k] = auto.OutputValue{Value: v}
		}
		return outputs, nil
	}
	stdout, stderr, _, err := w.PulumiCommand().Run(ctx, w.workDir, nil, nil, nil, w.envList(), "stack", "output", "--json", "--show-secrets", "--stack", stackName)
	if err != nil {
		return nil, fmt.Errorf("pulumi stack output: %w: %s", err, stderr)
	}
	var shown map[string]any
	if err := json.Unmarshal([]byte(stdout), &shown); err != nil {
		return nil, err
	}
	outputs := auto.OutputMap{}
	for k, v := range shown {
		outputs[k] = auto.OutputValue{Value: v}
	}
	return outputs, nil
}

func (w shortcutWorkspace) envList() []string {
	var env []string
	for k, v := range w.GetEnvVars() {
		env = append(env, k+"="+v)
	}
	return env
}

func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func fileDigest(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return digest(data)
}

// stackExists reports whether the file backend of PULUMI_BACKEND_URL holds a checkpoint of the project's stack.
func stackExists(project, stack string) bool {
	backend, err := url.Parse(os.Getenv("PULUMI_BACKEND_URL"))
	if err != nil || backend.Scheme != "file" {
		return false
	}
	base := filepath.Join(backend.Path, ".pulumi", "stacks", project, stack)
	for _, path := range []string{base + ".json", base + ".json.gz"} {
		if _, err := os.Stat(path); err == nil {
			return true
		}
	}
	return false
}

// openStack selects the stack of the inline program in workDir, or creates it, as
// auto.UpsertStackInlineSource does, through a shortcutWorkspace whose `up` previews first into up (up_with_preview.go).
func openStack(ctx context.Context, stackName, projectName string, program pulumi.RunFunc, workDir string, up *upLog) (auto.Stack, error) {
	cli, err := cliCommand()
	if err != nil {
		return auto.Stack{}, err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return auto.Stack{}, err
	}
	project := workspace.Project{Name: tokens.PackageName(projectName), Runtime: workspace.NewProjectRuntimeInfo("go", nil), Main: cwd}
	local, err := auto.NewLocalWorkspace(ctx, auto.Program(program), auto.WorkDir(workDir), auto.Project(project), auto.Pulumi(previewingCLI{cli: cli, up: up}))
	if err != nil {
		return auto.Stack{}, err
	}
	ws := shortcutWorkspace{Workspace: local, workDir: workDir, up: up}
	if stackExists(projectName, stackName) {
		return auto.SelectStack(ctx, stackName, ws)
	}
	return auto.NewStack(ctx, stackName, ws)
}
