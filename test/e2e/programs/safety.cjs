// An end-to-end program for the safety scenarios.
// params: { agents: [{ resource, args, secret?: [inputName], downstream?: true }] }
// A field named in `secret` is passed as pulumi.secret(value); `downstream`
// adds an agent whose serviceName is built from the first one's `name`.
const pulumi = require("@pulumi/pulumi");
const ah = require("pulumi-agent-hosting");

module.exports = (params) => {
  const outputs = {};
  for (const { resource, args, secret, downstream } of params.agents ?? []) {
    const declared = { ...args };
    for (const key of secret ?? []) declared[key] = pulumi.secret(declared[key]);
    const agent = new ah.Agent(resource, declared);
    outputs[resource] = {
      name: agent.name,
      activeDeploymentId: agent.activeDeploymentId,
      autoScaling: agent.autoScaling,
      manifest: agent.manifest,
      deployment: agent.deployment,
    };
    if (downstream) {
      const follower = new ah.Agent(`${resource}-follower`, {
        serviceName: agent.name.apply((name) => `${name}-follower`),
        image: "registry.example.com/bot:1",
      });
      outputs[`${resource}-follower`] = follower.name;
    }
  }
  return outputs;
};
