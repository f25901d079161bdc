package proc

import (
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/service"
)

// minimalEnv names the variables of the hub's environment every stdio
// upstream gets: what a program needs to find its tools, its home, its
// locale, its temporary folder, the proxy and the CA certificates. Tokens the
// user exported for one service (NOTES_TOKEN, LINEAR_TOKEN) are not among
// them: a service gets what it declares in env, or what inherit_env names.
var minimalEnv = []string{
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "TMPDIR", "TERM",
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
	"SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS", "NVM_DIR",
}

// minimalPrefixes are families of variables passed whole (locale, XDG folders).
var minimalPrefixes = []string{"LC_", "XDG_"}

// windowsEnv is what Windows programs cannot start without.
var windowsEnv = []string{"SystemRoot", "COMSPEC", "PATHEXT", "APPDATA", "LOCALAPPDATA", "USERPROFILE"}

// Env returns the environment a stdio upstream starts with: the
// minimal set and what the service inherits from environ, then the
// service's declared variables (which win). withheld names, sorted, the
// variables of environ the child does not get.
func Env(environ []string, s service.Service, declared map[string]string, goos string) (env, withheld []string) {
	same := func(a, b string) bool { return a == b }
	if goos == "windows" {
		same = strings.EqualFold
	}
	passes := func(name string) bool {
		if s.InheritAllEnv {
			return true
		}
		for _, list := range [][]string{minimalEnv, s.InheritEnv} {
			if slices.ContainsFunc(list, func(n string) bool { return same(n, name) }) {
				return true
			}
		}
		if goos == "windows" && slices.ContainsFunc(windowsEnv, func(n string) bool { return same(n, name) }) {
			return true
		}
		for _, p := range minimalPrefixes {
			if strings.HasPrefix(name, p) {
				return true
			}
		}
		return false
	}
	for _, kv := range environ {
		name, _, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			continue
		}
		if _, mine := declared[name]; mine {
			continue
		}
		if passes(name) {
			env = append(env, kv)
		} else {
			withheld = append(withheld, name)
		}
	}
	names := make([]string, 0, len(declared))
	for k := range declared {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		env = append(env, k+"="+declared[k])
	}
	sort.Strings(withheld)
	return env, slices.Compact(withheld)
}

// HostOS is the system children run on; a variable so that tests can check
// the Windows rules anywhere.
var HostOS = runtime.GOOS
