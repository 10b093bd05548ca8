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
		})
		if err != nil {
			return err
		}
		logs := agenthosting.GetAgentLogsOutput(ctx, agenthosting.GetAgentLogsOutputArgs{
			AgentName: bot.Name,
			Limit:     pulumi.Int(5),
			Order:     pulumi.String("desc"),
		})
		ctx.Export("matchingEntries", logs.Total().Value())
		ctx.Export("newestLogLines", logs.Logs().ApplyT(func(entries []agenthosting.LogEntry) []string {
			lines := make([]string, len(entries))
			for i, entry := range entries {
				lines[i] = entry.Log
			}
			return lines
		}))
		return nil
	})
}
