// The Agent policy pack. Each rule's enforcement level (mandatory, advisory, disabled) and options
// are set in a config file: pulumi preview --policy-pack . --policy-pack-config policy-config.json
const { createAgentPolicyPack } = require("pulumi-agent-hosting/policy");

createAgentPolicyPack("agent-hosting");
