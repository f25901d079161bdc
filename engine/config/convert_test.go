package config

import (
	"fmt"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// convertValue's shortcut gives what convert.Convert gives.
func TestConvertValueIsConvert(t *testing.T) {
	listOfString := cty.List(cty.String)
	for name, v := range map[string]cty.Value{
		"strings":      cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
		"with a null":  cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.NullVal(cty.String)}),
		"mixed":        cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.NumberIntVal(2), cty.True}),
		"empty":        cty.EmptyTupleVal,
		"a list":       cty.ListVal([]cty.Value{cty.StringVal("a")}),
		"marked":       cty.TupleVal([]cty.Value{cty.StringVal("a").Mark("sensitive")}),
		"not a string": cty.TupleVal([]cty.Value{cty.EmptyObjectVal}),
	} {
		t.Run(name, func(t *testing.T) {
			want, wantErr := convert.Convert(v, listOfString)
			got, err := convertValue(v, listOfString)
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("error %v, convert.Convert's %v", err, wantErr)
			}
			if err == nil && !got.RawEquals(want) {
				t.Fatalf("got %#v, convert.Convert gives %#v", got, want)
			}
		})
	}
}

// Services are decoded on every core, and come out as if one at a time:
// in the order written, with their diagnostics in that order, and every
// secret-looking value env() read registered for masking.
func TestManyServicesDecodeInOrder(t *testing.T) {
	var src strings.Builder
	want := map[string]bool{}
	for i := range 64 {
		fmt.Fprintf(&src, "service \"s%02d\" {\n  command = \"npx\"\n  env = { TOKEN = nonsensitive(env(\"TOKEN_%d\")) }\n}\n", i, i)
		want[fmt.Sprintf("token-%d", i)] = true
	}
	src.WriteString("service \"bad-a\" {\n}\nservice \"bad-b\" {\n}\n")
	getenv := func(name string) (string, bool) {
		n, ok := strings.CutPrefix(name, "TOKEN_")
		return "token-" + n, ok
	}
	cfg, _, diags := LoadSource("/cfg", "many.hcl", []byte(src.String()), Options{Home: "/home/u", Getenv: getenv})
	if len(cfg.Services) != 66 {
		t.Fatalf("%d services, want 66", len(cfg.Services))
	}
	for i, s := range cfg.Services[:64] {
		if s.Name != fmt.Sprintf("s%02d", i) || cfg.ServiceRanges[s.Name].Start.Line != 4*i+1 {
			t.Fatalf("service %d is %s at %v", i, s.Name, cfg.ServiceRanges[s.Name])
		}
	}
	if len(diags) != 2 || !strings.Contains(diags[0].Detail, `"bad-a"`) || !strings.Contains(diags[1].Detail, `"bad-b"`) {
		t.Fatalf("diagnostics not in the order written: %v", diags)
	}
	got := map[string]bool{}
	for _, v := range cfg.Sensitive {
		got[v] = true
	}
	for v := range want {
		if !got[v] {
			t.Fatalf("%s read by env() is not sensitive (%d registered)", v, len(cfg.Sensitive))
		}
	}
}
