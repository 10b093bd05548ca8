package main

import (
	"github.com/agent-hosting/pulumi-agent-hosting/sdk/go/agenthosting"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		secrets := agenthosting.GetSecretSetOutput(ctx, agenthosting.GetSecretSetOutputArgs{
			Name: pulumi.String("voice-bot-secrets"),
		})
		bot, err := agenthosting.NewAgent(ctx, "bot", &agenthosting.AgentArgs{
			ServiceName: pulumi.String("voice-bot"),
			Image:       pulumi.String("registry.example.com/voice-bot:1.4.2"),
			SecretSet:   secrets.Name(),
		})
		if err != nil {
			return err
		}
		ctx.Export("secretFields", secrets.FieldNames())
		ctx.Export("loadedSecretSets", bot.Manifest.Spec().EnvFromSecretNames())
		return nil
	})
}
