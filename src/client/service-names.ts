/**
 * The service's rules for the names in its paths: an agent's name (its
 * serviceName) and a secret set's name. The client checks them before a
 * request; the Agent's fields and the functions' arguments check them too.
 */
import { nameTests, ruleOf } from "./field-rules";
import type { Rule, ValueTest } from "./field-rules";

export const SERVICE_NAME_PATTERN = "^[a-z0-9]([a-z0-9-]*[a-z0-9])?$";
export const SECRET_SET_NAME_PATTERN = "^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$";

export const SERVICE_NAME_TESTS: readonly ValueTest[] = nameTests(
  1,
  54,
  SERVICE_NAME_PATTERN,
  `must match ${SERVICE_NAME_PATTERN}: lowercase letters, digits and hyphens, starting and ending with a letter or digit`,
);

export const SECRET_SET_NAME_TESTS: readonly ValueTest[] = nameTests(
  3,
  63,
  SECRET_SET_NAME_PATTERN,
  "must be a lowercase DNS subdomain: letters, digits, '-' and '.', starting and ending with a letter or digit",
);

export const serviceNameProblem: Rule = ruleOf(SERVICE_NAME_TESTS);

export const secretSetNameProblem: Rule = ruleOf(SECRET_SET_NAME_TESTS);
