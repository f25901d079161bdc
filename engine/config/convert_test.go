package config

import (
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
