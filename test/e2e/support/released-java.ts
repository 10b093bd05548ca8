/**
 * A Java program as a user of the release writes it: its pom.xml names the
 * release's Maven repository (file://, in place of Maven Central) for the SDK,
 * under this id, as examples/java's README shows, and Maven's local
 * repository is the program's own (test/e2e/support/java-program.ts), so the
 * SDK's jar comes from the release and from nowhere else.
 */

/** The id of the release's repository in the program's pom (Maven records it beside what it fetched). */
export const RELEASE_REPOSITORY_ID = "agent-hosting-release";
