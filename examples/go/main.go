package main

import (
	"fmt"

	"github.com/agent-hosting/pulumi-agent-hosting/sdk/go/agenthosting"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(voiceAgent)
}

// voiceAgent declares the program's resources; main_test.go runs it under the package's mocks.
func voiceAgent(ctx *pulumi.Context) error {
	// The field names of the secret set the agent loads (its values are never returned).
	secrets := agenthosting.GetSecretSetOutput(ctx, agenthosting.GetSecretSetOutputArgs{
		Name: pulumi.String("voice-bot-secrets"),
	})
	bot, err := agenthosting.NewAgent(ctx, "voice-bot", &agenthosting.AgentArgs{
		ServiceName: pulumi.String("voice-bot"),
		Image:       pulumi.String("registry.example.com/voice-bot:1.4.2"),
		SecretSet:   secrets.Name(),
		AutoScaling: agenthosting.AgentAutoScalingArgs{
			MinAgents: pulumi.Int(1),
			MaxAgents: pulumi.Int(5),
		},
		EnableNoise: pulumi.Bool(true),
	})
	if err != nil {
		return err
	}
	// The newest lines of its active deployment's logs, read once the agent is ready.
	logs := agenthosting.GetAgentLogsOutput(ctx, agenthosting.GetAgentLogsOutputArgs{
		AgentName:    bot.Name,
		DeploymentId: bot.ActiveDeploymentId,
		Limit:        pulumi.Int(5),
	})
	ctx.Export("agentName", bot.Name)
	ctx.Export("deploymentId", bot.ActiveDeploymentId)
	ctx.Export("secretFields", secrets.FieldNames())
	ctx.Export("newestLogLines", logs.Logs().ApplyT(func(entries []agenthosting.LogEntry) []string {
		lines := make([]string, len(entries))
		for i, e := range entries {
			lines[i] = fmt.Sprintf("%s %s", e.Timestamp, e.Log)
		}
		return lines
	}))
	return nil
}
