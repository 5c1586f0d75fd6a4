// A Go program of the SDK generated from the plugin's schema, run through the real engine by
// the Automation API's inline program (stackrun): up, a preview with no change, destroy. Prints
// one JSON line of what it saw.
// Usage: program <app dir> <api url> <token> <work dir>
package main

import (
	"fmt"
	"os"

	"github.com/pulumi-hosting/pulumi-hosting/sdk/go/hosting"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"gohosting/stackrun"
)

func main() {
	err := stackrun.Run("go-hosting", program(os.Args[1]), os.Args[2], os.Args[3], os.Args[4], nil)
	if err != nil {
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
