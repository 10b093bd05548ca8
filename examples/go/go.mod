module example.com/agent-hosting-go

go 1.25

require (
	github.com/agent-hosting/pulumi-agent-hosting/sdk/go v0.1.0
	github.com/pulumi/pulumi/sdk/v3 v3.259.0
)
