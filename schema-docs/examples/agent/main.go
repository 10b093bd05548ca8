package main

import (
	"github.com/agent-hosting/pulumi-agent-hosting/sdk/go/agenthosting"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		bot, err := agenthosting.NewAgent(ctx, "bot", &agenthosting.AgentArgs{
			ServiceName: pulumi.String("voice-bot"),
			Image:       pulumi.String("registry.example.com/voice-bot:1.4.2"),
			AutoScaling: agenthosting.AgentAutoScalingArgs{
				MinAgents: pulumi.Int(1),
				MaxAgents: pulumi.Int(3),
			},
			EnableNoise: pulumi.Bool(true),
			SecretSet:   pulumi.String("voice-bot-secrets"),
			// Checked at preview: the set must hold these fields.
			RequiredSecrets: pulumi.StringArray{
				pulumi.String("OPENAI_API_KEY"),
				pulumi.String("SIP_PASSWORD"),
			},
			// A destroy or replace waits up to 5 minutes for live calls to end.
			DrainSeconds: pulumi.Int(300),
		})
		if err != nil {
			return err
		}
		ctx.Export("deploymentId", bot.ActiveDeploymentId)
		ctx.Export("deployedImage", bot.Manifest.Spec().Image())
		return nil
	})
}
