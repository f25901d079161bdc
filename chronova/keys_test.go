package chronova

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// home builds a temp home holding the named fixtures of testdata/home; a
// fixture "x" is written as the file name "y" when given as "x=>y".
func home(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		src, dst, ok := strings.Cut(f, "=>")
		if !ok {
			dst = src
		}
		if err := os.WriteFile(filepath.Join(dir, dst), readFixture(t, "home/"+src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestResolveOrder(t *testing.T) {
	const (
		chronovaKey = "sk-test-FAKE0123456789"
		wakaKey     = "waka_FAKE-0000-1111-2222-333344445555"
		envURL      = "http://127.0.0.1:9/api/v1"
	)
	tests := []struct {
		name      string
		src       Sources
		files     []string
		key       string
		keySource string
		url       string
		urlSource string
	}{
		{
			name: "nothing anywhere",
			url:  DefaultURL, urlSource: SourceDefault,
		},
		{
			name:  "hcl beats everything",
			src:   Sources{APIKey: "hcl-key", APIURL: "https://hcl.example/api", Getenv: env(map[string]string{"CHRONOVA_API_KEY": "env-key", "CHRONOVA_API_URL": envURL})},
			files: []string{".chronova.cfg", ".wakatime.cfg"},
			key:   "hcl-key", keySource: SourceConfig,
			url: "https://hcl.example/api", urlSource: SourceConfig,
		},
		{
			name:  "env beats the files",
			src:   Sources{Getenv: env(map[string]string{"CHRONOVA_API_KEY": "env-key", "CHRONOVA_API_URL": envURL})},
			files: []string{".chronova.cfg", ".wakatime.cfg"},
			key:   "env-key", keySource: SourceEnvKey,
			url: envURL, urlSource: SourceEnvURL,
		},
		{
			name:  "blank env counts as unset",
			src:   Sources{Getenv: env(map[string]string{"CHRONOVA_API_KEY": "  ", "CHRONOVA_API_URL": ""})},
			files: []string{".chronova.cfg"},
			key:   chronovaKey, keySource: SourceChronovaCfg,
			url: DefaultURL, urlSource: SourceChronovaCfg,
		},
		{
			name:  "chronova.cfg beats wakatime.cfg",
			files: []string{".chronova.cfg", ".wakatime.cfg"},
			key:   chronovaKey, keySource: SourceChronovaCfg,
			url: DefaultURL, urlSource: SourceChronovaCfg,
		},
		{
			name:  "only wakatime.cfg",
			files: []string{".wakatime.cfg"},
			key:   wakaKey, keySource: SourceWakatimeCfg,
			url: DefaultURL, urlSource: SourceWakatimeCfg,
		},
		{
			name:  "key from env, url from a file",
			src:   Sources{Getenv: env(map[string]string{"CHRONOVA_API_KEY": "env-key"})},
			files: []string{".wakatime.cfg"},
			key:   "env-key", keySource: SourceEnvKey,
			url: DefaultURL, urlSource: SourceWakatimeCfg,
		},
		{
			name:  "sections are ignored and the last duplicate wins",
			files: []string{".chronova.sections-quirk.cfg=>.chronova.cfg", ".wakatime.cfg"},
			key:   "sk-test-FAKE-other-section-key", keySource: SourceChronovaCfg,
			url: DefaultURL, urlSource: SourceWakatimeCfg,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.src
			src.Home = home(t, tt.files...)
			got, err := Resolve(src)
			if err != nil {
				t.Fatal(err)
			}
			want := Credentials{Key: tt.key, KeySource: tt.keySource, URL: tt.url, URLSource: tt.urlSource}
			if got != want {
				t.Errorf("Resolve() = %#v\nwant        %#v", got, want)
			}
		})
	}
}

func TestResolveWithoutHomeReadsNoFiles(t *testing.T) {
	got, err := Resolve(Sources{})
	if err != nil || got.Key != "" || got.URL != DefaultURL {
		t.Fatalf("Resolve(Sources{}) = %v, %v", got, err)
	}
}

func TestResolveUnreadableFile(t *testing.T) {
	dir := t.TempDir()
	// A directory where the file should be cannot be read, whoever runs the test.
	if err := os.Mkdir(filepath.Join(dir, ".chronova.cfg"), 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := Resolve(Sources{Home: dir})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, ".chronova.cfg")) {
		t.Fatalf("err = %v, want one naming the file", err)
	}
}

func TestCredentialsNeverPrintTheKey(t *testing.T) {
	c := Credentials{Key: testKey, KeySource: SourceEnvKey, URL: "https://u:pw@chronova.dev/api/v1", URLSource: SourceEnvURL}
	for _, format := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
		out := fmt.Sprintf(format, c)
		if strings.Contains(out, testKey) || strings.Contains(out, "pw@") {
			t.Errorf("Sprintf(%q) = %s: shows a secret", format, out)
		}
	}
	if got, want := c.String(), "key from env CHRONOVA_API_KEY, url https://u:xxxxx@chronova.dev/api/v1 (env CHRONOVA_API_URL)"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestParseCfg(t *testing.T) {
	tests := []struct {
		name, in string
		want     map[string]string
	}{
		{"fixture", string(readFixture(t, "home/.chronova.cfg")), map[string]string{
			"api_key": "sk-test-FAKE0123456789", "api_url": "https://chronova.dev/api/v1",
			"debug": "false", "hide_file_names": "false",
		}},
		{"comments and blanks", "# api_key = a\n; api_key = b\n\n   \napi_key=c\n", map[string]string{"api_key": "c"}},
		{"last duplicate wins across sections", "[a]\napi_key = 1\n[b]\napi_key = 2\n", map[string]string{"api_key": "2"}},
		{"colon separator and case", "API_URL: https://x/api/v1\n", map[string]string{"api_url": "https://x/api/v1"}},
		{"value keeps = and #", "api_key = ab=c#d\n", map[string]string{"api_key": "ab=c#d"}},
		{"crlf and bom", "\ufeff[settings]\r\napi_key = k\r\n", map[string]string{"api_key": "k"}},
		{"junk lines skipped", "no separator here\n= empty key\n", map[string]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := parseCfg(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("parseCfg = %v, want %v", got, tt.want)
			}
		})
	}
}

// FuzzParseCfg checks that any input parses without panicking into trimmed,
// non-empty, lower-case keys, and that writing the result back out as
// "key = value" lines parses to the same map.
func FuzzParseCfg(f *testing.F) {
	for _, name := range []string{".chronova.cfg", ".chronova.sections-quirk.cfg", ".wakatime.cfg"} {
		f.Add(string(readFixture(f, "home/"+name)))
	}
	f.Add("api_key: a:b\r\n[x\n;c\n#d\n = \n")
	f.Fuzz(func(t *testing.T, in string) {
		got := parseCfg(in)
		var out strings.Builder
		for k, v := range got {
			if k == "" || k != strings.TrimSpace(k) || v != strings.TrimSpace(v) || strings.ContainsAny(k, "=:\n") {
				t.Fatalf("bad pair %q = %q from %q", k, v, in)
			}
			fmt.Fprintf(&out, "%s = %s\n", k, v)
		}
		if again := parseCfg(out.String()); !reflect.DeepEqual(again, got) {
			t.Fatalf("round trip changed %q into %q", got, again)
		}
	})
}
