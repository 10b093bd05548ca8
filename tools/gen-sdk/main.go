// gen-sdk generates the Python and Go SDKs of the agent-hosting provider
// from its package schema, with Pulumi's own code generators
// (github.com/pulumi/pulumi/pkg/v3/codegen/python and .../codegen/go), the
// same ones `pulumi package gen-sdk` runs. It needs no language host plugin
// and no network once its modules are in the Go module cache.
//
// Usage: gen-sdk <schema.json> <out-dir> [python|go ...]
// Writes <out-dir>/python and <out-dir>/go, each emptied first.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// The name recorded as the generator in every generated file's header.
const tool = "pulumi-agent-hosting gen-sdk"

// refusingLoader is the loader for a schema that references no other
// package: any attempt to load one is an error rather than a download.
type refusingLoader struct{}

func refuse(pkg string) error {
	return fmt.Errorf("the agent-hosting schema must not reference other packages; it references %q", pkg)
}

func (refusingLoader) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, refuse(pkg)
}

func (refusingLoader) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, refuse(d.Name)
}

func (refusingLoader) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, refuse(pkg)
}

func (refusingLoader) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, refuse(d.Name)
}

func bind(schemaPath string) (*schema.Package, error) {
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		return nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, fmt.Errorf("%s: %w", schemaPath, err)
	}
	pkg, diags, err := schema.BindSpec(spec, refusingLoader{}, schema.ValidationOptions{})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s: %s", schemaPath, diags.Error())
	}
	return pkg, nil
}

func write(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		target := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

func generate(pkg *schema.Package, language string) (map[string][]byte, error) {
	switch language {
	case "python":
		return pygen.GeneratePackage(tool, pkg, nil, refusingLoader{})
	case "go":
		return gogen.GeneratePackage(tool, pkg, nil)
	default:
		return nil, fmt.Errorf("unknown language %q: expected python or go", language)
	}
}

func run(args []string) error {
	if len(args) < 2 {
		return fmt.Errorf("usage: gen-sdk <schema.json> <out-dir> [python|go ...]")
	}
	languages := args[2:]
	if len(languages) == 0 {
		languages = []string{"python", "go"}
	}
	for _, language := range languages {
		// Each generator records its own language options on the package, so bind afresh for each.
		pkg, err := bind(args[0])
		if err != nil {
			return err
		}
		files, err := generate(pkg, language)
		if err != nil {
			return fmt.Errorf("%s SDK: %w", language, err)
		}
		if err := write(filepath.Join(args[1], language), files); err != nil {
			return err
		}
	}
	return nil
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gen-sdk:", err)
		os.Exit(1)
	}
}
