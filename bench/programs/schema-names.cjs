// The names the Agent's schema (schema.json at the repository's root) declares:
// its input properties and its output properties, once each. The Agent classes
// (src/resources/agent/dynamic-agent.ts, native-agent.ts) register every one of
// them, as an SDK generated from the schema does, so the controls that stand
// for an Agent (agent-shaped.cjs, native-shaped.cjs) register the same.
const { readFileSync } = require("node:fs");
const { join } = require("node:path");

const AGENT_TOKEN = "agent-hosting:index:Agent";

function schemaPropertyNames() {
  const schema = JSON.parse(readFileSync(join(__dirname, "..", "..", "schema.json"), "utf8"));
  const agent = schema.resources[AGENT_TOKEN];
  if (agent === undefined) throw new Error(`schema.json declares no ${AGENT_TOKEN}: the controls cannot take the Agent's property names from it`);
  return [...new Set([...Object.keys(agent.inputProperties ?? {}), ...Object.keys(agent.properties ?? {})])];
}

module.exports = { schemaPropertyNames };
