// Writes this platform's plugin tarball
// (dist-plugin/pulumi-resource-agent-hosting-v<version>-<os>-<arch>.tar.gz, or into
// the directory given) from the built package (run `npm run build` first).
// Install it with
//   pulumi plugin install resource agent-hosting <version> --file <tarball>
import { packPlugin } from "./lib/release/plugin-package.mjs";

const tarball = await packPlugin(process.argv[2]);
console.log(tarball);
