// sdkgen: Pulumi's code generators (pkg/v3/codegen, the CLI's own module, same version), called
// directly: the SDKs of `pulumi package gen-sdk` and the programs of `pulumi convert`. A stand-in
// for the language hosts' GeneratePackage and GenerateProgram, which the hosts that build on this
// machine (sdk v3.68) do not implement.
//
// Usage:
//
//	sdkgen sdk <schema.json> <python|go|nodejs> <out dir>
//	sdkgen programs <schema.json> <in dir> <out dir>
//
// programs: each <name>/program.pp of the folder (PCL, Pulumi's program language, as
// scripts/yamlpcl converts the reference examples) becomes <out>/<name>/<language>/ in
// TypeScript, Python and Go: Pulumi's program generators, as `pulumi convert` and the Registry's
// examples use them.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/blang/semver"
	"github.com/hashicorp/hcl/v2"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	nodejsgen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
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
	if len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: sdkgen sdk <schema.json> <python|go|nodejs> <out dir>")
		fmt.Fprintln(os.Stderr, "       sdkgen programs <schema.json> <in dir> <out dir>")
		os.Exit(2)
	}
	pkg, err := load(os.Args[2])
	if err == nil {
		switch os.Args[1] {
		case "sdk":
			err = sdk(pkg, os.Args[3], os.Args[4])
		case "programs":
			err = programs(pkg, os.Args[3], os.Args[4])
		default:
			err = fmt.Errorf("unknown command %q", os.Args[1])
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sdkgen:", err)
		os.Exit(1)
	}
}

func load(schemaPath string) (*schema.Package, error) {
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return nil, err
	}
	pkg, diags, err := schema.BindSpec(spec, oneLoader{}, schema.ValidationOptions{})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, diags
	}
	// Each language's options of the schema (importBasePath, packageName, …), as gen-sdk reads
	// them: the program generators name the SDK's packages and functions from them.
	err = pkg.ImportLanguages(map[string]schema.Language{
		"go": gogen.Importer, "python": pygen.Importer, "nodejs": nodejsgen.Importer,
	})
	if err != nil {
		return nil, err
	}
	return pkg, nil
}

func sdk(pkg *schema.Package, language, out string) error {
	var files map[string][]byte
	var err error
	switch language {
	case "python":
		files, err = pygen.GeneratePackage("pulumi-hosting", pkg, nil, oneLoader{pkg})
	case "go":
		files, err = gogen.GeneratePackage("pulumi-hosting", pkg, nil)
	case "nodejs":
		files, err = nodejsgen.GeneratePackage("pulumi-hosting", pkg, nil, nil, false, oneLoader{pkg})
	default:
		return fmt.Errorf("unknown language %q", language)
	}
	if err != nil {
		return err
	}
	return write(out, files)
}

type generator func(*pcl.Program) (map[string][]byte, hcl.Diagnostics, error)

var generators = map[string]generator{
	"nodejs": nodejsgen.GenerateProgram,
	"python": pygen.GenerateProgram,
	"go":     gogen.GenerateProgram,
}

func programs(pkg *schema.Package, dir, out string) error {
	found, err := filepath.Glob(filepath.Join(dir, "*", "program.pp"))
	if err != nil {
		return err
	}
	sort.Strings(found)
	if len(found) == 0 {
		return fmt.Errorf("no <name>/program.pp in %s", dir)
	}
	for _, path := range found {
		name := filepath.Base(filepath.Dir(path))
		if err := program(pkg, path, filepath.Join(out, name)); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

func program(pkg *schema.Package, path, out string) error {
	text, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	files := map[string][]byte{}
	for language, generate := range generators {
		// Bound anew for each: the generators rewrite the program they are given.
		bound, err := bind(pkg, text)
		if err != nil {
			return err
		}
		generated, diags, err := generate(bound)
		if err != nil {
			return fmt.Errorf("%s: %w", language, err)
		}
		// A diagnostic is a construct the generator could not carry over: refused, not shipped.
		if len(diags) > 0 {
			return fmt.Errorf("%s: %v", language, diags)
		}
		for file, body := range generated {
			files[filepath.Join(language, file)] = body
		}
	}
	return write(out, files)
}

func bind(pkg *schema.Package, text []byte) (*pcl.Program, error) {
	parser := syntax.NewParser()
	if err := parser.ParseFile(bytes.NewReader(text), "program.pp"); err != nil {
		return nil, err
	}
	if parser.Diagnostics.HasErrors() {
		return nil, parser.Diagnostics
	}
	// Every invoke in its Output form (getXOutput), as a program passing resources' outputs would
	// call it: that form keeps a result's secret mark, and Go's plain form refuses a secret result
	// ("unexpected secret result returned to invoke call").
	bound, diags, err := pcl.BindProgram(parser.Files, oneLoader{pkg}, pcl.PreferOutputVersionedInvokes)
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return bound, nil
}

func write(out string, files map[string][]byte) error {
	for name, body := range files {
		path := filepath.Join(out, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, body, 0o644); err != nil {
			return err
		}
	}
	return nil
}
