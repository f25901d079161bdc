package chronova

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// DefaultURL is the Chronova API used when no source names another.
const DefaultURL = "https://chronova.dev/api/v1"

// The names of the places a key or URL can come from, as Credentials reports
// them. They name the place only; the value itself is never part of them.
const (
	SourceConfig      = "chronicle.hcl chronova block"
	SourceEnvKey      = "env CHRONOVA_API_KEY"
	SourceEnvURL      = "env CHRONOVA_API_URL"
	SourceChronovaCfg = "~/.chronova.cfg"
	SourceWakatimeCfg = "~/.wakatime.cfg"
	SourceDefault     = "default"
)

// ErrNoKey reports that none of the places a Chronova API key can come from
// holds one. Its text names all of them so the user can act on it.
var ErrNoKey = errors.New("no Chronova API key found: set CHRONOVA_API_KEY, add an api_key line to ~/.chronova.cfg or ~/.wakatime.cfg, or set api_key in the chronova { } block of chronicle.hcl")

// Sources are the inputs of key and URL resolution. The caller passes the
// home directory and the environment in, so nothing here reads the real home
// or process environment behind its back (tests point Home at a temp dir).
type Sources struct {
	// APIKey and APIURL are the chronova { api_key, api_url } values from
	// chronicle.hcl, already resolved; empty means not set.
	APIKey string
	APIURL string
	// Home is the directory holding .chronova.cfg and .wakatime.cfg; empty
	// means no files are read.
	Home string
	// Getenv looks up environment variables; nil means no environment.
	Getenv func(string) string
}

// Credentials are a resolved API key and URL with where each came from.
// Printing Credentials with fmt shows the sources and the URL, never the key.
type Credentials struct {
	Key       string `json:"-"`
	KeySource string `json:"key_source,omitempty"`
	URL       string `json:"url"`
	URLSource string `json:"url_source"`
}

// String describes the credentials without the key, e.g.
// "key from env CHRONOVA_API_KEY, url https://chronova.dev/api/v1 (default)".
func (c Credentials) String() string {
	key := "no key"
	if c.Key != "" {
		key = "key from " + c.KeySource
	}
	return fmt.Sprintf("%s, url %s (%s)", key, redactURL(c.URL), c.URLSource)
}

// GoString keeps %#v from printing the key.
func (c Credentials) GoString() string { return "chronova.Credentials{" + c.String() + "}" }

// Resolve finds the API key and URL, each from the first place that has one:
// the chronicle.hcl value, then CHRONOVA_API_KEY / CHRONOVA_API_URL, then
// ~/.chronova.cfg, then ~/.wakatime.cfg (their api_key / api_url lines), and
// for the URL finally DefaultURL. The key and the URL are looked up
// independently, so a key from the environment may go with a URL from a file.
//
// A missing key is not an error here (Credentials.Key is empty, and callers
// decide: stdio mode stops with ErrNoKey, HTTP mode warns); an error means a
// settings file exists but cannot be read.
func Resolve(src Sources) (Credentials, error) {
	getenv := src.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	type place struct {
		source string
		values map[string]string
	}
	places := []place{
		{SourceConfig, map[string]string{"api_key": src.APIKey, "api_url": src.APIURL}},
		{SourceEnvKey, map[string]string{"api_key": getenv("CHRONOVA_API_KEY")}},
		{SourceEnvURL, map[string]string{"api_url": getenv("CHRONOVA_API_URL")}},
	}
	if src.Home != "" {
		for _, f := range []struct{ name, source string }{
			{".chronova.cfg", SourceChronovaCfg},
			{".wakatime.cfg", SourceWakatimeCfg},
		} {
			values, err := readCfg(filepath.Join(src.Home, f.name))
			if err != nil {
				return Credentials{}, err
			}
			places = append(places, place{f.source, values})
		}
	}

	creds := Credentials{URL: DefaultURL, URLSource: SourceDefault}
	keyFound, urlFound := false, false
	for _, p := range places {
		if v := strings.TrimSpace(p.values["api_key"]); v != "" && !keyFound {
			creds.Key, creds.KeySource, keyFound = v, p.source, true
		}
		if v := strings.TrimSpace(p.values["api_url"]); v != "" && !urlFound {
			creds.URL, creds.URLSource, urlFound = v, p.source, true
		}
	}
	return creds, nil
}

// readCfg parses one settings file; a file that does not exist has no values.
func readCfg(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading Chronova settings %s: %w", path, err)
	}
	return parseCfg(string(data)), nil
}
