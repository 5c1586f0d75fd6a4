// Package stackrun runs a Pulumi program through the real engine by the Automation API's inline
// program (Go has no language host here): up, a preview with no change, the state, destroy. It
// prints one JSON line of what it saw (test/helpers/python-run.ts reads the same shape).
package stackrun

import (
	"context"
	"encoding/json"
	"os"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Run runs `program` as stack "dev" of `project` in `work` (its relative paths are taken from
// there), with the API's URL, a token (a secret) and project config `config`.
func Run(project string, program pulumi.RunFunc, url, token, work string, config map[string]string) error {
	ctx := context.Background()
	if err := os.Chdir(work); err != nil {
		return err
	}
	s, err := auto.UpsertStackInlineSource(ctx, "dev", project, program, auto.WorkDir(work))
	if err != nil {
		return err
	}
	if err := s.SetConfig(ctx, "hosting:apiUrl", auto.ConfigValue{Value: url}); err != nil {
		return err
	}
	if err := s.SetConfig(ctx, "hosting:token", auto.ConfigValue{Value: token, Secret: true}); err != nil {
		return err
	}
	for k, v := range config {
		if err := s.SetConfig(ctx, k, auto.ConfigValue{Value: v}); err != nil {
			return err
		}
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
