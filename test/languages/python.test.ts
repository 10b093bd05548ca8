/** The native provider from a Python program (the generated SDK in sdk/python), through Pulumi's Python Automation API. */
import { pythonDriver } from "./support/drivers";
import { languageScenario } from "./support/scenario";

languageScenario(pythonDriver);
