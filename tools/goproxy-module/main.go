// goproxy-module writes one version of a Go module in the layout of a Go
// module proxy (GOPROXY protocol), so that `GOPROXY=file://<out-dir>,...`
// serves it as the public proxy serves a tagged version:
//
//	<out-dir>/<escaped module path>/@v/list           the version, one a line
//	<out-dir>/<escaped module path>/@v/<version>.info {"Version":..., "Time":...}
//	<out-dir>/<escaped module path>/@v/<version>.mod  the module's go.mod
//	<out-dir>/<escaped module path>/@v/<version>.zip  the module's files (golang.org/x/mod/zip)
//
// The zip's entries carry no times and come in a fixed order, so the same
// sources give the same bytes.
//
// Usage: goproxy-module <module-dir> <version> <time (RFC 3339)> <out-dir>
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

type info struct {
	Version string
	Time    time.Time
}

func run(args []string) error {
	if len(args) != 4 {
		return fmt.Errorf("usage: goproxy-module <module-dir> <version> <time (RFC 3339)> <out-dir>")
	}
	dir, version, timeText, out := args[0], args[1], args[2], args[3]
	stamp, err := time.Parse(time.RFC3339, timeText)
	if err != nil {
		return fmt.Errorf("time: %w", err)
	}
	goMod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	path := modfile.ModulePath(goMod)
	if path == "" {
		return fmt.Errorf("%s/go.mod names no module", dir)
	}
	mod := module.Version{Path: path, Version: version}
	if err := module.Check(path, version); err != nil {
		return err
	}
	escaped, err := module.EscapePath(path)
	if err != nil {
		return err
	}
	escapedVersion, err := module.EscapeVersion(version)
	if err != nil {
		return err
	}
	versions := filepath.Join(out, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(versions, 0o755); err != nil {
		return err
	}
	var zipped bytes.Buffer
	if err := modzip.CreateFromDir(&zipped, mod, dir); err != nil {
		return err
	}
	infoJSON, err := json.Marshal(info{Version: version, Time: stamp.UTC()})
	if err != nil {
		return err
	}
	files := []struct {
		name string
		data []byte
	}{
		{"list", []byte(version + "\n")},
		{escapedVersion + ".info", append(infoJSON, '\n')},
		{escapedVersion + ".mod", goMod},
		{escapedVersion + ".zip", zipped.Bytes()},
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(versions, f.name), f.data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "goproxy-module:", err)
		os.Exit(1)
	}
}
