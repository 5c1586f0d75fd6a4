// sdkgen: the code generators of `pulumi package gen-sdk` (pkg/v3/codegen, the CLI's own module,
// same version), called directly. A stand-in for the language hosts' GeneratePackage, which the
// hosts that build on this machine (sdk v3.68) do not implement. Test instrument only.
// Usage: sdkgen <schema.json> <python|go|nodejs> <out dir>
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	nodejsgen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"

	"github.com/blang/semver"
)

// noLoader: the hosting schema references no other package.
type noLoader struct{}

func (noLoader) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("package %s is not available", pkg)
}

func (noLoader) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, fmt.Errorf("package %s is not available", d.Name)
}

func (noLoader) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("package %s is not available", pkg)
}

func (noLoader) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, fmt.Errorf("package %s is not available", d.Name)
}

func main() {
	if err := run(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "sdkgen:", err)
		os.Exit(1)
	}
}

func run(schemaPath, language, out string) error {
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return err
	}
	pkg, diags, err := schema.BindSpec(spec, noLoader{}, schema.ValidationOptions{})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return diags
	}
	var files map[string][]byte
	switch language {
	case "python":
		files, err = pygen.GeneratePackage("pulumi-hosting", pkg, nil, noLoader{})
	case "go":
		files, err = gogen.GeneratePackage("pulumi-hosting", pkg, nil)
	case "nodejs":
		files, err = nodejsgen.GeneratePackage("pulumi-hosting", pkg, nil, nil, false, noLoader{})
	default:
		return fmt.Errorf("unknown language %q", language)
	}
	if err != nil {
		return err
	}
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
