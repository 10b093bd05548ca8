// An end-to-end program: the agents and adoptions named in its parameters.
// params: { agents: [{ resource, args }], adopt: [{ resource, serviceName }], secretSet?, logsOf? }
const ah = require("pulumi-agent-hosting");

module.exports = (params) => {
  const outputs = {};
  for (const { resource, args } of params.agents ?? []) {
    const agent = new ah.Agent(resource, args);
    outputs[resource] = {
      name: agent.name,
      activeDeploymentId: agent.activeDeploymentId,
      ready: agent.ready,
      autoScaling: agent.autoScaling,
      manifest: agent.manifest,
    };
  }
  for (const { resource, serviceName } of params.adopt ?? []) {
    const agent = ah.Agent.get(resource, serviceName);
    outputs[resource] = { name: agent.name, image: agent.image, activeDeploymentId: agent.activeDeploymentId };
  }
  if (params.secretSet) {
    outputs.secretFields = ah.getSecretSetOutput({ name: params.secretSet }).fieldNames;
  }
  return outputs;
};
