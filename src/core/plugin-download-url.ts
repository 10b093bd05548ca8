/**
 * Where the engine fetches the plugin when a program needs it and it is not
 * installed: the GitHub releases of the provider's repository, whose release
 * of tag v<version> holds pulumi-resource-agent-hosting-v<version>-<os>-<arch>.tar.gz.
 * The schema carries it into each SDK's plugin metadata; the native Node
 * classes pass it with every resource and invoke.
 */
export const REPOSITORY = "agent-hosting/pulumi-agent-hosting";
export const PLUGIN_DOWNLOAD_URL = `github://api.github.com/${REPOSITORY}`;
