/** Checking a record of a resource's fields against its field table (src/client/validate-fields.ts, which the client's bodies use too). */
export { validateFields } from "../client/validate-fields";
export type { CheckedField, ValidateOptions } from "../client/validate-fields";
