/** The rule machinery, which lives with the client (src/client/field-rules.ts), as the field tables name it. */
export { booleanProblem, fieldRule, integerProblem, nameRule, objectMembers } from "../client/field-rules";
export type { Rule, RuleFailure } from "../client/field-rules";
