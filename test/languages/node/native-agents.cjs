// The TypeScript/JavaScript side of the language tests: an inline Node
// program (run by stack-op.mjs through the Node Automation API) that
// uses the native plugin through `pulumi-agent-hosting/native`. The params
// have the same shape as the Go and Python drivers'.
const { Agent, Provider, getAgentLogsOutput, getSecretSet, getSecretSetOutput } = require("pulumi-agent-hosting/native");

module.exports = async function program(params) {
  const providers = {};
  for (const [name, p] of Object.entries(params.providers ?? {})) {
    providers[name] = new Provider(name, { apiKey: p.apiKey, baseUrl: p.baseUrl });
  }
  const outputs = {};
  for (const a of params.agents ?? []) {
    const args = { serviceName: a.serviceName, image: a.image };
    if (a.enableNoise !== undefined) args.enableNoise = a.enableNoise;
    if (a.secretSet !== undefined) args.secretSet = a.secretSet;
    if (a.autoScaling !== undefined) args.autoScaling = a.autoScaling;
    if (a.readyTimeoutSeconds !== undefined) args.readyTimeoutSeconds = a.readyTimeoutSeconds;
    const opts = {};
    if (a.provider) opts.provider = providers[a.provider];
    if (a.import) opts.import = a.import;
    const agent = new Agent(a.name, args, opts);
    outputs[`${a.name}.id`] = agent.id;
    outputs[`${a.name}.activeDeploymentId`] = agent.activeDeploymentId;
    outputs[`${a.name}.manifest`] = agent.manifest;
    outputs[`${a.name}.image`] = agent.image;
    outputs[`${a.name}.ready`] = agent.ready;
    if (a.reads) {
      outputs[`${a.name}.logCount`] = getAgentLogsOutput({ agentName: agent.name, limit: 5 }).logs.apply((l) => l.length);
      outputs[`${a.name}.secretFields`] = getSecretSetOutput({ name: agent.secretSet.apply((s) => s ?? "") }).fieldNames;
    }
  }
  for (const name of params.secretSets ?? []) {
    outputs[`secretSet.${name}`] = (await getSecretSet({ name })).fieldNames;
  }
  return outputs;
};
