// Types of model-render.mjs, for the test that compares the generated files with the model.
export interface ModelTables {
  AGENT_FIELDS: readonly unknown[];
  AGENT_OUTPUTS: readonly unknown[];
}
export function renderModelTypes(model: ModelTables): string;
export function renderResourceTypes(model: ModelTables): string;
export function renderReadmeTables(model: ModelTables): Record<string, string>;
export function applyReadmeTables(readme: string, tables: Record<string, string>): string;
