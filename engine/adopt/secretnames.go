package adopt

import (
	"slices"
	"strconv"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/scan"
	"github.com/chronicle-dev/chronicle/engine/secret"
)

// A secretClaim is one literal adopt replaces with a variable: the name
// it derives from the entry, and the value (kept in memory only, to tell
// values apart; never written or shown).
type secretClaim struct {
	name, value string
	// tool and entry are the claimant's, secretized with the derived
	// names, to ask its provider whether it could read another name.
	tool  string
	entry provider.Entry
}

// A varKey is one literal under the name derived for it.
type varKey struct{ name, value string }

// secretNames gives each literal adopt replaces its variable. Two tools
// holding different values under one derived name (Cline's and goose's
// GITHUB_PERSONAL_ACCESS_TOKEN) would otherwise share one variable, and
// one of them would silently get the other's value: each value other than
// the first gets a name of its own, NAME_2, NAME_3, … The value that keeps
// NAME is one whose tool can read no other name (goose's env_keys and
// Codex's env_vars pass a variable under its own name), when render says
// so, else the first found.
type secretNames struct {
	names map[varKey]string
	// apart maps a name given apart to the name it was derived as.
	apart map[string]string
}

// newSecretNames assigns the names of claims, in the order found.
func newSecretNames(claims []secretClaim, render func(tool string, e provider.Entry) ([]byte, error)) *secretNames {
	n := &secretNames{names: map[varKey]string{}, apart: map[string]string{}}
	byName := map[string][]secretClaim{}
	var order []string
	for _, c := range claims {
		if _, ok := byName[c.name]; !ok {
			order = append(order, c.name)
		}
		byName[c.name] = append(byName[c.name], c)
	}
	used := map[string]bool{}
	for _, name := range order {
		used[name] = true
	}
	for _, name := range order {
		var values []string
		for _, c := range byName[name] {
			if !slices.Contains(values, c.value) {
				values = append(values, c.value)
			}
		}
		if len(values) < 2 {
			continue
		}
		keeper := values[0]
		for _, c := range byName[name] {
			if render != nil && !readsOtherName(c, render) {
				keeper = c.value
				break
			}
		}
		next := 2
		for _, v := range values {
			if v == keeper {
				continue
			}
			other := name + "_" + strconv.Itoa(next)
			for used[other] {
				next++
				other = name + "_" + strconv.Itoa(next)
			}
			used[other] = true
			n.names[varKey{name, v}] = other
			n.apart[other] = name
		}
	}
	return n
}

// name returns the variable for value, derived as name.
func (n *secretNames) name(name, value string) string {
	if n == nil {
		return name
	}
	if other, ok := n.names[varKey{name, value}]; ok {
		return other
	}
	return name
}

// readsOtherName reports whether the claimant's tool can read its secret
// from a variable of another name: its entry, with the claim's reference
// renamed, still renders.
func readsOtherName(c secretClaim, render func(tool string, e provider.Entry) ([]byte, error)) bool {
	if _, err := render(c.tool, c.entry); err != nil {
		return true // refused as it is: the name changes nothing
	}
	_, err := render(c.tool, renameRef(c.entry, c.name, c.name+"_RENAMED"))
	return err == nil
}

// renameRef returns e with every reference to variable from naming to.
func renameRef(e provider.Entry, from, to string) provider.Entry {
	swap := func(v secret.Value) secret.Value {
		parts := v.Parts()
		if len(parts) == 0 {
			return v
		}
		out := make([]secret.Value, len(parts))
		for i, p := range parts {
			if p.Ref != nil && p.Ref.Kind == secret.KindEnv && p.Ref.Name == from {
				out[i] = secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: to})
				continue
			}
			if p.Ref != nil {
				out[i] = secret.FromRef(*p.Ref)
				continue
			}
			out[i] = secret.Literal(p.Text)
		}
		return secret.Concat(out...)
	}
	args := make([]secret.Value, len(e.Args))
	for i, a := range e.Args {
		args[i] = swap(a)
	}
	env, headers := map[string]secret.Value{}, map[string]secret.Value{}
	for k, v := range e.Env {
		env[k] = swap(v)
	}
	for k, v := range e.Headers {
		headers[k] = swap(v)
	}
	e.Args, e.Env, e.Headers, e.URL = args, env, headers, swap(e.URL)
	return e
}

// claims returns every literal secretize would replace in the services a
// scan found that adopt takes, with the names derived for them.
func claims(r scan.Result, home string) []secretClaim {
	var out []secretClaim
	for _, s := range r.Services {
		if !adoptable(s) {
			continue
		}
		s.Entry = provider.InProject(s.Location, s.Entry)
		clean, sz := secretizeNamed(s, home, nil)
		for _, c := range sz.claims {
			c.tool, c.entry = s.Location.Tool, clean.Entry
			out = append(out, c)
		}
	}
	return out
}
