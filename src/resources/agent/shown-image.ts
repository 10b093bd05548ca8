/** The image as the provider's messages name it: a secret image (the program declares it secret) is never shown. */
export function shownImage(image: unknown, secretInputs: readonly string[]): string {
  return secretInputs.includes("image") ? "(a secret)" : String(image);
}
