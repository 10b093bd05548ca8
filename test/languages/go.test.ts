/** The native provider from a Go program (the generated SDK in sdk/go), through github.com/pulumi/pulumi/sdk/v3/go/auto. */
import { goDriver } from "./support/drivers";
import { languageScenario } from "./support/scenario";

languageScenario(goDriver);
