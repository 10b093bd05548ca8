/**
 * Diff's answer to the engine: which inputs changed, each as a detailed diff
 * entry, so `pulumi preview --diff` shows the property and whether it forces
 * a replacement (only `serviceName` does).
 */
import { DiffResponse, PropertyDiff } from "@pulumi/pulumi/proto/provider_pb";
import type { DiffResult, Props } from "../../core/resource-entry";

function kindOf(field: string, olds: Props, news: Props, replaces: boolean): PropertyDiff.Kind {
  const before = olds[field];
  const after = news[field];
  if (before === undefined || before === null) return replaces ? PropertyDiff.Kind.ADD_REPLACE : PropertyDiff.Kind.ADD;
  if (after === undefined || after === null) return replaces ? PropertyDiff.Kind.DELETE_REPLACE : PropertyDiff.Kind.DELETE;
  return replaces ? PropertyDiff.Kind.UPDATE_REPLACE : PropertyDiff.Kind.UPDATE;
}

export function diffResponse(outcome: DiffResult, olds: Props, news: Props): DiffResponse {
  const response = new DiffResponse();
  response.setChanges(outcome.changes ? DiffResponse.DiffChanges.DIFF_SOME : DiffResponse.DiffChanges.DIFF_NONE);
  response.setReplacesList(outcome.replaces);
  response.setDiffsList(outcome.changed);
  response.setStablesList(outcome.stables);
  response.setDeletebeforereplace(outcome.deleteBeforeReplace);
  response.setHasdetaileddiff(true);
  const detailed = response.getDetaileddiffMap();
  for (const field of outcome.changed) {
    const entry = new PropertyDiff();
    entry.setKind(kindOf(field, olds, news, outcome.replaces.includes(field)));
    entry.setInputdiff(true);
    detailed.set(field, entry);
  }
  return response;
}
