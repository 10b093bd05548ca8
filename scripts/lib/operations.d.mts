// Types of operations.mjs, for the TypeScript tests.
export type AgentOperations = Record<string, string[]>;
export interface Disagreement {
  urn: string;
  preview: string[];
  update: string[];
}
export declare const isAgentType: (type: unknown) => boolean;
export declare function agentOperationRecorder(): { ops: AgentOperations; onEvent(event: unknown): void };
export declare function operationDisagreements(previewed: AgentOperations, applied: AgentOperations, updateSucceeded: boolean): Disagreement[];
export declare function disagreementMessage(disagreements: Disagreement[]): string | undefined;
