// A Go program of the SDK generated from the plugin's schema, run through the real engine by
// the Automation API's inline program (Go has no language host here): up, a preview with no
// change, destroy. Prints one JSON line of what it saw.
// Usage: program <app dir> <api url> <token> <work dir>
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/pulumi-hosting/pulumi-hosting/sdk/go/hosting"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	if err := run(os.Args[1], os.Args[2], os.Args[3], os.Args[4]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func program(appDir string) pulumi.RunFunc {
	return func(ctx *pulumi.Context) error {
		app, err := hosting.NewApp(ctx, "web", &hosting.AppArgs{
			Source: pulumi.String(appDir),
			Name:   pulumi.String("go-web"),
			Env:    pulumi.StringMap{"K": pulumi.String("v")},
		})
		if err != nil {
			return err
		}
		www, err := hosting.NewCustomDomain(ctx, "www", &hosting.CustomDomainArgs{
			AppId:  app.ID().ToStringOutput(),
			Domain: pulumi.String("www.go.pointed.test"),
		})
		if err != nil {
			return err
		}
		dbs := hosting.GetDatabasesOutput(ctx, hosting.GetDatabasesOutputArgs{
			ServiceType: pulumi.String("postgres"),
		})
		ctx.Export("appId", app.ID())
		ctx.Export("env", app.Env)
		ctx.Export("domain", www.Hostname)
		ctx.Export("postgres", dbs.Items().ApplyT(func(l []hosting.DatabaseInfo) int { return len(l) }))
		return nil
	}
}

func run(appDir, url, token, work string) error {
	ctx := context.Background()
	s, err := auto.UpsertStackInlineSource(ctx, "dev", "go-hosting", program(appDir), auto.WorkDir(work))
	if err != nil {
		return err
	}
	if err := s.SetConfig(ctx, "hosting:apiUrl", auto.ConfigValue{Value: url}); err != nil {
		return err
	}
	if err := s.SetConfig(ctx, "hosting:token", auto.ConfigValue{Value: token, Secret: true}); err != nil {
		return err
	}
	up, err := s.Up(ctx)
	if err != nil {
		return err
	}
	preview, err := s.Preview(ctx)
	if err != nil {
		return err
	}
	state, err := s.Export(ctx)
	if err != nil {
		return err
	}
	destroy, err := s.Destroy(ctx, optdestroy.Remove())
	if err != nil {
		return err
	}
	outputs := map[string]any{}
	for k, v := range up.Outputs {
		outputs[k] = map[string]any{"value": v.Value, "secret": v.Secret}
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]any{
		"outputs":      outputs,
		"up":           up.Summary.ResourceChanges,
		"preview":      preview.ChangeSummary,
		"tokenInState": strings.Contains(string(state.Deployment), token),
		"destroy":      destroy.Summary.ResourceChanges,
	})
}
