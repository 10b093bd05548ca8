package main

import (
	"github.com/agent-hosting/pulumi-agent-hosting/sdk/go/agenthosting"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		build := agenthosting.GetImageDigestOutput(ctx, agenthosting.GetImageDigestOutputArgs{
			Image: pulumi.String("registry.example.com/voice-bot:main"),
		})
		bot, err := agenthosting.NewAgent(ctx, "bot", &agenthosting.AgentArgs{
			ServiceName: pulumi.String("voice-bot"),
			Image:       build.PinnedImage(),
		})
		if err != nil {
			return err
		}
		ctx.Export("digest", build.Digest())
		ctx.Export("deployedImage", bot.Image)
		return nil
	})
}
