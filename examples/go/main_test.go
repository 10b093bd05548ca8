package main

import (
	"strings"
	"sync"
	"testing"

	"github.com/agent-hosting/pulumi-agent-hosting/sdk/go/agenthosting"
	"github.com/agent-hosting/pulumi-agent-hosting/sdk/go/agenthostingtest"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// recorded keeps the outputs the mocks gave each resource, by name, for the test to read.
type recorded struct {
	*agenthostingtest.Mocks
	mu      sync.Mutex
	outputs map[string]resource.PropertyMap
}

func (r *recorded) NewResource(args pulumi.MockResourceArgs) (string, resource.PropertyMap, error) {
	id, state, err := r.Mocks.NewResource(args)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.outputs[args.Name] = state
	return id, state, err
}

func newMocks() *recorded {
	return &recorded{
		Mocks: &agenthostingtest.Mocks{
			SecretSets: map[string][]string{"voice-bot-secrets": {"OPENAI_API_KEY", "SIP_PASSWORD"}},
			Logs:       map[string][]agenthostingtest.LogLine{"voice-bot": {{Log: "Starting container agent"}, {Log: "Agent ready: accepting sessions"}}},
		},
		outputs: map[string]resource.PropertyMap{},
	}
}

// The program runs against mocks that answer as the service does: nothing is created, no account is needed.
func TestVoiceAgentIsReadyAndKeepsOneAgentRunning(t *testing.T) {
	mocks := newMocks()
	if err := pulumi.RunErr(voiceAgent, pulumi.WithMocks("example", "dev", mocks)); err != nil {
		t.Fatal(err)
	}
	bot := mocks.outputs["voice-bot"]
	if !bot["ready"].BoolValue() || bot["name"].StringValue() != "voice-bot" {
		t.Errorf("want a ready agent named voice-bot, got %v", bot)
	}
	if !strings.HasPrefix(bot["activeDeploymentId"].StringValue(), "dep-") {
		t.Errorf("want a deployment id, got %v", bot["activeDeploymentId"])
	}
	scaling := bot["manifest"].ObjectValue()["spec"].ObjectValue()["autoScaling"].ObjectValue()
	if scaling["minReplicas"].NumberValue() < 1 {
		t.Errorf("want at least one agent kept running, got %v", scaling)
	}
}

func TestTheMocksRefuseARequiredSecretTheSetLacks(t *testing.T) {
	err := pulumi.RunErr(func(ctx *pulumi.Context) error {
		_, err := agenthosting.NewAgent(ctx, "strict-bot", &agenthosting.AgentArgs{
			ServiceName:     pulumi.String("strict-bot"),
			Image:           pulumi.String("registry.example.com/voice-bot:1.4.2"),
			SecretSet:       pulumi.String("voice-bot-secrets"),
			RequiredSecrets: pulumi.StringArray{pulumi.String("TWILIO_TOKEN")},
		})
		return err
	}, pulumi.WithMocks("example", "dev", newMocks()))
	if err == nil || !strings.Contains(err.Error(), `secret set "voice-bot-secrets" lacks the field TWILIO_TOKEN`) {
		t.Fatalf("want the preview's refusal, got %v", err)
	}
}

func TestTheMocksRefuseAServiceNameWithCapitals(t *testing.T) {
	err := pulumi.RunErr(func(ctx *pulumi.Context) error {
		_, err := agenthosting.NewAgent(ctx, "capital-bot", &agenthosting.AgentArgs{
			ServiceName: pulumi.String("Voice-Bot"),
			Image:       pulumi.String("registry.example.com/voice-bot:1.4.2"),
		})
		return err
	}, pulumi.WithMocks("example", "dev", newMocks()))
	if err == nil || !strings.Contains(err.Error(), "serviceName: must match ^[a-z0-9]") {
		t.Fatalf("want the preview's refusal, got %v", err)
	}
}

func TestASecretImageKeepsTheManifestSecret(t *testing.T) {
	mocks := newMocks()
	err := pulumi.RunErr(func(ctx *pulumi.Context) error {
		_, err := agenthosting.NewAgent(ctx, "private-bot", &agenthosting.AgentArgs{
			ServiceName: pulumi.String("private-bot"),
			Image:       pulumi.ToSecret(pulumi.String("registry.example.com/private-bot:2.0.0")).(pulumi.StringOutput),
		})
		return err
	}, pulumi.WithMocks("example", "dev", mocks))
	if err != nil {
		t.Fatal(err)
	}
	private := mocks.outputs["private-bot"]
	if !private["manifest"].IsSecret() || !private["deployment"].IsSecret() || private["ready"].IsSecret() {
		t.Errorf("want the manifest and deployment secret, got %v", private)
	}
}
