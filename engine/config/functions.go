package config

import (
	"encoding/base64"
	"strconv"

	"net/url"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/chronicle-dev/chronicle/engine/secret"
)

// functions returns the functions available in chronicle's HCL: the go-cty
// standard library functions Terraform users know, plus env, file, homedir,
// abspath and secret. Every function but secret refuses a secret argument,
// so a reference can only be used whole or inside a string template.
func functions(home, dir string, getenv func(string) (string, bool), secretSeen func(string)) map[string]function.Function {
	fns := map[string]function.Function{
		// numbers
		"abs": stdlib.AbsoluteFunc, "ceil": stdlib.CeilFunc, "floor": stdlib.FloorFunc,
		"log": stdlib.LogFunc, "max": stdlib.MaxFunc, "min": stdlib.MinFunc,
		"parseint": stdlib.ParseIntFunc, "pow": stdlib.PowFunc, "signum": stdlib.SignumFunc,
		// strings
		"chomp": stdlib.ChompFunc, "format": stdlib.FormatFunc, "formatlist": stdlib.FormatListFunc,
		"indent": stdlib.IndentFunc, "join": stdlib.JoinFunc, "lower": stdlib.LowerFunc,
		"regex": stdlib.RegexFunc, "regexall": stdlib.RegexAllFunc, "replace": stdlib.ReplaceFunc,
		"split": stdlib.SplitFunc, "strrev": stdlib.ReverseFunc, "substr": stdlib.SubstrFunc,
		"title": stdlib.TitleFunc, "trim": stdlib.TrimFunc, "trimprefix": stdlib.TrimPrefixFunc,
		"trimsuffix": stdlib.TrimSuffixFunc, "trimspace": stdlib.TrimSpaceFunc, "upper": stdlib.UpperFunc,

		// collections
		"chunklist": stdlib.ChunklistFunc, "coalesce": stdlib.CoalesceFunc,
		"coalescelist": stdlib.CoalesceListFunc, "compact": stdlib.CompactFunc,
		"concat": stdlib.ConcatFunc, "contains": stdlib.ContainsFunc, "distinct": stdlib.DistinctFunc,
		"element": stdlib.ElementFunc, "flatten": stdlib.FlattenFunc, "index": stdlib.IndexFunc,
		"keys": stdlib.KeysFunc, "length": lengthFunc, "lookup": stdlib.LookupFunc,
		"merge": stdlib.MergeFunc, "range": stdlib.RangeFunc, "reverse": stdlib.ReverseListFunc,
		"setintersection": stdlib.SetIntersectionFunc, "setproduct": stdlib.SetProductFunc,
		"setsubtract": stdlib.SetSubtractFunc, "setunion": stdlib.SetUnionFunc,
		"slice": stdlib.SliceFunc, "sort": stdlib.SortFunc, "values": stdlib.ValuesFunc,
		"zipmap": stdlib.ZipmapFunc,
		// encoding and conversion
		"jsonencode": stdlib.JSONEncodeFunc, "jsondecode": stdlib.JSONDecodeFunc,
		"csvdecode": stdlib.CSVDecodeFunc, "base64encode": base64EncodeFunc,
		"base64decode": base64DecodeFunc, "urlencode": urlEncodeFunc,
		"tostring": stdlib.MakeToFunc(cty.String), "tonumber": stdlib.MakeToFunc(cty.Number),
		"tobool": stdlib.MakeToFunc(cty.Bool), "tolist": stdlib.MakeToFunc(cty.List(cty.DynamicPseudoType)),
		"toset": stdlib.MakeToFunc(cty.Set(cty.DynamicPseudoType)), "tomap": stdlib.MakeToFunc(cty.Map(cty.DynamicPseudoType)),
		// chronicle's own
		"env":     envFunc(getenv, secretSeen),
		"file":    fileFunc(home, dir),
		"homedir": homedirFunc(home),
		"abspath": abspathFunc(home, dir),
	}
	for name, f := range fns {
		fns[name] = refuseSecrets(name, f)
	}
	fns["secret"] = secret.Function
	fns["nonsensitive"] = nonsensitiveFunc
	return fns
}

// refuseSecrets wraps f so that a secret reference among its arguments is an
// error: a function could otherwise copy, transform or leak the reference.
// It also lets f take values with marks inside them (merge({a = var.t})):
// cty hands a function's implementation only unmarked values, so the
// arguments are unmarked whole and the result carries all their marks — a
// sensitive value anywhere in the arguments makes the whole result
// sensitive, which decoding then refuses with a diagnostic.
func refuseSecrets(name string, f function.Function) function.Function {
	params := f.Params()
	for i := range params {
		params[i].AllowMarked = true
	}
	var varParam *function.Parameter
	if vp := f.VarParam(); vp != nil {
		p := *vp
		p.AllowMarked = true
		varParam = &p
	}
	spec := &function.Spec{
		Description: f.Description(),
		Params:      params,
		VarParam:    varParam,
		Type: func(args []cty.Value) (cty.Type, error) {
			plain, _ := unmarkArgs(args)
			if err := checkNoSecret(name, plain); err != nil {
				return cty.NilType, err
			}
			return f.ReturnTypeForValues(plain)
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			plain, marks := unmarkArgs(args)
			v, err := f.Call(plain)
			if err != nil {
				return v, err
			}
			return v.WithMarks(marks), nil
		},
	}
	return function.New(spec)
}

