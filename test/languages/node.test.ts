/** The native provider from a TypeScript/JavaScript program (`pulumi-agent-hosting/native`), through the Node Automation API. */
import { nodeDriver } from "./support/drivers";
import { languageScenario } from "./support/scenario";

languageScenario(nodeDriver);
