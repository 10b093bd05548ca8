/** zod forms of the input rules (rules.ts), for the request body schemas. */
import { z } from "zod";
import { autoScalingFailures, imageProblem, nodeTypeProblem, secretSetNameProblem, serviceNameProblem } from "./rules";

const fromRule = (problem: (value: unknown) => string | undefined) =>
  z.string().superRefine((value, ctx) => {
    const reason = problem(value);
    if (reason) ctx.addIssue({ code: "custom", message: reason });
  });

export const serviceNameSchema = fromRule(serviceNameProblem);
export const secretSetNameSchema = fromRule(secretSetNameProblem);
export const imageSchema = fromRule(imageProblem);
export const nodeTypeSchema = z.literal("arm").superRefine((value, ctx) => {
  const reason = nodeTypeProblem(value);
  if (reason) ctx.addIssue({ code: "custom", message: reason });
});
export const autoScalingRequestSchema = z
  .object({ minAgents: z.number(), maxAgents: z.number() })
  .superRefine((value, ctx) => {
    for (const failure of autoScalingFailures(value)) {
      ctx.addIssue({ code: "custom", message: failure.reason, path: failure.property.split(".").slice(1) });
    }
  });