// unmarkArgs returns args without marks, at any depth, and the marks they had.
func unmarkArgs(args []cty.Value) ([]cty.Value, cty.ValueMarks) {
	plain := make([]cty.Value, len(args))
	marks := make(cty.ValueMarks)
	for i, a := range args {
		v, m := a.UnmarkDeep()
		plain[i] = v
		for k := range m {
			marks[k] = struct{}{}
		}
	}
	return plain, marks
}

func checkNoSecret(name string, args []cty.Value) error {
	for i, a := range args {
		found := false
		_ = cty.Walk(a, func(_ cty.Path, v cty.Value) (bool, error) {
			if v.IsKnown() && !v.IsNull() && v.Type() == cty.String && secret.ContainsSentinel(v.AsString()) {
				found = true
			}
			return !found, nil
		})
		if found {
			return function.NewArgErrorf(i, "a secret() value cannot be passed to %s(): use it as a whole value or inside a string such as \"Bearer ${secret(\\\"env:TOKEN\\\")}\"", name)
		}
	}
	return nil
}

// envFunc reads the environment. A variable whose name looks secret
// (secret.LooksSecret: GITHUB_TOKEN, DB_PASSWORD, …) gives a value marked
// sensitive, which decoding refuses wherever it would be stored, and which
// secretSeen registers for masking.
func envFunc(getenv func(string) (string, bool), secretSeen func(string)) function.Function {
	return function.New(&function.Spec{
		Description: "Returns the value of an environment variable, or \"\" when it is not set.",
		Params:      []function.Parameter{{Name: "name", Type: cty.String}},
		Type:        function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			name := args[0].AsString()
			v, _ := getenv(name)
			if secret.LooksSecret(name) {
				if secretSeen != nil {
					secretSeen(v)
				}
				return cty.StringVal(v).Mark(sensitiveMark{"env(" + strconv.Quote(name) + ")"}), nil
			}
			return cty.StringVal(v), nil
		},
	})
}

// maxFileFuncSize caps what file() reads: configuration text, not data.
const maxFileFuncSize = 1 << 20

func fileFunc(home, dir string) function.Function {
	return function.New(&function.Spec{
		Description: "Returns the contents of a file (relative to the configuration directory).",
		Params:      []function.Parameter{{Name: "path", Type: cty.String}},
		Type:        function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p := ExpandPath(home, dir, args[0].AsString())
			info, err := os.Stat(p)
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			if !info.Mode().IsRegular() || info.Size() > maxFileFuncSize {
				return cty.NilVal, function.NewArgErrorf(0, "%s is not a regular file of at most 1 MiB", p)
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			if !utf8.Valid(b) {
				return cty.NilVal, function.NewArgErrorf(0, "%s is not valid UTF-8 text", p)
			}
			return cty.StringVal(string(b)), nil
		},
	})
}

func homedirFunc(home string) function.Function {
	return function.New(&function.Spec{
		Description: "Returns the home directory.",
		Type:        function.StaticReturnType(cty.String),
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
			return cty.StringVal(home), nil
		},
	})
}

func abspathFunc(home, dir string) function.Function {
	return function.New(&function.Spec{
		Description: "Returns the absolute form of a path (~ and relative paths expanded).",
		Params:      []function.Parameter{{Name: "path", Type: cty.String}},
		Type:        function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return cty.StringVal(filepath.ToSlash(ExpandPath(home, dir, args[0].AsString()))), nil
		},
	})
}

var base64EncodeFunc = function.New(&function.Spec{
	Description: "Encodes a string as base64.",
	Params:      []function.Parameter{{Name: "str", Type: cty.String}},
	Type:        function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.StringVal(base64.StdEncoding.EncodeToString([]byte(args[0].AsString()))), nil
	},
})

var base64DecodeFunc = function.New(&function.Spec{
	Description: "Decodes a base64 string.",
	Params:      []function.Parameter{{Name: "str", Type: cty.String}},
	Type:        function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		b, err := base64.StdEncoding.DecodeString(args[0].AsString())
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(0, "not valid base64: %s", err)
		}
		if !utf8.Valid(b) {
			return cty.NilVal, function.NewArgErrorf(0, "the decoded bytes are not UTF-8 text")
		}
		return cty.StringVal(string(b)), nil
	},
})

var urlEncodeFunc = function.New(&function.Spec{
	Description: "Escapes a string for use in a URL query.",
	Params:      []function.Parameter{{Name: "str", Type: cty.String}},
	Type:        function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.StringVal(url.QueryEscape(args[0].AsString())), nil
	},
})

// FunctionNames lists the functions available in configurations, for docs and completion.
func FunctionNames() []string {
	fns := functions("", "", func(string) (string, bool) { return "", false }, nil)
	names := make([]string, 0, len(fns))
	for n := range fns {
		names = append(names, n)
	}
	return names
}

// lengthFunc is Terraform's length: the number of elements of a collection,
// or of characters of a string.
var lengthFunc = function.New(&function.Spec{
	Description: "Returns the number of elements of a collection or characters of a string.",
	Params: []function.Parameter{{
		Name:             "value",
		Type:             cty.DynamicPseudoType,
		AllowDynamicType: true,
		AllowUnknown:     true,
	}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		if ty == cty.String || ty.IsCollectionType() || ty.IsTupleType() || ty.IsObjectType() || ty == cty.DynamicPseudoType {
			return cty.Number, nil
		}
		return cty.NilType, function.NewArgErrorf(0, "length needs a string, list, set, map, tuple or object")
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v := args[0]
		if v.Type() == cty.String {
			return stdlib.Strlen(v)
		}
		if v.Type().IsObjectType() {
			return cty.NumberIntVal(int64(len(v.Type().AttributeTypes()))), nil
		}
		return stdlib.Length(v)
	},
})
