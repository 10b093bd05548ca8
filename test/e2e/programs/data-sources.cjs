// An end-to-end program that only reads through the package's data sources,
// in the program's own process.
// params: { secretSet?: string, logsOf?: string }
const ah = require("pulumi-agent-hosting");

module.exports = (params) => {
  const outputs = {};
  if (params.secretSet) outputs.secretFields = ah.getSecretSetOutput({ name: params.secretSet }).fieldNames;
  if (params.logsOf) outputs.logCount = ah.getAgentLogsOutput({ agentName: params.logsOf, limit: 5 }).logs.apply((l) => l.length);
  return outputs;
};
