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
		_, err = hosting.NewAppWebAccess(ctx, "web-access", &hosting.AppWebAccessArgs{
			AppId:   app.ID().ToStringOutput(),
			Enabled: pulumi.Bool(false),
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
	var deployment any
	if err := json.Unmarshal(state.Deployment, &deployment); err != nil {
		return err
	}
	unsealedState, err := json.Marshal(unsealed(deployment))
	if err != nil {
		return err
	}
	holding := []string{}
	if strings.Contains(string(unsealedState), token) {
		holding = append(holding, "state")
	}
	outputs := map[string]any{}
	for k, v := range up.Outputs {
		outputs[k] = map[string]any{"value": v.Value, "secret": v.Secret}
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]any{
		"outputs":             outputs,
		"up":                  up.Summary.ResourceChanges,
		"preview":             preview.ChangeSummary,
		"tokenOutsideSecrets": holding,
		"destroy":             destroy.Summary.ResourceChanges,
	})
}

// unsealed: the value with Pulumi secrets left out (the export shows them in plain text).
func unsealed(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if _, secret := x["4dabf18193072939515e22adb298388d"]; secret {
			return nil
		}
		out := map[string]any{}
		for k, e := range x {
			out[k] = unsealed(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = unsealed(e)
		}
		return out
	}
	return v
}
