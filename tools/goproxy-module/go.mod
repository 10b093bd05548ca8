module github.com/agent-hosting/pulumi-agent-hosting/tools/goproxy-module

go 1.25.11

require golang.org/x/mod v0.38.0
