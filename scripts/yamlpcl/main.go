// yamlpcl: Pulumi YAML programs to PCL (Pulumi's program language), through pulumi-yaml's own
// converter (the one `pulumi convert --from yaml` runs). A module of its own: pulumi-yaml v1.25.0
// builds against pkg/v3 v3.206, whose plugin API the CLI's v3.274.1 changed. scripts/sdkgen
// turns the PCL into TypeScript, Python and Go.
//
// Usage: yamlpcl <schema.json> <examples dir> <out dir>
// Each <name>.yaml of the folder becomes <out>/<name>/program.pp.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"

	"github.com/pulumi/pulumi-yaml/pkg/pulumiyaml"
	yamlgen "github.com/pulumi/pulumi-yaml/pkg/pulumiyaml/codegen"
)

// oneLoader serves the hosting package only: its schema references no other package.
type oneLoader struct{ pkg *schema.Package }

func (l oneLoader) find(name string) (*schema.Package, error) {
	if l.pkg != nil && name == l.pkg.Name {
		return l.pkg, nil
	}
	return nil, fmt.Errorf("package %s is not available", name)
}

func (l oneLoader) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return l.find(pkg)
}

func (l oneLoader) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.find(d.Name)
}

func (l oneLoader) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	p, err := l.find(pkg)
	if err != nil {
		return nil, err
	}
	return p.Reference(), nil
}

func (l oneLoader) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, nil)
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: yamlpcl <schema.json> <examples dir> <out dir>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "yamlpcl:", err)
		os.Exit(1)
	}
}

func run(schemaPath, dir, out string) error {
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return err
	}
	pkg, diags, err := schema.BindSpec(spec, oneLoader{}, schema.ValidationOptions{})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return diags
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return fmt.Errorf("no <name>.yaml in %s", dir)
	}
	sort.Strings(names)
	for _, path := range names {
		if err := convert(pkg, path, out); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

func convert(pkg *schema.Package, path, out string) error {
	source, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	template, tdiags, err := pulumiyaml.LoadYAMLBytes(filepath.Base(path), source)
	if err != nil {
		return err
	}
	if tdiags.HasErrors() {
		return tdiags
	}
	pp, diags, err := yamlgen.ConvertTemplateIL(template, oneLoader{pkg})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return diags
	}
	name := strings.TrimSuffix(filepath.Base(path), ".yaml")
	if err := os.MkdirAll(filepath.Join(out, name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, name, "program.pp"), []byte(pp), 0o644)
}
