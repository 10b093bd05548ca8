// Agents, secret sets and logs of the Agent Hosting Service.
package agenthosting
