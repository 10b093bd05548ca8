/** The Agent's registration: its type tokens, field tables, schema part and verbs. */
import { defineResource } from "../../core/resource-entry";
import { checkAgent } from "./check";
import { createVerb } from "./create";
import { deleteVerb } from "./delete";
import { diffVerb } from "./diff";
import { AGENT_FIELDS } from "./fields";
import { asInputs } from "./outputs";
import { AGENT_OUTPUTS } from "./outputs-table";
import { readVerb } from "./read";
import { AGENT_EXAMPLES, agentSchema } from "./schema";
import { DYNAMIC_AGENT_TYPE, NATIVE_AGENT_TYPE } from "./type-tokens";
import { UNKNOWN_VALUE } from "../../core/engine-sentinels";
import { updateVerb } from "./update";

export const AGENT = defineResource({
  name: "Agent",
  nativeType: NATIVE_AGENT_TYPE,
  dynamicType: DYNAMIC_AGENT_TYPE,
  fields: AGENT_FIELDS,
  outputs: AGENT_OUTPUTS,
  schema: agentSchema,
  examples: AGENT_EXAMPLES,
  decodeInputs: asInputs,
  // Previewing a create, the agent does not exist yet: its name is unknown like its ID, so a function
  // that reads it (Pulumi YAML's fn::invoke with ${bot.name}) waits for the update, as output invokes do.
  previewCreate: (inputs) => ({ ...inputs, name: UNKNOWN_VALUE }),
  verbs: { check: checkAgent, diff: diffVerb, create: createVerb, read: readVerb, update: updateVerb, delete: deleteVerb },
});
