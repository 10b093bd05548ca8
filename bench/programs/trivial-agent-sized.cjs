// Control for the preview figure: trivial dynamic resources that carry the
// same inputs and outputs as an Agent (the design's outputs: every input,
// the service's Agent with its deployment, and the manifest), with a
// provider that does nothing. Agents / this stack isolates the provider's own
// cost from the engine's per-property cost of that state.
const pulumi = require("@pulumi/pulumi");
const payload = { name: "x", ready: true, createdAt: "2026-11-23T06:42:31.913918279Z", updatedAt: "2026-11-23T06:42:31.913918279Z", activeDeploymentId: "dep-241593643e13", activeDeploymentReady: true, autoScaling: { minReplicas: 1, maxReplicas: 3 }, activeSessionCount: 0,
  deployment: { id: "dep-241593643e13", serviceId: "svc-1", createdAt: "2026-11-23T06:42:31.913918279Z", updatedAt: "2026-11-23T06:42:31.913918279Z", manifest: { apiVersion: "agents.emulator.local/v1", kind: "Agent", metadata: { name: "x", namespace: "emulator-default" }, spec: { platformNodeType: "arm", clusterLocal: false, image: "registry.example.com/voice-bot:1.0.0", autoScaling: { minReplicas: 1, maxReplicas: 3 }, envFromSecretNames: [], noiseModels: { enabled: false }, imagePullSecretNames: [] } } } };
payload.manifest = payload.deployment.manifest;
const provider = {
  async create(inputs) { return { id: inputs.serviceName, outs: { ...inputs, ...payload } }; },
  async diff(_id, olds, news) { return { changes: olds.serviceName !== news.serviceName }; },
  async delete() {},
};
class Big extends pulumi.dynamic.Resource {
  constructor(name, args, opts) { super(provider, name, { ...args, ...Object.fromEntries(Object.keys(payload).map((k) => [k, undefined])) }, opts, "bench", "Big"); }
}
module.exports = ({ count }) => { for (let i = 0; i < count; i++) new Big(`big-${i}`, { serviceName: `big-${i}`, image: "registry.example.com/voice-bot:1.0.0", autoScaling: { minAgents: 1, maxAgents: 3 }, nodeType: "arm", enableNoise: false, waitForReady: true, readyTimeoutSeconds: 600 }); return { count }; };
