// An end-to-end program: the agents and adoptions named in its parameters.
// params: { agents: [{ resource, args }], adopt: [{ resource, serviceName }], secretSet?,
//           earlier: [{ resource, args, providerText }], shadows: [{ resource, of }],
//           readsOf: [{ resource, of }] }
const pulumi = require("@pulumi/pulumi");
const ah = require("pulumi-agent-hosting");

/** An Agent as an earlier version registered it: the same type, with the serialized provider text it stored. */
class EarlierAgent extends pulumi.CustomResource {
  constructor(name, args, providerText) {
    super("pulumi-nodejs:dynamic/agent-hosting:Agent", name, { ...args, name: undefined, __provider: providerText });
  }
}

module.exports = (params) => {
  const outputs = {};
  const agents = {};
  for (const { resource, args } of params.agents ?? []) {
    const agent = new ah.Agent(resource, args);
    agents[resource] = agent;
    outputs[resource] = {
      name: agent.name,
      activeDeploymentId: agent.activeDeploymentId,
      desiredDeploymentId: agent.desiredDeploymentId,
      available: agent.available,
      ready: agent.ready,
      autoScaling: agent.autoScaling,
      manifest: agent.manifest,
    };
  }
  for (const { resource, args, providerText } of params.earlier ?? []) {
    outputs[resource] = { name: new EarlierAgent(resource, args, providerText).name };
  }
  // An agent whose inputs come from another agent's outputs: unknown during the first preview.
  for (const { resource, of } of params.shadows ?? []) {
    const target = outputs[of];
    const agent = new ah.Agent(resource, {
      serviceName: target.name.apply((n) => `${n}-shadow`),
      image: target.manifest.apply((m) => (m ? m.spec.image : "registry.example.com/bot:1")),
    });
    outputs[resource] = { name: agent.name };
  }
  // Functions whose arguments come from an agent: unknown in a preview that creates it, as Pulumi's output invokes are.
  for (const { resource, of } of params.readsOf ?? []) {
    const agent = agents[of];
    outputs[resource] = {
      logCount: ah.getAgentLogsOutput({ agentName: agent.name, limit: 5 }).logs.apply((l) => l.length),
      secretFields: ah.getSecretSetOutput({ name: agent.secretSet.apply((s) => s ?? "") }).fieldNames,
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
